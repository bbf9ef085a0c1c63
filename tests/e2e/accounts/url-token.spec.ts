import { randomBytes } from 'node:crypto';
import type { BrowserContext, Page } from '@playwright/test';
import { STAND_IN_ISSUERS } from '../../../playwright.config.ts';
import { expect, test } from '../fixtures.ts';
import { call, newGuest, newMember, uniqueUsername } from '../../support/accounts.ts';
import { browserToken, useSession } from '../browser-session.ts';
import { hydrated } from '../shell/helpers.ts';
import { settledUser } from './helpers.ts';

/**
 * A link that carries a session token (spec section 4) must not let its sender plant their
 * session in someone else's browser (decision 050).
 */

/** Signed in at the local identity providers as one person (all stand-ins share 127.0.0.1). */
async function signedInAtProviders(context: BrowserContext, sub: string, name: string): Promise<void> {
  await context.addCookies(
    Object.values(STAND_IN_ISSUERS).flatMap((url) => [
      { name: 'stand_in_user', value: sub, url },
      { name: 'stand_in_name', value: encodeURIComponent(name), url },
    ]),
  );
}

async function orders(request: Parameters<typeof call>[0], token: string): Promise<string[]> {
  return (await call<{ items: { id: string; status: string }[] }>(request, 'GET', '/member/orders/', { token })).data.items.map(
    (order) => `${order.id}:${order.status}`,
  );
}

/** The dialog a link's token opens, by its accessible name. */
function linkDialog(page: Page, nickname: string) {
  return page.getByRole('alertdialog', { name: `Continue as ${nickname}?` });
}

test.describe('tokens in links', { tag: '@db' }, () => {
  test("a member token planted into a fresh browser: nothing the visitor then links or buys lands in the sender's account unless they continue as the sender", async ({
    page,
    context,
    request,
    browser,
    baseURL,
  }) => {
    // A social sign-in and a purchase, each a round trip through a pop-up, in two browsers.
    test.setTimeout(180_000);
    const sender = await newMember(request, uniqueUsername('sender'), 'planted-session-2');
    const nickname = sender.userInfo.nickname!;

    // The link opens in a browser with no session: nothing is adopted before the visitor answers.
    await page.goto(`/login?token=${encodeURIComponent(sender.token)}`);
    await expect(page).toHaveURL('/login');
    const dialog = linkDialog(page, nickname);
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText(`This link signs you in as ${nickname}`);
    expect(await browserToken(context)).not.toBe(sender.token);
    // By keyboard: the safe answer has the focus; Enter keeps the visitor as they are, a fresh guest.
    const stay = dialog.getByRole('button', { name: 'Stay as I am' });
    await expect(stay).toBeFocused();
    await expect(dialog.getByRole('button', { name: `Continue as ${nickname}` })).toBeVisible();
    await page.keyboard.press('Enter');
    await expect(dialog).toBeHidden();
    const guest = await settledUser(page, request);
    expect(guest.userInfo).toMatchObject({ isGuest: true });
    expect(guest.userInfo.uid).not.toBe(sender.userInfo.uid);

    // A social sign-in: Google is linked to the visitor's own account.
    await signedInAtProviders(context, `google-${randomBytes(6).toString('hex')}`, 'Visitor Vale');
    const popupOpened = page.waitForEvent('popup');
    await page.getByTestId('social-login-google').click();
    await (await popupOpened).waitForEvent('close');
    const linked = await settledUser(page, request, guest.token);
    expect(linked.userInfo).toMatchObject({ uid: guest.userInfo.uid, isGuest: false, social_providers: ['google'] });

    // A purchase: the order is the visitor's.
    await page.goto('/play/solitaire');
    const game = page.frameLocator('[data-testid="game-frame"]');
    const buy = game.locator('#backs');
    // A purchase is a round trip through the game, the checkout window and the webhook.
    await expect(buy).toHaveText('Gold card backs · $1.99', { timeout: 45_000 });
    const checkoutOpened = page.waitForEvent('popup');
    await buy.click();
    const checkout = await checkoutOpened;
    await expect(checkout.getByTestId('sandbox-checkout')).toContainText('Gold card backs', { timeout: 20_000 });
    // The pay button answers once the checkout is hydrated.
    await hydrated(checkout);
    await checkout.getByLabel('Card number').fill('4242 4242 4242 4242');
    const closed = checkout.waitForEvent('close');
    await checkout.getByTestId('sandbox-pay').click();
    await closed;
    await expect(game.locator('body')).toHaveAttribute('data-backs', 'gold', { timeout: 20_000 });
    expect(await orders(request, linked.token)).toEqual([expect.stringMatching(/:paid$/)]);

    // The sender's account got nothing, and the sender's link is still theirs alone.
    const senderNow = await call(request, 'GET', '/member/info/', { token: sender.token });
    expect(senderNow.data.userInfo).toMatchObject({ uid: sender.userInfo.uid, social_providers: [] });
    expect(await orders(request, sender.token)).toEqual([]);

    // Another fresh browser that continues as the sender is signed in as the sender.
    const other = await browser.newContext({ baseURL, extraHTTPHeaders: { 'x-forwarded-for': `10.81.${randomBytes(1)[0]}.${randomBytes(1)[0]}` } });
    const second = await other.newPage();
    await second.goto(`/about?token=${encodeURIComponent(sender.token)}`);
    await expect(second).toHaveURL('/about');
    await linkDialog(second, nickname)
      .getByRole('button', { name: `Continue as ${nickname}` })
      .click();
    await expect.poll(() => browserToken(other)).toBe(sender.token);
    await second.getByTestId('user-menu-trigger').click();
    await expect(second.getByTestId('user-name')).toHaveText(nickname);
    await other.close();
  });

  test('a guest token replaces a guest that holds nothing without a question, and one that holds a favourite only if the visitor continues', async ({
    page,
    context,
    request,
  }) => {
    test.slow();
    await page.goto('/about');
    await hydrated(page);
    const mine = await settledUser(page, request);
    const first = await newGuest(request);
    await page.goto(`/about?token=${encodeURIComponent(first.token)}`);
    await expect(page).toHaveURL('/about');
    await expect.poll(() => browserToken(context)).toBe(first.token);

    // Now the session holds a favourite: a second guest's link asks, and "Stay as I am" keeps it.
    const [app] = (await call<{ items: { id: number }[] }>(request, 'GET', '/app/list/?limit=1')).data.items;
    expect((await call(request, 'PUT', `/member/favourite/${app!.id}`, { token: first.token })).status).toBe(200);
    const second = await newGuest(request);
    await page.goto(`/about?token=${encodeURIComponent(second.token)}`);
    await expect(page).toHaveURL('/about');
    const dialog = linkDialog(page, second.userInfo.nickname!);
    await expect(dialog).toContainText(`You are now ${first.userInfo.nickname}`);
    await dialog.getByRole('button', { name: 'Stay as I am' }).click();
    await expect(dialog).toBeHidden();
    expect(await browserToken(context)).toBe(first.token);
    expect(mine.token).not.toBe(first.token);
  });

  test('a signed-in member keeps their session unless they confirm the switch; the dialog names the account', async ({ page, context, request, baseURL }) => {
    test.slow();
    const me = await newMember(request, uniqueUsername('keep'), 'keep-my-session-1');
    const stranger = await newMember(request, uniqueUsername('plant'), 'planted-session-1');
    await useSession(context, baseURL!, me.token);

    await page.goto(`/about?token=${encodeURIComponent(stranger.token)}`);
    await expect(page).toHaveURL('/about');
    const dialog = page.getByTestId('confirm-dialog');
    await expect(dialog).toContainText(stranger.userInfo.nickname!);
    await expect(dialog).toContainText(me.userInfo.nickname!);
    await dialog.getByRole('button', { name: 'Stay as I am' }).click();
    await expect(dialog).toBeHidden();
    expect(await browserToken(context)).toBe(me.token);
    await page.getByTestId('user-menu-trigger').click();
    await expect(page.getByTestId('user-name')).toHaveText(me.userInfo.nickname!);

    // The offer is used up: a reload asks nothing and keeps the member signed in.
    await page.reload();
    await hydrated(page);
    await expect(dialog).toBeHidden();
    expect(await browserToken(context)).toBe(me.token);

    // Confirming switches.
    await page.goto(`/about?token=${encodeURIComponent(stranger.token)}`);
    await page.getByTestId('confirm-accept').click();
    await expect.poll(() => browserToken(context)).toBe(stranger.token);
  });

  test('a page that arrives with the token still in its address (a copy an older worker kept) removes it and only offers it', async ({
    page,
    context,
    request,
  }) => {
    test.slow();
    const sender = await newMember(request, uniqueUsername('copy'), 'planted-session-3');
    // The document is answered without the server's redirect, as an older service worker did.
    await page.route('**/about?token=*', async (route) =>
      route.fulfill({ response: await route.fetch({ url: new URL('/about', route.request().url()).href }) }),
    );
    await page.goto(`/about?token=${encodeURIComponent(sender.token)}`);
    await expect(page).toHaveURL('/about');
    const dialog = linkDialog(page, sender.userInfo.nickname!);
    await dialog.getByRole('button', { name: 'Stay as I am' }).click();
    const guest = await settledUser(page, request);
    expect(guest.userInfo.uid).not.toBe(sender.userInfo.uid);
    expect(await browserToken(context)).toBe(guest.token);
  });

  test('a token the server does not know is dropped and the visitor keeps their own session', async ({ page, context, request }) => {
    await page.goto('/about');
    const mine = await settledUser(page, request);
    const forged = `${mine.userInfo.uid}|${'Q'.repeat(48)}`;
    await page.goto(`/about?token=${encodeURIComponent(forged)}`);
    await expect(page).toHaveURL('/about');
    await hydrated(page);
    expect(await browserToken(context)).toBe(mine.token);
    expect((await context.cookies()).find((c) => c.name === 'session_offer')).toBeUndefined();
  });

  test('the other tabs follow an adopted token', async ({ page, context, request }) => {
    test.slow();
    await page.goto('/about');
    await settledUser(page, request);
    const second = await context.newPage();
    await second.goto('/settings');
    const member = await newMember(request, uniqueUsername('tabs'), 'follow-the-link-1');
    await page.goto(`/about?token=${encodeURIComponent(member.token)}`);
    await page.getByTestId('confirm-accept').click();
    await expect.poll(() => browserToken(context)).toBe(member.token);
    await second.getByTestId('user-menu-trigger').click();
    await expect(second.getByTestId('user-name')).toHaveText(member.userInfo.nickname!);
  });

  test('a planted guest token is worth nothing once the victim registers', async ({ page, context, request }) => {
    test.slow();
    // The attacker's guest token, planted through a link into a fresh browser.
    const planted = await newGuest(request);
    await page.goto(`/login?mode=create&token=${encodeURIComponent(planted.token)}`);
    await expect.poll(() => browserToken(context)).toBe(planted.token);
    // The victim creates an account in that browser.
    const form = page.getByTestId('create-account');
    await form.getByLabel('Username').fill(uniqueUsername('victim'));
    await form.getByLabel('Password', { exact: true }).fill('victim-secret-pass-1');
    await form.getByRole('button', { name: 'Create account' }).click();
    await expect.poll(() => browserToken(context)).not.toBe(planted.token);
    const fresh = (await browserToken(context))!;
    expect((await call(request, 'GET', '/member/info/', { token: fresh })).data.userInfo).toMatchObject({ uid: planted.userInfo.uid, isGuest: false });
    expect((await call(request, 'GET', '/member/info/', { token: planted.token })).status).toBe(401);
    expect((await call(request, 'GET', '/member/profile/', { token: planted.token })).status).toBe(401);
  });
});
