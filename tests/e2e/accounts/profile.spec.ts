import { readFileSync } from 'node:fs';
import { expect as baseExpect, test } from '../fixtures.ts';
import { call, newMember, uniqueUsername } from '../../support/accounts.ts';
import { browserToken, useSession } from '../browser-session.ts';
import { afterDebounce, settledUser } from './helpers.ts';

// These journeys wait on real work (argon2 hashing, device fingerprinting, image decoding), which
// takes seconds on a busy machine.
const expect = baseExpect.configure({ timeout: 15_000 });

test.describe('the auth middleware (decision 026)', { tag: '@db' }, () => {
  test('a guest is sent to sign in, creates an account there, comes back, and keeps the played games @mobile', async ({ page, context, request }) => {
    test.slow();
    await page.goto('/user');
    const guest = await settledUser(page, request);
    const snake = (await call<{ id: number }>(request, 'GET', '/app/info/?slug=snake')).data;
    expect((await call(request, 'POST', '/member/played/', { token: guest.token, body: { app_id: snake.id } })).status).toBe(200);

    await page.goto('/user');
    await expect(page.getByTestId('library-recently-played').getByTestId('app-tile')).toHaveAttribute('href', '/app/snake');
    await page.getByTestId('member-create-account').click();
    await expect(page).toHaveURL('/login?mode=create&redirect=%2Fuser');
    const username = uniqueUsername('upgrade');
    const form = page.getByTestId('create-account');
    await form.getByLabel('Username').fill('no');
    await form.getByLabel('Password', { exact: true }).fill('short');
    await form.getByRole('button', { name: 'Create account' }).click();
    await expect(form.getByTestId('field-error')).toHaveText(['Use 3 to 20 characters.', 'Use 8 to 128 characters.']);
    await form.getByLabel('Username').fill(username);
    await form.getByLabel('Password', { exact: true }).fill('upgrade-pass-1');
    await form.getByRole('button', { name: 'Create account' }).click();
    await expect(page).toHaveURL('/user');
    await expect(page.getByTestId('member-status')).toContainText('Member');
    await expect(page.getByTestId('member-name')).toHaveText(guest.userInfo.nickname!);
    await expect(page.getByTestId('library-recently-played').getByTestId('app-tile')).toHaveAttribute('href', '/app/snake');
    // The same account on a new token (the session is rotated); the guest's token is dead.
    expect(await browserToken(context)).not.toBe(guest.token);
    expect((await call(request, 'GET', '/member/info/', { token: guest.token })).status).toBe(401);
    const member = await settledUser(page, request);
    expect(member.userInfo).toMatchObject({ uid: guest.userInfo.uid, isGuest: false });
    expect((await call(request, 'POST', '/username/login/', { body: { username, password: 'upgrade-pass-1' } })).data.userInfo.uid).toBe(guest.userInfo.uid);
    await page.getByTestId('member-edit-profile').click();
    await expect(page).toHaveURL('/user/profile');
    await expect(page.getByTestId('profile-name')).toHaveText(guest.userInfo.nickname!);
  });

  test('a guest opening a profile page signs in and lands on that page', async ({ page, request }) => {
    test.slow();
    const username = uniqueUsername('back');
    const member = await newMember(request, username, 'return-path-1');
    await page.goto('/user/profile/nickname');
    await expect(page).toHaveURL('/login?redirect=%2Fuser%2Fprofile%2Fnickname');
    await settledUser(page, request);
    await page.getByLabel('Username').fill(username);
    await page.getByLabel('Password', { exact: true }).fill('return-path-1');
    await page.getByTestId('password-sign-in-submit').click();
    await expect(page).toHaveURL('/user/profile/nickname');
    await expect(page).toHaveTitle('Nickname | Playport');
    await expect(page.getByLabel('Nickname')).toHaveValue(member.userInfo.nickname!);
  });

  test('a return path to another site is ignored', async ({ page, request }) => {
    const username = uniqueUsername('away');
    await newMember(request, username, 'stay-here-123');
    await page.goto('/login?redirect=%2F%2Fevil.example%2Fsteal');
    await settledUser(page, request);
    await page.getByLabel('Username').fill(username);
    await page.getByLabel('Password', { exact: true }).fill('stay-here-123');
    await page.getByTestId('password-sign-in-submit').click();
    await expect(page).toHaveURL('/user');
  });
});

test.describe('profile pages', { tag: '@db' }, () => {
  test('nickname, email and phone are checked, saved, shown everywhere and kept', async ({ page, context, request, baseURL, problems }) => {
    test.slow();
    problems.allow('status of 422');
    const member = await newMember(request, uniqueUsername('edit'), 'profile-edit-1');
    await useSession(context, baseURL!, member.token);
    await page.goto('/user/profile');
    await expect(page).toHaveTitle('Profile | Playport');
    const rows = page.getByTestId('profile-rows');
    await rows.locator('[data-profile-row="nickname"]').click();
    await expect(page).toHaveURL('/user/profile/nickname');

    const nickname = page.getByLabel('Nickname');
    await nickname.fill('x');
    await page.getByTestId('profile-save').click();
    await expect(page.getByTestId('field-error')).toHaveText('Use 2 to 24 characters.');
    await nickname.fill('  Star  Runner  ');
    await page.getByTestId('profile-save').click();
    await expect(page.getByTestId('toast')).toContainText('Nickname saved');
    await expect(nickname).toHaveValue('Star  Runner');
    await expect(page.getByTestId('header-user-name')).toHaveText('Star  Runner');

    await page.getByRole('link', { name: 'Back to profile' }).click();
    await rows.locator('[data-profile-row="email"]').click();
    const email = page.getByLabel('Email');
    await email.fill('not an address');
    await page.getByTestId('profile-save').click();
    await expect(page.getByTestId('field-error')).toHaveText('Enter a valid email address.');
    await email.fill(' star@example.com ');
    await page.getByTestId('profile-save').click();
    await expect(page.getByTestId('toast').last()).toContainText('Email saved');

    await page.goto('/user/profile/phone');
    const phone = page.getByLabel('Phone');
    await phone.fill('12345');
    await page.getByTestId('profile-save').click();
    await expect(page.getByTestId('field-error')).toContainText('Enter the number with a + and the country code');
    // In English a number without its country code is not guessed: 1 310 555 0123 is American.
    await phone.fill('13105550123');
    await page.getByTestId('profile-save').click();
    await expect(page.getByTestId('field-error')).toContainText('Enter the number with a + and the country code');
    await phone.fill('+44 (20) 7946-0958');
    await page.getByTestId('profile-save').click();
    await expect(phone).toHaveValue('+442079460958');

    // Kept: a fresh page load shows all three.
    await page.goto('/user/profile');
    await expect(rows.locator('[data-profile-row="nickname"]')).toContainText('Star  Runner');
    await expect(rows.locator('[data-profile-row="email"]')).toContainText('star@example.com');
    await expect(rows.locator('[data-profile-row="phone"]')).toContainText('+442079460958');
    // An empty email removes it.
    await page.goto('/user/profile/email');
    await page.getByLabel('Email').fill('');
    await page.getByTestId('profile-save').click();
    await expect(page.getByTestId('toast').last()).toContainText('Email removed');
    const profile = (await call(request, 'GET', '/member/profile/', { token: member.token })).data;
    expect(profile).toMatchObject({ nickname: 'Star  Runner', email: null, phone: '+442079460958' });

    // In Chinese, a mainland mobile number as people write it at home is taken with +86 (decision 117).
    await page.goto('/zh-CN/user/profile/phone');
    const localPhone = page.getByLabel('手机号');
    await localPhone.fill('138 0013 8000');
    // A saved number is changed only with the password (ASVS 7.5.1).
    await page.getByTestId('profile-save').click();
    await expect(page.getByTestId('field-error')).toHaveText('请输入当前密码。');
    await page.getByLabel('当前密码').fill('profile-edit-1');
    await afterDebounce(page);
    await page.getByTestId('profile-save').click();
    await expect(page.getByTestId('toast').last()).toContainText('手机号已保存');
    await expect(localPhone).toHaveValue('+8613800138000');
    await expect(page.getByText('中国大陆手机号可直接填写 11 位号码')).toBeVisible();
    expect((await call(request, 'GET', '/member/profile/', { token: member.token })).data.phone).toBe('+8613800138000');
    // Not every 11 digits: a number that is no mainland mobile number still needs its country code.
    await localPhone.fill('2345678901');
    await page.getByLabel('当前密码').fill('profile-edit-1');
    await afterDebounce(page);
    await page.getByTestId('profile-save').click();
    await expect(page.getByTestId('field-error')).toHaveText('请输入 11 位中国大陆手机号，或带 + 号和国家或地区代码的号码，例如 +852 2123 4567。');
  });

  test('password: the current one is required and checked; the new one signs in', async ({ page, context, request, baseURL, problems }) => {
    test.slow();
    problems.allow('status of 422');
    const username = uniqueUsername('pw');
    const member = await newMember(request, username, 'old-password-1');
    await useSession(context, baseURL!, member.token);
    await page.goto('/user/profile/password');
    await expect(page.getByText('Changing your password signs you out on your other devices.')).toBeVisible();
    await page.getByLabel('New password').fill('new-password-1');
    await page.getByTestId('profile-save').click();
    await expect(page.getByTestId('field-error')).toHaveText('Enter your current password.');
    await page.getByLabel('Current password').fill('not-the-password');
    await page.getByTestId('profile-save').click();
    await expect(page.getByTestId('field-error')).toHaveText('The current password is incorrect.');
    await page.getByLabel('Current password').fill('old-password-1');
    await afterDebounce(page);
    await page.getByTestId('profile-save').click();
    await expect(page.getByTestId('toast')).toContainText('Password changed');
    expect((await call(request, 'POST', '/username/login/', { body: { username, password: 'new-password-1' } })).status).toBe(200);
    // This device stays signed in.
    await page.reload();
    await expect(page).toHaveURL('/user/profile/password');
  });

  test('avatar: a real image becomes the avatar everywhere; a renamed text file is refused', async ({ page, context, request, baseURL, problems }) => {
    test.slow();
    problems.allow('status of 422');
    const member = await newMember(request, uniqueUsername('pic'), 'avatar-pass-1');
    await useSession(context, baseURL!, member.token);
    await page.goto('/user/profile/avatar');
    const input = page.getByTestId('avatar-input');

    await input.setInputFiles({ name: 'notes.png', mimeType: 'image/png', buffer: Buffer.from('these are my notes, not a picture\n'.repeat(20)) });
    await expect(page.getByText('Selected: notes.png')).toBeVisible();
    await page.getByTestId('avatar-upload').click();
    await expect(page.getByTestId('form-alert')).toHaveText('Upload a PNG, JPEG, WebP or GIF image.');
    expect((await call(request, 'GET', '/member/info/', { token: member.token })).data.userInfo.avatar).toBeNull();

    await input.setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: readFileSync('public/icons/icon-192.png') });
    await expect(page.getByText('Selected: me.png')).toBeVisible();
    await afterDebounce(page);
    await page.getByTestId('avatar-upload').click();
    await expect(page.getByTestId('toast')).toContainText('Avatar updated');
    const avatar = (await call(request, 'GET', '/member/info/', { token: member.token })).data.userInfo.avatar as string;
    expect(avatar).toMatch(/^\/uploads\/avatars\/\d+\/[0-9a-f]{16}-256\.webp$/);
    const headerImage = page.getByTestId('user-menu-trigger').locator('img');
    await expect(headerImage).toHaveAttribute('src', avatar);
    await expect.poll(() => headerImage.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(256);

    // A page load paints the avatar from the server's HTML.
    const response = await page.goto('/user');
    expect(await response!.text()).toContain(`src="${avatar}"`);
    await expect(page.getByTestId('member-card').locator('img')).toHaveAttribute('src', avatar);
  });
});
