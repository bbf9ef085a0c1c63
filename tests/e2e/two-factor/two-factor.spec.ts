import type { Page } from '@playwright/test';
import { totpCode, totpStep } from '../../../server/features/two-factor/totp.ts';
import { expect as baseExpect, test } from '../fixtures.ts';
import { newMember, uniqueUsername } from '../../support/accounts.ts';
import { useSession } from '../browser-session.ts';
import { afterDebounce, settledUser } from '../accounts/helpers.ts';

// Argon2 hashing and the code step take seconds on a busy machine.
const expect = baseExpect.configure({ timeout: 15_000 });
const PASSWORD = 'two-steps-ahead-7';

/** The code an authenticator app shows now, unless `used` (a code works once): then the next step's. */
function appCode(secret: string, used: string[] = []): string {
  const now = totpStep(new Date());
  for (const step of [now, now + 1]) {
    const code = totpCode(secret, step);
    if (!used.includes(code)) return code;
  }
  throw new Error('no unused code within the window');
}

async function signInWithPassword(page: Page, username: string, prefix = '') {
  await page.goto(`${prefix}/login`);
  await page.getByTestId('password-sign-in').locator('input[name="username"]').fill(username);
  await page.getByTestId('password-sign-in').locator('input[name="password"]').fill(PASSWORD);
  await page.getByTestId('password-sign-in-submit').click();
}

test.describe('two-step sign-in (decision 145)', { tag: '@db' }, () => {
  test('a member turns it on with a code computed from the key, signs in with a code, then with a recovery code in Chinese, and turns it off', async ({
    page,
    context,
    browser,
    request,
    baseURL,
    problems,
  }) => {
    test.slow();
    problems.allow('status of 401');
    problems.allow('status of 422');
    const username = uniqueUsername('twostep');
    const member = await newMember(request, username, PASSWORD);
    await useSession(context, baseURL!, member.token);

    await page.goto('/user/profile');
    await page.getByTestId('profile-rows').locator('[data-profile-row="two-factor"]').click();
    await expect(page).toHaveURL('/user/profile/two-factor');
    await expect(page).toHaveTitle('Two-step sign-in | Playport');
    await page.getByTestId('two-factor-begin').click();
    await expect(page.getByTestId('two-factor-qr')).toBeVisible();
    const secret = (await page.getByTestId('two-factor-key').textContent())!.replaceAll(' ', '');
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    // A wrong code first: refused at the field, nothing turned on.
    await page.getByLabel('Code from the app').fill('000000' === appCode(secret) ? '111111' : '000000');
    await page.getByTestId('two-factor-confirm').click();
    await expect(page.getByTestId('field-error')).toHaveText('That code is not right. Check the app and try the newest code.');
    const firstCode = appCode(secret);
    await page.getByLabel('Code from the app').fill(firstCode);
    await afterDebounce(page);
    await page.getByTestId('two-factor-confirm').click();
    await expect(page.getByTestId('two-factor-recovery-codes').locator('li')).toHaveCount(10);
    const codes = await page.getByTestId('two-factor-recovery-codes').locator('li').allTextContents();
    await page.getByTestId('two-factor-codes-saved').click();
    await expect(page.getByTestId('two-factor-on')).toContainText('10 recovery codes left');

    // Another browser: the right password asks for the code; the code signs in.
    const other = await browser.newContext({ baseURL });
    const second = await other.newPage();
    await signInWithPassword(second, username);
    const step = second.getByTestId('two-factor-sign-in');
    await expect(step).toBeVisible();
    await expect(step.getByRole('heading', { name: 'Two-step sign-in' })).toBeVisible();
    await expect(step.getByLabel('Code')).toBeFocused();
    await step.getByLabel('Code').fill(appCode(secret, [firstCode]));
    // A press within 500 ms of the password's is ignored by design (the buttons' debounce), as a person typing a code never is.
    await afterDebounce(second);
    await step.getByTestId('two-factor-submit').click();
    await expect(second).toHaveURL('/user');
    expect((await settledUser(second, request)).userInfo.uid).toBe(member.userInfo.uid);
    await other.close();

    // A third browser, in Chinese, without the phone: a recovery code, once.
    const third = await browser.newContext({ baseURL });
    const chinese = await third.newPage();
    await signInWithPassword(chinese, username, '/zh-CN');
    const zhStep = chinese.getByTestId('two-factor-sign-in');
    await expect(zhStep.getByRole('heading', { name: '两步登录' })).toBeVisible();
    await zhStep.getByLabel('验证码').fill(codes[0]!);
    await afterDebounce(chinese);
    await zhStep.getByTestId('two-factor-submit').click();
    await expect(chinese).toHaveURL('/zh-CN/user');
    await third.close();

    // Back in the first browser: one code fewer; turned off with the password.
    await page.reload();
    await expect(page.getByTestId('two-factor-on')).toContainText('9 recovery codes left');
    await page.getByLabel('Current password').fill(PASSWORD);
    await page.getByTestId('two-factor-disable').click();
    await expect(page.getByTestId('toast')).toContainText('Two-step sign-in is off');
    await expect(page.getByTestId('two-factor-begin')).toBeVisible();
  });
});
