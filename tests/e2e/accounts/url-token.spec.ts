import { expect, test } from '../fixtures.ts';
import { call, newGuest, newMember, uniqueUsername } from '../../support/accounts.ts';
import { browserToken, useSession } from '../browser-session.ts';
import { settledUser } from './helpers.ts';

/**
 * A link that carries a session token (spec section 4) must not let its sender plant their
 * session in someone else's browser (decision 054).
 */
test.describe('tokens in links', { tag: '@db' }, () => {
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
    await dialog.getByRole('button', { name: /stay signed in/i }).click();
    await expect(dialog).toBeHidden();
    expect(await browserToken(context)).toBe(me.token);
    await page.getByTestId('user-menu-trigger').click();
    await expect(page.getByTestId('user-name')).toHaveText(me.userInfo.nickname!);

    // The offer is used up: a reload asks nothing and keeps the member signed in.
    await page.reload();
    await page.waitForTimeout(500);
    await expect(dialog).toBeHidden();
    expect(await browserToken(context)).toBe(me.token);

    // Confirming switches.
    await page.goto(`/about?token=${encodeURIComponent(stranger.token)}`);
    await page.getByTestId('confirm-accept').click();
    await expect.poll(() => browserToken(context)).toBe(stranger.token);
  });

  test('a token the server does not know is dropped and the visitor keeps their own session', async ({ page, context, request }) => {
    await page.goto('/about');
    const mine = await settledUser(page, request);
    const forged = `${mine.userInfo.uid}|${'Q'.repeat(48)}`;
    await page.goto(`/about?token=${encodeURIComponent(forged)}`);
    await expect(page).toHaveURL('/about');
    await page.waitForTimeout(500);
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
