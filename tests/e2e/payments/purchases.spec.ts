import type { Page } from '@playwright/test';
import { call, newMember, uniqueUsername } from '../../support/accounts.ts';
import { gameId } from '../../support/orders.ts';
import { recordTracking, useSession } from '../browser-session.ts';
import { afterDebounce, settledUser } from '../accounts/helpers.ts';
import { expect as baseExpect, hostedGameFrame, portalTakesClicks, test } from '../fixtures.ts';
import { hydrated } from '../shell/helpers.ts';

// A purchase is a round trip through the checkout window, the webhook and the page's poll.
const expect = baseExpect.configure({ timeout: 20_000 });

const PASSWORD = 'Harbour-Lantern-Tricky-9';

/** The SDK as a framed game sees it (sdk/v1/playport.d.ts). */
type GameWindow = { Playport: { pay(request: { sku: string }): Promise<unknown> } };

function game(page: Page) {
  return page.frameLocator('[data-testid="game-frame"]');
}

test.describe('the game bridge and purchases', { tag: '@db' }, () => {
  test('a guest buying gold card backs in Solitaire secures the account, is declined, buys again, passes the bank challenge, gets the item once and finds the order', async ({
    page,
    request,
  }) => {
    test.slow();
    const tracked = await recordTracking(page);
    await page.goto('/play/solitaire');
    await hydrated(page);
    const guest = await settledUser(page, request);
    expect(guest.userInfo.isGuest).toBe(true);
    const buy = game(page).locator('#backs');
    await expect(buy).toHaveText('Gold card backs · $1.99');
    await expect(game(page).locator('body')).toHaveAttribute('data-backs', 'green');

    // A guest is asked to secure the account first; the purchase goes on once it is done.
    await buy.click();
    const secure = page.getByTestId('purchase-secure');
    await expect(secure).toContainText('Secure your account to buy');
    await secure.getByLabel('Username').fill(uniqueUsername('buyer'));
    await secure.getByLabel('Password', { exact: true }).fill(PASSWORD);
    const checkoutOpened = page.waitForEvent('popup');
    await secure.getByTestId('create-account-submit').click();
    const checkout = await checkoutOpened;
    await expect(page.getByTestId('purchase-waiting')).toBeVisible();
    const member = await settledUser(page, request, guest.token);
    expect(member.userInfo).toMatchObject({ uid: guest.userInfo.uid, isGuest: false });

    // The sandbox checkout: a declined card, then the card that asks for the bank's code.
    await expect(checkout.getByTestId('sandbox-checkout')).toContainText('Gold card backs · Solitaire · $1.99');
    await hydrated(checkout);
    const declinedClosed = checkout.waitForEvent('close');
    await checkout.getByLabel('Card number').fill('4000 0000 0000 0002');
    await checkout.getByTestId('sandbox-pay').click();
    // The declined order is over: the play page closes its checkout and says so (decision 118).
    await declinedClosed;
    await expect(page.getByTestId('toast').filter({ hasText: 'The payment did not go through. Nothing was charged.' })).toBeVisible();
    await expect(page.getByTestId('purchase-dialog')).toHaveCount(0);

    // Another card, with a new purchase.
    await portalTakesClicks(page);
    const secondOpened = page.waitForEvent('popup');
    await buy.click();
    const checkout2 = await secondOpened;
    await hydrated(checkout2);
    await checkout2.getByLabel('Card number').fill('4000 0000 0000 3220');
    await checkout2.getByTestId('sandbox-pay').click();
    await checkout2.getByLabel('Code').fill('1234');
    const closed = checkout2.waitForEvent('close');
    await checkout2.getByRole('button', { name: 'Confirm' }).click();
    // The window closes itself once paid, or the play page closes it as soon as its poll sees the
    // order paid, whichever comes first (so its "paid" view may never be seen here).
    await closed;

    // The game gets the item; the purchase is tracked once.
    await expect(game(page).locator('body')).toHaveAttribute('data-backs', 'gold');
    await expect(page.getByTestId('purchase-dialog')).toHaveCount(0);
    await expect(buy).toHaveText('Green backs');
    const purchases = (await tracked()).filter((e) => e.event === 'purchase');
    expect(purchases).toHaveLength(1);
    expect(purchases[0]!.data).toMatchObject({ amount: 1.99, currency: 'USD' });
    const orderId = purchases[0]!.data.order_id as string;

    // Played again, the game is told nothing twice and knows it owns the backs.
    await page.reload();
    await expect(buy).toHaveText(/Green backs|Gold backs/);
    expect((await tracked()).filter((e) => e.event === 'purchase')).toHaveLength(0);

    // My area lists the order, paid, with its receipt.
    await page.goto('/user');
    const item = page.getByTestId('order-item').first();
    await expect(item).toHaveAttribute('data-status', 'paid');
    await expect(item.getByTestId('order-status')).toHaveText('Paid');
    await item.locator('summary').click();
    await expect(item.getByTestId('order-receipt')).toContainText(orderId);
    await expect(item.getByTestId('order-receipt')).toContainText('$1.99');
  });

  test('a guest who closes the secure-account step instead of creating the account: the game learns why nothing was bought', async ({ page, request }) => {
    test.slow();
    await page.goto('/play/solitaire');
    await hydrated(page);
    const guest = await settledUser(page, request);
    expect(guest.userInfo.isGuest).toBe(true);
    await expect(game(page).locator('#backs')).toHaveText('Gold card backs · $1.99');
    const frame = await hostedGameFrame(page, 'solitaire');
    const answer = frame.evaluate(() =>
      (window as unknown as GameWindow).Playport.pay({ sku: 'solitaire-gold-backs' }).then(
        (result: unknown) => ({ resolved: result }),
        (error: { code: string; message: string }) => ({ code: error.code, message: error.message }),
      ),
    );
    const secure = page.getByTestId('purchase-secure');
    await expect(secure).toContainText('Secure your account to buy');
    await secure.getByRole('button', { name: 'Close' }).click();
    expect(await answer).toEqual({
      code: 'account_not_secured',
      message: 'Secure your account first: set a password or link a sign-in method, so that what you buy stays yours.',
    });
    await expect(secure).toHaveCount(0);
    // Nothing was ordered, and the game may ask again.
    const again = frame.evaluate(() =>
      (window as unknown as GameWindow).Playport.pay({ sku: 'solitaire-gold-backs' }).catch((error: { code: string }) => error.code),
    );
    await expect(secure).toBeVisible();
    await secure.getByRole('button', { name: 'Close' }).click();
    expect(await again).toBe('account_not_secured');
  });

  test('in Chinese, the checkout and My area name the game in Chinese', async ({ page, request, context, baseURL }) => {
    test.slow();
    const member = await newMember(request, uniqueUsername('zhbuyer'), PASSWORD);
    await useSession(context, baseURL!, member.token);
    await page.goto('/zh-CN/play/solitaire');
    await hydrated(page);
    const buy = game(page).locator('#backs');
    await expect(buy).toHaveText(/^金色牌背 · /);
    const checkoutOpened = page.waitForEvent('popup');
    await buy.click();
    const checkout = await checkoutOpened;
    await expect(checkout.getByTestId('sandbox-checkout')).toContainText('金色牌背 · 纸牌接龙 · ');
    await expect(checkout.getByTestId('sandbox-checkout')).not.toContainText('Solitaire');
    await hydrated(checkout);
    await checkout.getByRole('textbox').first().fill('4242 4242 4242 4242');
    const closed = checkout.waitForEvent('close');
    await checkout.getByTestId('sandbox-pay').click();
    await closed;
    await expect(game(page).locator('body')).toHaveAttribute('data-backs', 'gold');

    await page.goto('/zh-CN/user');
    const item = page.getByTestId('order-item').first();
    await expect(item).toHaveAttribute('data-status', 'paid');
    await expect(item).toContainText('纸牌接龙');
    await expect(item).not.toContainText('Solitaire');
  });

  test('2048 signs in through the SDK and keeps its game in the cloud; another browser finds it after signing in', async ({
    page,
    request,
    browser,
    baseURL,
  }) => {
    // Two browsers, a game and a password sign-in with its proof of work: measured at 28 s on a
    // quiet runner and past 90 s with both workers in long journeys.
    test.setTimeout(150_000);
    const username = uniqueUsername('saver');
    const member = await newMember(request, username, PASSWORD);
    await useSession(page.context(), baseURL!, member.token);
    await page.clock.install();
    await page.goto('/play/2048');
    const body = game(page).locator('body');
    await expect(body).toHaveAttribute('data-cloud', 'loaded');
    // A player who pauses longer than the save's debounce: 'saved' must then still mean the newest move.
    await page.clock.runFor(1_200);
    await page.getByTestId('game-frame').focus();
    for (const key of ['ArrowLeft', 'ArrowUp', 'ArrowRight', 'ArrowDown', 'ArrowLeft', 'ArrowUp']) await page.keyboard.press(key);
    await expect(body).toHaveAttribute('data-cloud', 'saved');
    const moves = Number(await body.getAttribute('data-moves'));
    const score = Number(await body.getAttribute('data-score'));
    expect(moves).toBeGreaterThan(0);
    const saved = (
      await call<{ value: { moves: number; score: number; board: number[][] } }>(request, 'GET', `/game/saves/${await gameId(request, '2048')}/progress`, {
        token: member.token,
      })
    ).data.value;
    expect(saved).toMatchObject({ moves, score });

    // Another browser profile: a guest there signs in with the password, and the game goes on.
    const other = await browser.newContext({ baseURL, extraHTTPHeaders: { 'x-forwarded-for': `10.79.${moves}.${score % 250}` } });
    const second = await other.newPage();
    await second.goto('/login');
    await hydrated(second);
    await settledUser(second, request);
    await second.getByLabel('Username').fill(username);
    await second.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await afterDebounce(second);
    await second.getByTestId('password-sign-in-submit').click();
    await expect(second).not.toHaveURL(/\/login/);
    await second.goto('/play/2048');
    const restored = game(second).locator('body');
    await expect(restored).toHaveAttribute('data-cloud', 'loaded');
    await expect(restored).toHaveAttribute('data-moves', String(moves));
    await expect(restored).toHaveAttribute('data-score', String(score));
    await other.close();
  });
});
