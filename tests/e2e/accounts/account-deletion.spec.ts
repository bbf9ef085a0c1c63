import { expect as baseExpect, test } from '../fixtures.ts';
import { call, newMember, uniqueUsername } from '../../support/accounts.ts';
import { useSession } from '../browser-session.ts';
import { grantOperator } from '../../support/operators.ts';
import { afterDebounce, settledUser } from './helpers.ts';

// Password checks (argon2) and the new guest after the sign-out take seconds on a busy machine.
const expect = baseExpect.configure({ timeout: 15_000 });

test.describe('deleting the account (decision 147)', { tag: '@db' }, () => {
  test('a member deletes the account from the profile, is signed out, and a sign-in within 30 days restores it', async ({
    page,
    context,
    request,
    baseURL,
    problems,
  }) => {
    test.slow();
    // The wrong password's 422, and the sign-out after the deletion presenting a token the server ended already.
    problems.allow('status of 422');
    problems.allow('status of 401');
    const username = uniqueUsername('leaver');
    const password = 'Quiet-Harbour-Delete-7';
    const member = await newMember(request, username, password);
    await useSession(context, baseURL!, member.token);

    await page.goto('/user/profile');
    await page.getByTestId('profile-rows').locator('[data-profile-row="delete"]').click();
    await expect(page).toHaveURL('/user/profile/delete');
    await expect(page).toHaveTitle('Delete account | Playport');
    const panel = page.getByTestId('account-deletion');
    await expect(panel).toContainText('If you sign in again within 30 days, your account comes back as it was.');
    await expect(page.getByTestId('account-deletion-games')).toHaveCount(0);
    const confirm = page.getByTestId('account-deletion-confirm');
    await expect(confirm).toBeDisabled();

    // A wrong password is refused and nothing changes.
    await page.getByLabel('Current password').fill('not-my-password');
    await page.getByTestId('account-deletion-understood').check();
    await confirm.click();
    await expect(page.getByLabel('Current password')).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByText('The current password is incorrect.')).toBeVisible();
    expect((await call(request, 'GET', '/member/info/', { token: member.token })).status).toBe(200);

    await page.getByLabel('Current password').fill(password);
    await afterDebounce(page);
    await confirm.click();
    await expect(page).toHaveURL('/');
    await expect(page.getByTestId('toast')).toContainText('Your account is closed.');
    // Signed out everywhere: the member's token no longer works, and this browser goes on as a guest.
    expect((await call(request, 'GET', '/member/info/', { token: member.token })).status).toBe(401);
    const guest = await settledUser(page, request, member.token);
    expect(guest.userInfo.uid).not.toBe(member.userInfo.uid);

    await page.goto('/login');
    await page.getByLabel('Username').fill(username);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await afterDebounce(page);
    await page.getByTestId('password-sign-in-submit').click();
    await expect(page).toHaveURL('/user');
    await expect(page.getByTestId('account-restored')).toHaveText(
      'Welcome back. Your account was going to be deleted; signing in restored it, and nothing was lost.',
    );
    const restored = await settledUser(page, request, guest.token);
    expect(restored.userInfo.uid).toBe(member.userInfo.uid);
  });

  test('the page on deleting an account is open to everyone, in both languages, and the privacy policy links it', async ({ page }) => {
    await page.goto('/zh-CN/account-deletion');
    await expect(page).toHaveTitle('如何删除账号 | Playport');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('如何删除账号');
    await page.goto('/privacy-policy');
    await page.getByRole('link', { name: 'how account deletion works' }).click();
    await expect(page).toHaveURL('/account-deletion');
    await expect(page).toHaveTitle('Deleting your account | Playport');
    await expect(page.getByTestId('account-deletion-page')).toContainText('For 30 days you can change your mind');
  });

  test("an operator erases a closed account at once, on its member's request: the member is gone, an anonymous name is left, the audit log says why", async ({
    page,
    request,
    baseURL,
  }) => {
    test.slow();
    const password = 'Quiet-Harbour-Delete-7';
    const leaverName = uniqueUsername('erased');
    const leaver = await newMember(request, leaverName, password);
    expect((await call(request, 'POST', '/user/account-deletion/', { token: leaver.token, body: { currentPassword: password } })).status).toBe(200);

    const operator = await newMember(request, uniqueUsername('eraser'), password);
    await grantOperator(operator.userInfo.uid);
    await useSession(page.context(), baseURL!, operator.token);
    await page.goto('/console/members');
    await page.getByLabel('Find a member').fill(leaverName);
    await page.getByRole('button', { name: 'Find', exact: true }).click();
    await page.getByRole('button', { name: `#${leaver.userInfo.uid}` }).click();
    const member = page.getByTestId('member-detail');
    await expect(member.getByTestId('member-state')).toHaveText('Closed, to be deleted');
    await member.getByTestId('erase-open').click();
    const dialog = page.getByTestId('member-dialog');
    await dialog.getByLabel('Reason').fill('Asked by mail to erase it now');
    await dialog.getByTestId('reason-confirm').click();
    await expect(dialog).toBeHidden();
    await expect(member.getByTestId('member-state')).toHaveText('Erased');
    await expect(member).toContainText(/player-[0-9a-f]{6}/);
    await expect(member).not.toContainText(leaverName);

    // The member's name and password sign in to nothing now.
    expect((await call(request, 'POST', '/username/login/', { body: { username: leaverName, password } })).status).toBe(401);
    await page.goto('/console/audit');
    await expect(page.locator('[data-testid="audit-entry"][data-action="member.erased"]', { hasText: 'Asked by mail to erase it now' })).toHaveCount(1);
  });
});
