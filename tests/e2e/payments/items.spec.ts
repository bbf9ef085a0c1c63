import type { Frame, Page } from '@playwright/test';
import { call, newMember, uniqueUsername } from '../../support/accounts.ts';
import { gameId, paidOrder } from '../../support/orders.ts';
import { useSession } from '../browser-session.ts';
import { afterDebounce, settledUser } from '../accounts/helpers.ts';
import { expect as baseExpect, hostedGameFrame, test } from '../fixtures.ts';
import { hydrated } from '../shell/helpers.ts';

// A purchase is a round trip through the checkout window, the webhook and the page's poll.
const expect = baseExpect.configure({ timeout: 20_000 });

const PASSWORD = 'Harbour-Lantern-Tricky-9';

/** The SDK 1.1 as a framed game sees it (sdk/v1/playport.d.ts). */
interface GameWindow {
  Playport: {
    PlayportError: new (code: string, message: string) => Error;
    pay(request: { sku: string }): Promise<unknown>;
    on(event: string, listener: () => void): () => void;
    auth: { onChange(listener: (login: unknown) => void): () => void };
    items: {
      list(): Promise<{ sku: string; name: string; quantity: number }[]>;
      consume(sku: string, options: { quantity: number; idempotencyKey: string }): Promise<unknown>;
    };
  };
  authChanges?: { token: string; user: { uid: number; isGuest: boolean } }[];
}

function game(page: Page) {
  return page.frameLocator('[data-testid="game-frame"]');
}

/** The answer of an SDK call in the frame: what it resolved with, or its error's code. */
function sdk<T>(frame: Frame, run: (playport: GameWindow['Playport']) => Promise<T>) {
  return frame.evaluate(
    `(${run.toString()})(window.Playport).then((resolved) => ({ resolved }), (error) => ({ code: error.code, isPlayportError: error instanceof window.Playport.PlayportError }))`,
  ) as Promise<{ resolved?: T; code?: string; isPlayportError?: boolean }>;
}

test.describe('game SDK 1.1: items and accounts', { tag: '@db' }, () => {
  test('Memory Cards buys a hint with the sandbox checkout, finds it in items.list and uses it up once; an unknown SKU and event are refused at once', async ({
    page,
    request,
    baseURL,
    problems,
  }) => {
    test.slow();
    // Using a hint when none is left is refused by the server: the answer the game is given.
    problems.allow(/409 \(Conflict\) @ http:\/\/localhost:\d+\/serve\/api\/game\/inventory\//);
    const member = await newMember(request, uniqueUsername('hinter'), PASSWORD);
    await useSession(page.context(), baseURL!, member.token);
    await page.goto('/play/memory-cards');
    await hydrated(page);
    const hint = game(page).locator('#hint');
    const body = game(page).locator('body');
    await expect(hint).toHaveText('Hint · $0.49');
    await expect(body).toHaveAttribute('data-hints', '0');
    const frame = await hostedGameFrame(page, 'memory-cards');

    // An SKU the game does not sell: not_found at once, no dialog.
    const started = Date.now();
    expect(await sdk(frame, (playport) => playport.pay({ sku: 'no-such-sku' }))).toEqual({ code: 'not_found', isPlayportError: true });
    expect(Date.now() - started).toBeLessThan(5_000);
    await expect(page.getByTestId('purchase-dialog')).toHaveCount(0);
    // An event the portal never sends: on() throws instead of waiting forever.
    expect(
      await frame.evaluate(() => {
        const { Playport } = window as unknown as GameWindow;
        try {
          Playport.on('no-such-event', () => undefined);
          return 'accepted';
        } catch (error) {
          return error instanceof Playport.PlayportError ? (error as Error & { code: string }).code : 'other';
        }
      }),
    ).toBe('unknown_event');

    // The game buys a hint: the sandbox checkout, a test card, and the inventory holds one.
    const checkoutOpened = page.waitForEvent('popup');
    await hint.click();
    const checkout = await checkoutOpened;
    await expect(checkout.getByTestId('sandbox-checkout')).toContainText('Hint · Memory Cards · $0.49');
    await hydrated(checkout);
    await checkout.getByLabel('Card number').fill('4242 4242 4242 4242');
    const closed = checkout.waitForEvent('close');
    await checkout.getByTestId('sandbox-pay').click();
    await closed;
    await expect(body).toHaveAttribute('data-hints', '1');
    await expect(hint).toHaveText('Hint (1)');
    expect(await sdk(frame, (playport) => playport.items.list())).toEqual({ resolved: [{ sku: 'memory-cards-hint', name: 'Hint', quantity: 1 }] });

    // Used in the game: one pair is shown, and the server's inventory is empty.
    await hint.click();
    await expect(body).toHaveAttribute('data-hints', '0');
    await expect(game(page).locator('.card.hinted')).toHaveCount(2);
    expect(await sdk(frame, (playport) => playport.items.list())).toEqual({ resolved: [] });
    const appId = await gameId(request, 'memory-cards');
    expect((await call(request, 'GET', `/game/inventory/${appId}`, { token: member.token })).data).toEqual({ items: [] });
    expect(await sdk(frame, (playport) => playport.items.consume('memory-cards-hint', { quantity: 1, idempotencyKey: 'e2e-none-left' }))).toEqual({
      code: 'not_enough_items',
      isPlayportError: true,
    });
  });

  test('a guest who signs in inside the purchase dialog to an account that owns the gold backs gets already_owned, and the game gets the new player', async ({
    page,
    request,
    problems,
  }) => {
    test.slow();
    // The order the dialog makes as the account is refused: the answer the game is given.
    problems.allow(/409 \(Conflict\) @ http:\/\/localhost:\d+\/serve\/api\/game\/pay\//);
    const username = uniqueUsername('owner');
    const owner = await newMember(request, username, PASSWORD);
    const appId = await gameId(request, 'solitaire');
    await paidOrder(request, owner.token, appId, 'solitaire-gold-backs');

    await page.goto('/play/solitaire');
    await hydrated(page);
    const guest = await settledUser(page, request);
    expect(guest.userInfo.isGuest).toBe(true);
    const backs = game(page).locator('#backs');
    await expect(backs).toHaveText('Gold card backs · $1.99');
    const frame = await hostedGameFrame(page, 'solitaire');
    await frame.evaluate(() => {
      const playing = window as unknown as GameWindow;
      playing.authChanges = [];
      playing.Playport.auth.onChange((login) => playing.authChanges!.push(login as NonNullable<GameWindow['authChanges']>[number]));
    });
    let checkouts = 0;
    page.on('popup', () => (checkouts += 1));

    const answer = sdk(frame, (playport) => playport.pay({ sku: 'solitaire-gold-backs' }));
    const secure = page.getByTestId('purchase-secure');
    await expect(secure).toContainText('Secure your account to buy');
    await secure.getByRole('tab', { name: 'Sign in' }).click();
    const signIn = secure.getByTestId('password-sign-in');
    await signIn.getByLabel('Username').fill(username);
    await signIn.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await afterDebounce(page);
    await page.getByTestId('password-sign-in-submit').click();

    // The account owns the item: refused with already_owned, no checkout, and no second order.
    expect(await answer).toEqual({ code: 'already_owned', isPlayportError: true });
    await expect(secure).toHaveCount(0);
    await expect(page.getByTestId('purchase-dialog')).toHaveCount(0);
    expect(checkouts).toBe(0);
    const orders = await call<{ items: { sku: string; status: string }[] }>(request, 'GET', '/member/orders/', { token: owner.token });
    expect(orders.data.items).toEqual([expect.objectContaining({ sku: 'solitaire-gold-backs', status: 'paid' })]);

    // The game heard of the new player, with a token of its own, and shows what they own.
    await expect
      .poll(() => frame.evaluate(() => (window as unknown as GameWindow).authChanges!.map(({ user }) => ({ uid: user.uid, isGuest: user.isGuest }))))
      .toEqual([{ uid: owner.userInfo.uid, isGuest: false }]);
    const token = await frame.evaluate(() => (window as unknown as GameWindow).authChanges![0]!.token);
    expect(token.split('.')).toHaveLength(3);
    await expect(game(page).locator('body')).toHaveAttribute('data-backs', 'gold');
    await expect(backs).toHaveText(/Green backs|Gold backs/);
  });

  test('a game asks a guest to sign in with auth.prompt: closed it is cancelled, signed in it answers the member, and a sign-out in another tab reaches the game', async ({
    page,
    context,
    request,
  }) => {
    test.slow();
    const username = uniqueUsername('prompted');
    const member = await newMember(request, username, PASSWORD);
    await page.goto('/play/solitaire');
    await hydrated(page);
    const guest = await settledUser(page, request);
    expect(guest.userInfo.isGuest).toBe(true);
    await expect(game(page).locator('#backs')).toHaveText('Gold card backs · $1.99');
    const frame = await hostedGameFrame(page, 'solitaire');
    await frame.evaluate(() => {
      const playing = window as unknown as GameWindow;
      playing.authChanges = [];
      playing.Playport.auth.onChange((login) => playing.authChanges!.push(login as NonNullable<GameWindow['authChanges']>[number]));
    });
    const changes = () => frame.evaluate(() => (window as unknown as GameWindow).authChanges!.map(({ user }) => ({ uid: user.uid, isGuest: user.isGuest })));
    type Prompted = { status: string; token?: string; user?: { uid: number; isGuest: boolean } };
    const prompt = () => sdk(frame, (playport) => (playport as unknown as { auth: { prompt(): Promise<Prompted> } }).auth.prompt());

    // Closed: cancelled, and the player is still the guest.
    const closed = prompt();
    const dialog = page.getByTestId('game-sign-in');
    await expect(dialog).toContainText('Sign in to keep playing');
    // One dialog at a time: a second ask, or a purchase, meanwhile is busy.
    expect(await prompt()).toEqual({ code: 'busy', isPlayportError: true });
    expect(await sdk(frame, (playport) => playport.pay({ sku: 'solitaire-gold-backs' }))).toEqual({ code: 'busy', isPlayportError: true });
    await dialog.getByRole('button', { name: 'Close' }).click();
    expect(await closed).toEqual({ resolved: { status: 'cancelled' } });
    expect(await changes()).toEqual([]);

    // Signed in with the portal's own form: the member and a new game token.
    const signedIn = prompt();
    await expect(dialog).toBeVisible();
    const form = dialog.getByTestId('password-sign-in');
    await form.getByLabel('Username').fill(username);
    await form.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await afterDebounce(page);
    await dialog.getByTestId('password-sign-in-submit').click();
    const answer = await signedIn;
    expect(answer.resolved).toMatchObject({ status: 'signed_in', user: { uid: member.userInfo.uid, isGuest: false } });
    expect(answer.resolved!.token!.split('.')).toHaveLength(3);
    await expect(dialog).toHaveCount(0);
    await expect.poll(changes).toEqual([{ uid: member.userInfo.uid, isGuest: false }]);
    // A member asked again is answered at once, without a dialog.
    expect((await prompt()).resolved).toMatchObject({ status: 'signed_in', user: { uid: member.userInfo.uid } });

    // Signed out in another tab: the game goes on as a new guest and is told so.
    const second = await context.newPage();
    await second.goto('/user/profile');
    await hydrated(second);
    await second.getByTestId('profile-sign-out').click();
    await expect(second).toHaveURL('/user');
    await expect.poll(async () => (await changes()).length).toBe(2);
    const [, after] = await changes();
    expect(after).toMatchObject({ isGuest: true });
    expect(after!.uid).not.toBe(member.userInfo.uid);
  });
});
