import { expect as baseExpect, test } from '../fixtures.ts';
import { type Account, call, newMember, uniqueUsername } from '../../support/accounts.ts';
import { browserToken, useSession } from '../browser-session.ts';
import { settledUser } from './helpers.ts';

// Password sign-ins hash with argon2, which takes seconds on a busy machine.
const expect = baseExpect.configure({ timeout: 15_000 });

test.describe("where you're signed in (decision 142)", { tag: '@db' }, () => {
  test('a member signed in on two browsers ends the other one from the sessions page; the other is signed out at its next step', async ({
    browser,
    page,
    context,
    request,
    baseURL,
  }) => {
    test.slow();
    const username = uniqueUsername('twice');
    const password = 'two-browsers-pass-1';
    // The first browser's session is the registration itself.
    const firstToken = (await newMember(context.request, username, password)).token;
    // Each browser signs in with its own User-Agent, as a person would on each device.
    const other = await browser.newContext({ userAgent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:143.0) Gecko/20100101 Firefox/143.0' });
    try {
      const signIn = await call<Account>(other.request, 'POST', '/username/login/', { body: { username, password } });
      expect(signIn.status).toBe(200);
      const otherToken = signIn.data.token;
      await useSession(context, baseURL!, firstToken);
      await useSession(other, baseURL!, otherToken);
      const otherPage = await other.newPage();
      await otherPage.goto('/user');
      await expect(otherPage.getByTestId('member-name')).toBeVisible();

      await page.goto('/user/profile/sessions');
      const items = page.getByTestId('session-item');
      await expect(items).toHaveCount(2);
      const current = page.locator('[data-testid="session-item"][data-current="true"]');
      await expect(current.getByTestId('session-device')).toContainText(/Chrome on (Windows|Linux)/);
      await expect(current).toContainText('This device');
      const otherItem = page.locator('[data-testid="session-item"][data-current="false"]');
      await expect(otherItem.getByTestId('session-device')).toHaveText('Firefox on Windows');
      await expect(otherItem).toContainText('Signed in with password');

      await otherItem.getByRole('button', { name: 'End the session Firefox on Windows' }).click();
      await page.getByTestId('confirm-dialog').getByRole('button', { name: 'End session' }).click();
      await expect(items).toHaveCount(1);
      await expect(page.getByText('You are signed in on this device only.')).toBeVisible();
      expect((await call(request, 'GET', '/member/info/', { token: otherToken })).status).toBe(401);

      // The other browser's next step: its token is refused and it is a guest again.
      await otherPage.reload();
      const after = await settledUser(otherPage, other.request, otherToken);
      expect(after.userInfo.isGuest).toBe(true);
      expect(await browserToken(other)).not.toBe(otherToken);
      await expect(otherPage.getByTestId('header-sign-in')).toBeVisible();
      // This browser is still signed in.
      expect((await call(request, 'GET', '/member/info/', { token: firstToken })).status).toBe(200);
    } finally {
      await other.close();
    }
  });
});
