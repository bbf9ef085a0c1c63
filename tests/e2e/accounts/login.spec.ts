import { randomBytes } from 'node:crypto';
import { expect as baseExpect, test } from '../fixtures.ts';
import { call, newGuest, newMember, uniqueUsername } from '../../support/accounts.ts';
import { browserToken, countApiCalls, useSession } from '../browser-session.ts';
import { afterDebounce, settledUser } from './helpers.ts';

// These journeys wait on real work (argon2 hashing, device fingerprinting, image decoding), which
// takes seconds on a busy machine.
const expect = baseExpect.configure({ timeout: 15_000 });

test.describe('signing in (spec sections 2 and 4)', { tag: '@db' }, () => {
  test('username sign-in: a wrong password is refused and keeps the guest, the right one signs in', async ({ page, request, context, problems }) => {
    test.slow();
    problems.allow('status of 401');
    const username = uniqueUsername('ann');
    const member = await newMember(request, username, 'correct-horse-1');
    await page.goto('/login');
    await expect(page).toHaveTitle('Sign in | Playport');
    const guest = await settledUser(page, request);
    await expect(page.getByTestId('login-intro')).toHaveText(`You are playing as ${guest.userInfo.nickname}, a guest account on this device.`);

    await page.getByLabel('Username').fill(username);
    await page.getByLabel('Password', { exact: true }).fill('wrong-horse-1');
    await page.getByTestId('password-sign-in-submit').click();
    await expect(page.getByTestId('form-alert')).toHaveText('The username or password is incorrect.');
    await expect(page.getByLabel('Password', { exact: true })).toHaveValue('');
    await expect(page.getByLabel('Password', { exact: true })).toBeFocused();
    expect(await browserToken(context)).toBe(guest.token);

    await page.getByLabel('Password', { exact: true }).fill('correct-horse-1');
    await afterDebounce(page);
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL('/user');
    await expect(page.getByTestId('toast')).toContainText(`Signed in as ${member.userInfo.nickname}`);
    await expect(page.getByTestId('member-name')).toHaveText(member.userInfo.nickname!);
    await expect(page.getByTestId('member-status')).toContainText('Member');
    await expect(page.getByTestId('header-switch-account')).toBeVisible();
    const signedIn = await settledUser(page, request, guest.token);
    expect(signedIn.userInfo.uid).toBe(member.userInfo.uid);
    // A signed-in member's menu: profile, social accounts, switch account, settings.
    await page.getByTestId('user-menu-trigger').click();
    await expect(page.getByTestId('user-menu-items').getByRole('link')).toHaveText(['Profile', 'Social accounts', 'Switch account', 'Settings']);
  });

  test('rate limit: after ten wrong passwords for a username the next attempt is told to wait', async ({ page, request, problems }) => {
    test.slow();
    problems.allow('status of 429');
    // A username of its own: the limit counts per username (and per client address, which is this test's own).
    const username = uniqueUsername('limit');
    await newMember(request, username, 'the-real-password');
    for (let i = 0; i < 10; i++) {
      const { status } = await call(request, 'POST', '/username/login/', { body: { username, password: `guess-${i}-wrong` } });
      expect(status).toBe(401);
    }
    await page.goto('/login');
    await settledUser(page, request);
    await page.getByLabel('Username').fill(username);
    await page.getByLabel('Password', { exact: true }).fill('the-real-password');
    await page.getByTestId('password-sign-in-submit').click();
    await expect(page.getByTestId('form-alert')).toHaveText(/^Too many attempts\. Please try again in \d+ seconds\.$/);
    await expect(page).toHaveURL('/login');
  });

  test('one action at a time: a double click signs in once, and the other buttons wait under a loading overlay', async ({ page, request }) => {
    test.slow();
    const username = uniqueUsername('once');
    await newMember(request, username, 'double-click-1');
    const calls = countApiCalls(page);
    await page.goto('/login?redirect=%2Fsettings');
    await settledUser(page, request);
    const { promise: held, resolve: release } = Promise.withResolvers<void>();
    await page.route('**/serve/api/username/login/**', async (route) => {
      await held;
      await route.continue();
    });
    await page.getByLabel('Username').fill(username);
    await page.getByLabel('Password', { exact: true }).fill('double-click-1');
    await page.getByTestId('password-sign-in-submit').dblclick();
    await expect(page.getByTestId('loading-overlay')).toBeVisible();
    await expect(page.getByTestId('device-sign-in')).toBeDisabled();
    await expect(page.getByRole('tab', { name: 'Create account' })).toBeDisabled();
    release();
    await expect(page).toHaveURL('/settings');
    expect(calls('POST /username/login/')).toBe(1);
  });

  test('device sign-in returns to the guest account this browser recorded, and needs the device id this browser keeps', async ({
    page,
    context,
    request,
    baseURL,
    problems,
  }) => {
    test.slow();
    problems.allow('status of 404');
    // Every test runs in the same browser, so all compute the same fingerprint: this test gives
    // its guest and its device sign-in a fingerprint of their own.
    const fingerprint = `device${randomBytes(12).toString('hex')}`;
    const sent: Array<Record<string, string>> = [];
    await page.route(/\/serve\/api\/(guest\/device|fingerprint\/login)\//, (route) => {
      const body = { ...route.request().postDataJSON(), fingerprint };
      sent.push(body);
      return route.continue({ postData: JSON.stringify(body) });
    });
    // The guest's device is recorded once the page has been quiet for a few seconds (decision 066).
    // Computing the fingerprint takes seconds on a busy machine: the wait allows for it.
    const recorded = page.waitForResponse((response) => response.url().endsWith('/serve/api/guest/device/'), { timeout: 60_000 });
    await page.goto('/user');
    const guest = await settledUser(page, request);
    expect((await (await recorded).json()).data).toEqual({ recorded: true });
    // With the device id this browser made and keeps in localStorage (decision 081).
    const deviceId = await page.evaluate(() => localStorage.getItem('playport:device-id'));
    expect(deviceId).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(sent[0]).toEqual({ fingerprint, deviceId });
    // Another account takes over this browser (a token from elsewhere) ...
    const other = await newGuest(request);
    await useSession(context, baseURL!, other.token);
    // ... and a browser with the same fingerprint but another device id gets nothing back.
    // (The other guest's own device recording is marked done, so it cannot race the attempt below.)
    await page.evaluate((uid) => {
      localStorage.removeItem('playport:device-id');
      localStorage.setItem(`playport:device-recorded:${uid}`, '1');
    }, other.userInfo.uid);
    await page.goto('/login');
    await expect(page.getByTestId('login-intro')).toContainText(other.userInfo.nickname!);
    await page.getByTestId('device-sign-in').click();
    await expect(page.getByTestId('form-alert')).toHaveText('No guest account is linked to this device. Please sign in another way.');
    expect(sent.at(-1)!.deviceId).not.toBe(deviceId);
    expect(await browserToken(context)).toBe(other.token);
    // The browser that keeps the recorded device id gets the first guest back.
    await page.evaluate((id) => localStorage.setItem('playport:device-id', id), deviceId!);
    await page.reload();
    await expect(page.getByTestId('login-intro')).toContainText(other.userInfo.nickname!);
    await page.getByTestId('device-sign-in').click();
    await expect(page).toHaveURL('/user');
    await expect(page.getByTestId('member-name')).toHaveText(guest.userInfo.nickname!);
    expect((await settledUser(page, request, other.token)).userInfo.uid).toBe(guest.userInfo.uid);
  });

  test('the header opens the login list in a modal, and switch account offers it again once signed in @mobile', async ({ page, request }) => {
    test.slow();
    const username = uniqueUsername('modal');
    const member = await newMember(request, username, 'modal-pass-123');
    await page.goto('/zh-CN/categories');
    await settledUser(page, request);
    await page.getByTestId('header-sign-in').click();
    const dialog = page.getByTestId('login-dialog');
    await expect(dialog.getByRole('heading', { name: '登录' })).toBeVisible();
    await dialog.getByLabel('用户名').fill(username);
    await dialog.getByLabel('密码', { exact: true }).fill('modal-pass-123');
    await dialog.getByRole('button', { name: '登录', exact: true }).click();
    await expect(page.getByTestId('toast')).toContainText(`已登录为 ${member.userInfo.nickname}`);
    await expect(dialog).toBeHidden();
    await expect(page).toHaveURL('/zh-CN/categories');
    await expect(page.getByTestId('header-sign-in')).toHaveCount(0);
    await page.getByTestId('header-switch-account').click();
    await expect(dialog.getByRole('heading', { name: '切换账号' })).toBeVisible();
    // A member switches between accounts: no account creation here.
    await expect(dialog.getByRole('tab')).toHaveCount(0);
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(page.getByTestId('header-switch-account')).toBeFocused();
  });
});

test.describe('choosing a password (decision 052)', { tag: '@db' }, () => {
  test('a common or leaked password is refused at registration with the reason, in both languages', async ({ page, request, problems }) => {
    test.slow();
    problems.allow('status of 422');
    await page.goto('/zh-CN/login?mode=create');
    await settledUser(page, request);
    const form = page.getByTestId('create-account');
    await form.getByLabel('用户名').fill(uniqueUsername('weak'));
    await form.getByLabel('密码', { exact: true }).fill('iloveyou123');
    await form.getByRole('button', { name: '创建账号' }).click();
    await expect(form.getByTestId('field-error')).toHaveText(['此密码在攻击者会优先尝试的常见或泄露密码列表中，请换一个。']);

    await page.goto('/login?mode=create');
    await settledUser(page, request);
    const english = page.getByTestId('create-account');
    await english.getByLabel('Username').fill(uniqueUsername('weak'));
    await english.getByLabel('Password', { exact: true }).fill('password1');
    await english.getByRole('button', { name: 'Create account' }).click();
    await expect(english.getByTestId('field-error')).toHaveText([
      'This password is on the lists of common and leaked passwords that attackers try first. Choose another.',
    ]);
    await english.getByLabel('Password', { exact: true }).fill('a-long-river-of-stars');
    await afterDebounce(page);
    await english.getByRole('button', { name: 'Create account' }).click();
    // A strong one is taken: the browser holds a member's session (a new token, decision 050).
    await expect
      .poll(async () => {
        const token = await browserToken(page.context());
        return token ? (await call(request, 'GET', '/member/info/', { token })).data?.userInfo?.isGuest : undefined;
      })
      .toBe(false);
  });
});
