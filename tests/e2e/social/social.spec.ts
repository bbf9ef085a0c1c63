import { randomBytes } from 'node:crypto';
import type { APIRequestContext, BrowserContext, Page } from '@playwright/test';
import { STAND_IN_ISSUERS } from '../../../playwright.config.ts';
import { type Account, call, newMember, uniqueUsername } from '../../support/accounts.ts';
import { countApiCalls, useSession } from '../browser-session.ts';
import { afterDebounce, settledUser } from '../accounts/helpers.ts';
import { expect as baseExpect, test } from '../fixtures.ts';
import { hydrated } from '../shell/helpers.ts';

// Each sign-in is a round trip through a pop-up, the stand-in provider and the server.
const expect = baseExpect.configure({ timeout: 15_000 });

/**
 * Who is signed in at the stand-in providers in this browser: a cookie on their origin, as a real
 * provider remembers its own session. All stand-ins listen on 127.0.0.1, so one cookie serves all.
 */
async function signedInAtProviders(context: BrowserContext, sub: string, name: string): Promise<void> {
  await context.addCookies(
    Object.values(STAND_IN_ISSUERS).flatMap((url) => [
      { name: 'stand_in_user', value: sub, url },
      { name: 'stand_in_name', value: encodeURIComponent(name), url },
    ]),
  );
}

/** Presses a social button and follows the pop-up it opens until the pop-up closes itself. */
async function throughPopUp(page: Page, button: string): Promise<void> {
  const popupOpened = page.waitForEvent('popup');
  await page.getByTestId(button).click();
  const popup = await popupOpened;
  await popup.waitForEvent('close');
}

async function played(request: APIRequestContext, token: string): Promise<number[]> {
  return (await call<{ items: { id: number }[] }>(request, 'GET', '/member/played/', { token })).data.items.map((item) => item.id).sort();
}

async function appIds(request: APIRequestContext): Promise<number[]> {
  return (await call<{ items: { id: number }[] }>(request, 'GET', '/app/list/?limit=3')).data.items.map((item) => item.id);
}

test.describe('social sign-in', { tag: '@db' }, () => {
  test('a guest signs in with Google, links Discord, signs out and back in, a second guest merges, another member is refused, Discord is unlinked', async ({
    page,
    request,
    browser,
    baseURL,
    problems,
  }) => {
    // Three browsers and five pop-ups: two and a half minutes on a busy two-core runner.
    test.setTimeout(150_000);
    problems.allow('status of 409');
    const sub = `google-${randomBytes(6).toString('hex')}`;
    const [gameA, gameB] = await appIds(request);
    await signedInAtProviders(page.context(), sub, 'Robin Hart');

    // A guest with a game played signs in with a Google account nobody has: the same account, now a member.
    await page.goto('/login');
    await hydrated(page);
    const guest = await settledUser(page, request);
    expect(guest.userInfo.isGuest).toBe(true);
    await call(request, 'POST', '/member/played/', { token: guest.token, body: { app_id: gameA } });
    await throughPopUp(page, 'social-login-google');
    // One toast, the login page's own, as for every way in.
    await expect(page.getByTestId('toast')).toHaveText(['Signed in as Robin Hart']);
    const member = await settledUser(page, request, guest.token);
    expect(member.userInfo).toMatchObject({ uid: guest.userInfo.uid, isGuest: false, nickname: 'Robin Hart', social_providers: ['google'] });

    // The bind list links Discord through its pop-up.
    await page.goto('/user/profile/social');
    await expect(page.getByTestId('bind-google')).toHaveAttribute('data-bound', 'true');
    await expect(page.getByTestId('bind-discord')).toHaveAttribute('data-bound', 'false');
    await throughPopUp(page, 'bind-discord-button');
    await expect(page.getByTestId('toast').filter({ hasText: 'Discord linked' })).toBeVisible();
    await expect(page.getByTestId('bind-discord')).toHaveAttribute('data-bound', 'true');

    // The header offers sign-out once a provider is bound; signing out starts a new guest.
    const linked = await settledUser(page, request, member.token);
    await page.getByTestId('header-sign-out').click();
    await expect.poll(async () => (await settledUser(page, request, linked.token)).userInfo.isGuest).toBe(true);

    // Signing in with Google again: the same member, the history kept.
    await page.goto('/login');
    await hydrated(page);
    const signedOut = await settledUser(page, request);
    await throughPopUp(page, 'social-login-google');
    const back = await settledUser(page, request, signedOut.token);
    expect(back.userInfo.uid).toBe(member.userInfo.uid);
    expect(await played(request, back.token)).toEqual([gameA]);

    // A second guest, in another browser with the same Google account, plays and signs in: merged.
    const second = await browser.newContext({ baseURL, extraHTTPHeaders: { 'x-forwarded-for': `10.77.${randomBytes(1)[0]}.${randomBytes(1)[0]}` } });
    await signedInAtProviders(second, sub, 'Robin Hart');
    const secondPage = await second.newPage();
    await secondPage.goto('/login');
    await hydrated(secondPage);
    const secondGuest = await settledUser(secondPage, request);
    await call(request, 'POST', '/member/played/', { token: secondGuest.token, body: { app_id: gameB } });
    await throughPopUp(secondPage, 'social-login-google');
    const merged = await settledUser(secondPage, request, secondGuest.token);
    expect(merged.userInfo.uid).toBe(member.userInfo.uid);
    expect(await played(request, merged.token)).toEqual([gameA, gameB].sort());
    expect((await call(request, 'GET', '/member/info/', { token: secondGuest.token })).status).toBe(401);
    await second.close();

    // Another member may not link the same Google account: told why, nothing bound.
    const other = await newMember(request, uniqueUsername('soc'), 'Harbour-Lantern-Tricky-9');
    const third = await browser.newContext({ baseURL, extraHTTPHeaders: { 'x-forwarded-for': `10.78.${randomBytes(1)[0]}.${randomBytes(1)[0]}` } });
    await useSession(third, baseURL!, other.token);
    await signedInAtProviders(third, sub, 'Robin Hart');
    const thirdPage = await third.newPage();
    await thirdPage.goto('/user/profile/social');
    await hydrated(thirdPage);
    await throughPopUp(thirdPage, 'bind-google-button');
    await expect(thirdPage.getByTestId('form-alert')).toHaveText(
      'This Google account is already linked to another member. Sign in with it instead, or unlink it there first.',
    );
    await expect(thirdPage.getByTestId('bind-google')).toHaveAttribute('data-bound', 'false');
    await third.close();

    // Unlinking asks first, naming the platform; then the row shows it unlinked.
    await page.goto('/user/profile/social');
    await hydrated(page);
    await afterDebounce(page);
    await page.getByTestId('unbind-discord').click();
    await expect(page.getByTestId('confirm-dialog')).toContainText('Unlink Discord?');
    await page.getByTestId('confirm-accept').click();
    await expect(page.getByTestId('toast').filter({ hasText: 'Discord unlinked' })).toBeVisible();
    await expect(page.getByTestId('bind-discord')).toHaveAttribute('data-bound', 'false');
    const after = await call<Account>(request, 'GET', '/member/info/', { token: back.token });
    expect(after.data.userInfo.social_providers).toEqual(['google']);
  });

  test('a member who moves on while a link is answered stays signed in: data asked for with the token the link just rotated is asked again; the pop-up leaves the session alone', async ({
    page,
    request,
    baseURL,
  }) => {
    test.slow();
    const member = await newMember(request, uniqueUsername('race'), 'Harbour-Lantern-Tricky-9');
    await useSession(page.context(), baseURL!, member.token);
    await signedInAtProviders(page.context(), `discord-${randomBytes(6).toString('hex')}`, 'Quinn Vale');
    // The pop-up only hands the provider's answer over: it asks nothing about the session.
    const popupCalls: string[] = [];
    page.on('popup', (popup) => popup.on('request', (r) => r.url().includes('/serve/api/') && popupCalls.push(`${r.method()} ${new URL(r.url()).pathname}`)));
    // The link's answer is held once the server has rotated the session, so the page still holds the old token.
    let rotated!: () => void;
    const serverRotated = new Promise<void>((resolve) => (rotated = resolve));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/serve/api/oauth/link/discord', async (route) => {
      const response = await route.fetch();
      rotated();
      await released;
      await route.fulfill({ response });
    });

    await page.goto('/user/profile/social');
    await hydrated(page);
    await throughPopUp(page, 'bind-discord-button');
    await serverRotated;
    // Meanwhile the member goes back to the overview: its data is asked for with the revoked token and refused.
    // (The link's payload may have been prefetched before the rotation, answered 200: the refusal is the one this waits for.)
    const refused = page.waitForResponse((r) => new URL(r.url()).pathname === '/user/profile.data' && r.status() === 202);
    await page.getByRole('link', { name: 'Back to profile' }).click();
    await refused;
    const again = page.waitForResponse((r) => new URL(r.url()).pathname === '/user/profile.data' && r.status() === 200);
    release();
    await expect(page.getByTestId('toast').filter({ hasText: 'Discord linked' })).toBeVisible();
    await again;
    await expect(page).toHaveURL(/\/user\/profile$/);
    await expect(page.getByTestId('profile-rows')).toBeVisible();
    await expect(page.getByTestId('header-sign-out')).toBeVisible();
    const linked = await settledUser(page, request, member.token);
    expect(linked.userInfo.social_providers).toContain('discord');
    expect(popupCalls).toEqual([]);
  });

  test('the bind list says up front which platform is the last way in, and a refusal is not asked again', async ({ page, request, problems }) => {
    test.slow();
    problems.allow('status of 409');
    const sub = `google-${randomBytes(6).toString('hex')}`;
    await signedInAtProviders(page.context(), sub, 'Sole Way');
    await page.goto('/zh-CN/login');
    await hydrated(page);
    const guest = await settledUser(page, request);
    await throughPopUp(page, 'social-login-google');
    const member = await settledUser(page, request, guest.token);
    expect(member.userInfo.social_providers).toEqual(['google']);

    // Google alone: the row says so and offers a password instead of a confirmation that cannot end well.
    const calls = countApiCalls(page);
    await page.goto('/zh-CN/user/profile/social');
    await hydrated(page);
    const google = page.getByTestId('bind-google');
    await expect(google.getByTestId('last-way-in')).toContainText('Google 是你唯一的登录方式');
    await expect(google.getByTestId('last-way-in').getByRole('link', { name: '设置密码' })).toHaveAttribute('href', '/zh-CN/user/profile/password');
    await expect(google.getByTestId('unbind-google')).toBeDisabled();
    await expect(google.getByTestId('unbind-google')).toHaveAccessibleDescription(/唯一的登录方式/);

    // With Discord linked too, Google may go; the list was right to allow it, yet if Discord goes
    // meanwhile (another tab), the server's 409 is the answer at once: one request, its message.
    await throughPopUp(page, 'bind-discord-button');
    await expect(page.getByTestId('bind-discord')).toHaveAttribute('data-bound', 'true');
    await expect(google.getByTestId('last-way-in')).toHaveCount(0);
    const linked = await settledUser(page, request);
    expect((await call(request, 'PATCH', '/member/social/unbind/discord', { token: linked.token })).status).toBe(200);
    await afterDebounce(page);
    await google.getByTestId('unbind-google').click();
    await page.getByTestId('confirm-accept').click();
    await expect(page.getByTestId('toast').filter({ hasText: 'Google 是你唯一的登录方式' })).toBeVisible();
    // Asked once: the client used to send a 409 three times, a second apart, before saying so.
    expect(calls('PATCH /member/social/unbind/google')).toBe(1);
  });

  test('Apple answers by a cross-site form post; the name it sends once is kept', async ({ page, request }) => {
    test.slow();
    await signedInAtProviders(page.context(), `apple-${randomBytes(6).toString('hex')}`, 'Sam Reyes');
    await page.goto('/login');
    await hydrated(page);
    const guest = await settledUser(page, request);
    await throughPopUp(page, 'social-login-apple');
    await expect(page.getByTestId('toast')).toHaveText(['Signed in as Sam Reyes']);
    const member = await settledUser(page, request, guest.token);
    expect(member.userInfo).toMatchObject({ uid: guest.userInfo.uid, nickname: 'Sam Reyes', social_providers: ['apple'] });
  });

  test('a blocked pop-up is told, and the sign-in goes on in the tab and comes back', async ({ page, request }) => {
    test.slow();
    await page.addInitScript(() => {
      window.open = () => null;
    });
    await signedInAtProviders(page.context(), `x-${randomBytes(6).toString('hex')}`, 'Kit Moss');
    await page.goto('/login?redirect=%2Fabout');
    await hydrated(page);
    const guest = await settledUser(page, request);
    await page.getByTestId('social-login-x').click();
    await expect(page.getByTestId('popup-blocked')).toContainText('The sign-in window was blocked');
    await page.getByRole('button', { name: 'Continue in this tab' }).click();
    // The provider's round trip in this tab, then back to the page the sign-in started on.
    await expect(page).toHaveURL(/\/login\?redirect=%2Fabout$/);
    const member = await settledUser(page, request, guest.token);
    expect(member.userInfo).toMatchObject({ uid: guest.userInfo.uid, isGuest: false, nickname: 'Kit Moss', social_providers: ['x'] });
  });

  test('a guest in Chinese signs in with a WhatsApp code from the development inbox, the mobile number typed as at home', async ({ page, request }) => {
    test.slow();
    const local = `139${String(randomBytes(4).readUInt32BE(0) % 100_000_000).padStart(8, '0')}`;
    const phone = `+86${local}`;
    await page.goto('/zh-CN/login');
    await hydrated(page);
    const guest = await settledUser(page, request);
    await page.getByTestId('social-login-whatsapp').click();
    await expect(page.getByTestId('whatsapp-phone-form')).toContainText('中国大陆手机号可直接填写 11 位号码');
    // Without +86: a visitor in Chinese means a mainland number (decision 117).
    await page.getByLabel('WhatsApp 号码').fill(`${local.slice(0, 3)} ${local.slice(3, 7)} ${local.slice(7)}`);
    await page.getByTestId('whatsapp-send').click();
    await expect(page.getByTestId('whatsapp-code-form')).toContainText(`验证码已通过 WhatsApp 发送到 ${phone}`);

    const inbox = await request.get('/dev/whatsapp-inbox');
    const html = await inbox.text();
    const code = new RegExp(`data-testid="inbox-phone">\\${phone}</td><td data-testid="inbox-code">(\\d{6})<`).exec(html)?.[1];
    expect(code, 'the code in the development inbox').toMatch(/^\d{6}$/);
    await page.getByLabel('验证码').fill(code!);
    await afterDebounce(page);
    await page.getByTestId('whatsapp-verify').click();
    const member = await settledUser(page, request, guest.token);
    expect(member.userInfo).toMatchObject({ uid: guest.userInfo.uid, isGuest: false, social_providers: ['whatsapp'] });
  });

  test('a message from another origin is not taken as the pop-up’s answer', async ({ page, context }) => {
    // The link page is held, so the flow stays open and its id can be read, as an attacker at best could.
    let flow = '';
    await context.route('**/oauth/google/link?**', (route) => {
      flow = new URL(route.request().url()).searchParams.get('flow') ?? '';
      return route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>held</title>' });
    });
    await context.route('http://attacker.test/**', (route) => route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>attacker</title>' }));
    const calls = countApiCalls(page);
    await page.goto('/login');
    await hydrated(page);
    const popupOpened = page.waitForEvent('popup');
    await page.getByTestId('social-login-google').click();
    const popup = await popupOpened;
    await expect.poll(() => flow).not.toBe('');

    // A window of another origin that the page opened posts a well-formed answer for this very flow.
    const attackerOpened = page.waitForEvent('popup');
    await page.evaluate(() => window.open('http://attacker.test/', 'attacker'));
    const attacker = await attackerOpened;
    await attacker.waitForLoadState();
    // Listened for after the page's own listener: once this one has the message, the page's has handled it.
    await page.evaluate(() => {
      (window as unknown as { stolenAnswer: Promise<string> }).stolenAnswer = new Promise((resolve) =>
        window.addEventListener('message', (event) => {
          if ((event.data as { data?: { code?: string } })?.data?.code === 'stolen') setTimeout(() => resolve(event.origin), 0);
        }),
      );
    });
    await attacker.evaluate(
      (heldFlow) => window.opener.postMessage({ action: 'oauth', data: { platform: 'google', flow: heldFlow, code: 'stolen', state: 'A'.repeat(43) } }, '*'),
      flow,
    );
    expect(await page.evaluate(() => (window as unknown as { stolenAnswer: Promise<string> }).stolenAnswer)).toBe('http://attacker.test');
    expect(calls('POST /oauth/login/google')).toBe(0);
    await expect(page.getByTestId('login-list')).toHaveAttribute('aria-busy', 'true');

    // Closing the pop-up ends the wait; nothing was submitted.
    await popup.close();
    await attacker.close();
    await expect(page.getByTestId('login-list')).toHaveAttribute('aria-busy', 'false');
    expect(calls('POST /oauth/login/google')).toBe(0);
  });

  test('the pop-up pages refuse a flow the portal did not start', async ({ request }) => {
    const link = await request.get('/oauth/google/link');
    expect(link.status()).toBe(400);
    expect(await link.text()).toContain('This window opens from the sign-in list');
    const callback = await request.get(`/oauth/google/callback?code=abc&state=${'B'.repeat(43)}`);
    expect(callback.status()).toBe(400);
    expect(callback.headers()['cache-control']).toBe('no-store');
    expect(await callback.text()).not.toContain('abc');
  });
});
