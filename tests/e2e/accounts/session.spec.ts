import { expect as baseExpect, test } from '../fixtures.ts';
import { call, newMember, uniqueUsername } from '../../support/accounts.ts';
import { browserToken, countApiCalls, recordTracking, useSession } from '../browser-session.ts';
import { settledUser } from './helpers.ts';

// These journeys wait on real work (argon2 hashing, device fingerprinting, image decoding), which
// takes seconds on a busy machine.
const expect = baseExpect.configure({ timeout: 15_000 });

test.describe('session in the browser (spec section 4)', { tag: '@db' }, () => {
  test('first visit: one guest account, one token, one user-info call; a reload keeps the account', async ({ page, context, request }) => {
    test.slow();
    const calls = countApiCalls(page);
    const tracked = await recordTracking(page);
    await page.goto('/');
    const guest = await settledUser(page, request);
    expect(guest.userInfo.isGuest).toBe(true);
    await expect.poll(() => calls('GET /member/info/')).toBe(1);
    expect(calls('POST /guest/login/')).toBe(1);
    const cookie = (await context.cookies()).find((c) => c.name === 'token')!;
    expect(cookie).toMatchObject({ sameSite: 'Strict', secure: true, httpOnly: false });
    // 365 days, give or take the test's own duration.
    expect(cookie.expires * 1000 - Date.now()).toBeGreaterThan(364 * 86_400_000);
    await expect.poll(tracked).toContainEqual({ event: 'login', data: { uid: guest.userInfo.uid } });

    // A guest is not a signed-in member: the header offers sign-in, the menu holds settings only.
    await expect(page.getByTestId('header-sign-in')).toBeVisible();
    await page.getByTestId('user-menu-trigger').click();
    await expect(page.getByTestId('user-name')).toHaveText(guest.userInfo.nickname!);
    await expect(page.getByTestId('user-menu-items').getByRole('link')).toHaveText(['Settings']);

    // The reload is the page shared by everyone (decision 066): no name in its HTML; the browser
    // asks for the user info once and keeps the account.
    const response = await page.reload();
    expect(await response!.text()).not.toContain(guest.userInfo.nickname!);
    await expect(page.getByTestId('header-user-name')).toHaveText(guest.userInfo.nickname!);
    await page.waitForLoadState('networkidle');
    expect(calls('POST /guest/login/')).toBe(1);
    expect(calls('GET /member/info/')).toBe(2);
    expect(await browserToken(context)).toBe(guest.token);
  });

  test('a stored token the server no longer knows is replaced by a new guest account', async ({ page, context, request, baseURL }) => {
    test.slow();
    const member = await newMember(request, uniqueUsername('gone'), 'revoked-pass-1');
    await call(request, 'POST', '/logout/', { token: member.token });
    await useSession(context, baseURL!, member.token);
    const calls = countApiCalls(page);
    await page.goto('/user');
    const guest = await settledUser(page, request, member.token);
    expect(guest.token).not.toBe(member.token);
    expect(guest.userInfo.isGuest).toBe(true);
    await expect(page.getByTestId('member-name')).toHaveText(guest.userInfo.nickname!);
    // The server already found the token invalid for the page: no user-info call for it.
    expect(calls('POST /guest/login/')).toBe(1);
    expect(calls('GET /member/info/')).toBe(1);
  });

  test('a token in the address is adopted and removed by a replacing redirect, on a page load and on a client navigation', async ({
    page,
    context,
    request,
  }) => {
    test.slow();
    const member = await newMember(request, uniqueUsername('url'), 'token-in-url-1');
    expect(member.token.length).toBeGreaterThan(49);
    const tracked = await recordTracking(page);
    await page.goto('/about');
    await settledUser(page, request);

    // A page load: the server checks the token and redirects; the token never reaches the page.
    // A member's token is adopted only once the visitor continues as that member (decision 050).
    const response = await page.goto(`/user?tab=1&token=${encodeURIComponent(member.token)}#top`);
    expect(response!.request().redirectedFrom()?.url()).toContain('token=');
    await expect(page).toHaveURL('/user?tab=1#top');
    await expect(page.getByTestId('confirm-dialog')).toContainText(member.userInfo.nickname!);
    await page.getByTestId('confirm-accept').click();
    await expect(page.getByTestId('member-name')).toHaveText(member.userInfo.nickname!);
    expect(await browserToken(context)).toBe(member.token);
    await expect.poll(tracked).toContainEqual({ event: 'login', data: { uid: member.userInfo.uid } });
    await page.goBack();
    await expect(page).toHaveURL('/about');

    // A client navigation (back to an address with a token): removed at once; a member is asked
    // before the session changes hands, and the question names the offered account.
    const other = await newMember(request, uniqueUsername('url2'), 'token-in-url-2');
    await page.evaluate((token) => {
      window.history.pushState(null, '', `/about?token=${encodeURIComponent(token)}`);
      window.history.pushState(null, '', '/about');
      window.history.back();
    }, other.token);
    await expect(page).toHaveURL('/about');
    await expect(page.getByTestId('confirm-dialog')).toContainText(other.userInfo.nickname!);
    expect(await browserToken(context)).toBe(member.token);
    await page.getByTestId('confirm-accept').click();
    await expect.poll(() => browserToken(context)).toBe(other.token);
    await page.getByTestId('user-menu-trigger').click();
    await expect(page.getByTestId('user-name')).toHaveText(other.userInfo.nickname!);
    await expect.poll(tracked).toContainEqual({ event: 'login', data: { uid: other.userInfo.uid } });

    // Too short or without a pipe: not a token, left alone.
    await page.goto('/about?token=not-a-token');
    await expect(page).toHaveURL('/about?token=not-a-token');
    expect(await browserToken(context)).toBe(other.token);
  });

  test('two tabs: a sign-in in one shows in the other', async ({ page, context, request }) => {
    test.slow();
    const username = uniqueUsername('tabs');
    const member = await newMember(request, username, 'two-tabs-pass');
    await page.goto('/user');
    await settledUser(page, request);
    const second = await context.newPage();
    await second.goto('/user/profile');
    await expect(second).toHaveURL(/\/login\?redirect=%2Fuser%2Fprofile$/);
    await second.getByLabel('Username').fill(username);
    await second.getByLabel('Password', { exact: true }).fill('two-tabs-pass');
    await second.getByTestId('password-sign-in-submit').click();
    await expect(second).toHaveURL('/user/profile');
    await expect(second.getByTestId('profile-name')).toHaveText(member.userInfo.nickname!);
    // The first tab was not reloaded: it adopted the broadcast session.
    await expect(page.getByTestId('member-name')).toHaveText(member.userInfo.nickname!);
    await expect(page.getByTestId('member-status')).toContainText('Member');
    await expect(page.getByTestId('header-switch-account')).toBeVisible();
  });

  test('two tabs: a sign-out in one signs the others out and tells them so, in their language; a members-only page is left', async ({
    page,
    context,
    request,
    baseURL,
  }) => {
    test.slow();
    const member = await newMember(request, uniqueUsername('out'), 'sign-out-pass');
    await useSession(context, baseURL!, member.token);
    await page.goto('/user/profile');
    const second = await context.newPage();
    await second.goto('/user/profile/nickname');
    await expect(second.getByLabel('Nickname')).toHaveValue(member.userInfo.nickname!);
    const third = await context.newPage();
    await third.goto('/zh-CN/app/2048');
    await expect(third.getByTestId('header-user-name')).toHaveText(member.userInfo.nickname!);

    await page.getByTestId('profile-sign-out').click();
    // The other tabs did not sign out themselves: each says what happened, once; the tab that
    // signed out says only that it did. Watched together: each toast closes by itself.
    const name = member.userInfo.nickname!;
    await Promise.all([
      expect(page.getByTestId('toast')).toHaveText(['You have been signed out.']),
      expect(second.getByTestId('toast')).toHaveText([`You signed out of ${name} in another tab. You are playing as a guest now.`]),
      expect(third.getByTestId('toast')).toHaveText([`你已在另一个标签页中退出“${name}”，现在以游客身份继续游戏。`]),
    ]);
    await expect(third.getByTestId('header-sign-in')).toBeVisible();
    await expect(page).toHaveURL('/user');
    await expect(second).toHaveURL(/\/login\?redirect=%2Fuser%2Fprofile%2Fnickname$/);
    await expect(second.getByTestId('login-intro')).toHaveText('Sign in, or create an account, to open that page.');
    expect((await call(request, 'GET', '/member/info/', { token: member.token })).status).toBe(401);
    // Both end on the same new guest account.
    const after = await settledUser(page, request, member.token);
    expect(after.userInfo.isGuest).toBe(true);
    await expect(page.getByTestId('member-name')).toHaveText(after.userInfo.nickname!);
  });
});

test.describe('first paint', { tag: '@db' }, () => {
  test.use({ javaScriptEnabled: false });

  test('a member is rendered signed in by the server: name, avatar fallback and switch account, before any script', async ({
    page,
    context,
    request,
    baseURL,
    problems,
  }) => {
    // Without scripts Chromium refuses the module preloads; nothing else may fail.
    problems.allow(/^request failed: GET \S+\/assets\/\S+\.js csp$/);
    const member = await newMember(request, uniqueUsername('paint'), 'first-paint-pass');
    await useSession(context, baseURL!, member.token);
    const response = await page.goto('/user');
    expect(response!.headers()['x-page-cache']).toBeUndefined();
    await expect(page.getByTestId('header-user-name')).toHaveText(member.userInfo.nickname!);
    await expect(page.getByTestId('member-name')).toHaveText(member.userInfo.nickname!);
    await expect(page.getByTestId('member-status')).toContainText('Member');
    await expect(page.getByTestId('header-switch-account')).toBeVisible();
    await expect(page.getByTestId('member-edit-profile')).toHaveAttribute('href', '/user/profile');
  });
});

test.describe('crawlers', { tag: '@db' }, () => {
  test.use({ userAgent: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)' });

  test('get pages without an anonymous account', async ({ page, context }) => {
    const calls = countApiCalls(page);
    await page.goto('/user');
    // The server's verdict on the user agent, in the page: the browser loads no crawler list of its own.
    await expect(page.locator('html')).toHaveAttribute('data-crawler', '');
    await expect(page.getByTestId('member-name')).toHaveText('Not signed in');
    await page.goto('/app/2048');
    await page.waitForLoadState('networkidle');
    expect(calls('POST /guest/login/')).toBe(0);
    expect(await browserToken(context)).toBeNull();
  });

  test('a crawler’s page that is asked to create an account makes one: a guest first, then the member', async ({ page, context, request }) => {
    test.slow();
    const calls = countApiCalls(page);
    await page.goto('/zh-CN/login?mode=create');
    await expect(page.locator('html')).toHaveAttribute('data-crawler', '');
    await page.waitForLoadState('networkidle');
    expect(calls('POST /guest/login/')).toBe(0);
    const form = page.getByTestId('create-account');
    const username = uniqueUsername('crawled');
    await form.getByLabel('用户名').fill(username);
    await form.getByLabel('密码', { exact: true }).fill('a-long-river-of-stars');
    await form.getByRole('button', { name: '创建账号' }).click();
    await expect(page.getByTestId('toast')).toContainText('账号已创建');
    const member = await settledUser(page, request);
    expect(member.userInfo.isGuest).toBe(false);
    expect(calls('POST /guest/login/')).toBe(1);
    expect(await browserToken(context)).toBe(member.token);
  });
});

// A studio's own automated test of its game on the portal: Chromium without a window says
// "HeadlessChrome" and is no search crawler, so it plays like everyone, under the same limits (decision 117).
test.describe('automated browsers', { tag: '@db' }, () => {
  test.use({ userAgent: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/140.0.0.0 Safari/537.36' });

  test('get a guest account like any visitor, and can create an account', async ({ page, request }) => {
    test.slow();
    const calls = countApiCalls(page);
    await page.goto('/login?mode=create');
    await expect(page.locator('html')).not.toHaveAttribute('data-crawler');
    const guest = await settledUser(page, request);
    expect(guest.userInfo.isGuest).toBe(true);
    expect(calls('POST /guest/login/')).toBe(1);
    const form = page.getByTestId('create-account');
    await form.getByLabel('Username').fill(uniqueUsername('headless'));
    await form.getByLabel('Password', { exact: true }).fill('a-long-river-of-stars');
    await form.getByRole('button', { name: 'Create account' }).click();
    await expect(page.getByTestId('toast')).toContainText('Account created');
    const member = await settledUser(page, request, guest.token);
    expect(member.userInfo).toMatchObject({ uid: guest.userInfo.uid, isGuest: false });
  });
});

test.describe('guest accounts for everyone behind one address (decision 054)', { tag: '@db' }, () => {
  test('a refused anonymous sign-in shows no error: the visitor plays on and gets an account on a later try', async ({ page, request, problems }) => {
    test.slow();
    problems.allow('status of 429');
    let refusals = 0;
    await page.route('**/serve/api/guest/login/**', async (route) => {
      // The first attempts are refused as a busy shared address would be, with a short wait.
      if (refusals < 3) {
        refusals++;
        await route.fulfill({
          status: 429,
          contentType: 'application/json',
          headers: { 'retry-after': '2' },
          body: JSON.stringify({ code: 429, message: 'Too many attempts. Please try again in 2 seconds.', data: { retryAfter: 2 } }),
        });
        return;
      }
      await route.continue();
    });
    const calls = countApiCalls(page);
    await page.goto('/play/snake');
    await expect(page.locator('iframe')).toBeVisible();
    // A refused sign-in has spent its challenge, so it is not sent again as it is: each later try
    // waits the server's 2 s, fetches a new challenge and solves it (decision 014, the retry policy).
    await expect.poll(() => refusals, { timeout: 45_000 }).toBe(3);
    await expect(page.getByTestId('toast')).toHaveCount(0);
    // After the server's wait, the page tries again by itself and the visitor has an account.
    const guest = await settledUser(page, request);
    expect(guest.userInfo.isGuest).toBe(true);
    expect(calls('POST /guest/login/')).toBe(4);
    expect(calls('GET /guest/challenge/')).toBeGreaterThanOrEqual(2);
    await expect(page.getByTestId('toast')).toHaveCount(0);
  });
});
