import type { CDPSession, Page } from '@playwright/test';
import { call, newMember, uniqueUsername } from '../../support/accounts.ts';
import { browserToken, useSession } from '../browser-session.ts';
import { afterDebounce, settledUser } from '../accounts/helpers.ts';
import { expect as baseExpect, test } from '../fixtures.ts';
import { hydrated } from '../shell/helpers.ts';

// Ceremonies wait on real work (key generation, the session's rotation) on a busy machine.
const expect = baseExpect.configure({ timeout: 15_000 });

/**
 * Chromium's virtual authenticator (CDP WebAuthn domain): a platform authenticator that keeps
 * discoverable credentials and verifies the user, answering at once as if the person touched it.
 */
async function virtualAuthenticator(
  page: Page,
): Promise<{ cdp: CDPSession; id: string; credentials: () => Promise<Array<{ isResidentCredential: boolean }>> }> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return { cdp, id: authenticatorId, credentials: async () => (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials };
}

/**
 * The virtual authenticator answers a conditional (autofill) request at once, where a person
 * would pick the passkey first. Tests of the buttons use a browser that offers no autofill.
 */
async function withoutPasskeyAutofill(page: Page): Promise<void> {
  await page.addInitScript(() => {
    PublicKeyCredential.isConditionalMediationAvailable = async () => false;
  });
}

/** A guest on the login page's account creation, with a passkey made there: now a member. */
async function memberWithPasskey(page: Page, request: import('@playwright/test').APIRequestContext) {
  await page.goto('/login?mode=create');
  await hydrated(page);
  const guest = await settledUser(page, request);
  expect(guest.userInfo.isGuest).toBe(true);
  await page.getByTestId('passkey-create-account').click();
  // One toast: the login page's own, as for every way in.
  await expect(page.getByTestId('toast')).toHaveText([`Account created. Welcome, ${guest.userInfo.nickname}!`]);
  const member = await settledUser(page, request, guest.token);
  return { guest, member };
}

test.describe('passkeys', { tag: '@db' }, () => {
  test('a guest creates an account with a passkey, signs out, signs in with it, renames it; the same authenticator is not registered twice', async ({
    page,
    request,
  }) => {
    test.slow();
    await withoutPasskeyAutofill(page);
    const authenticator = await virtualAuthenticator(page);
    const { guest, member } = await memberWithPasskey(page, request);
    // The same account, now a member, on a new token: the guest's token no longer works.
    expect(member.userInfo).toMatchObject({ uid: guest.userInfo.uid, isGuest: false, webauthn: true });
    expect((await call(request, 'GET', '/member/info/', { token: guest.token })).status).toBe(401);
    expect((await authenticator.credentials()).map((c) => c.isResidentCredential)).toEqual([true]);

    // The bind list offers to manage it; the manager lists it with its name and dates.
    await page.goto('/user/profile/social');
    await expect(page.getByTestId('passkey-manage')).toBeVisible();
    await page.getByTestId('passkey-manage').click();
    await expect(page).toHaveURL('/user/profile/passkey');
    const item = page.getByTestId('passkey-item');
    await expect(item).toHaveCount(1);
    await expect(item.getByTestId('passkey-name')).toHaveText(/^Chrome on /);
    await expect(item).toContainText('Not used yet');

    // Rename.
    await item.getByTestId('passkey-rename').click();
    await item.getByLabel('Passkey name').fill('Test laptop');
    await item.getByTestId('passkey-rename-save').click();
    await expect(item.getByTestId('passkey-name')).toHaveText('Test laptop');

    // Registering again on the same authenticator: excluded by the options, refused by the browser.
    await afterDebounce(page);
    await page.getByTestId('passkey-add').click();
    await expect(page.getByTestId('toast').filter({ hasText: 'This authenticator already holds a passkey for your account' })).toBeVisible();
    expect(await authenticator.credentials()).toHaveLength(1);

    // The header offers sign-out to a member with a passkey; signing out starts a new guest.
    await page.getByTestId('header-sign-out').click();
    await expect.poll(async () => (await settledUser(page, request, member.token)).userInfo.isGuest).toBe(true);

    // Sign in with the passkey button, in Chinese: one toast, naming the account.
    await page.goto('/zh-CN/login');
    await hydrated(page);
    const before = await settledUser(page, request);
    await page.getByTestId('passkey-sign-in').click();
    await expect(page.getByTestId('toast')).toHaveText([`已登录为 ${member.userInfo.nickname}`]);
    const back = await settledUser(page, request, before.token);
    expect(back.userInfo.uid).toBe(member.userInfo.uid);
    await page.goto('/user/profile/passkey');
    await expect(page.getByTestId('passkey-item')).toContainText('Last used');
  });

  test('the only passkey is kept until another is added; then one can be deleted after confirming', async ({ page, request, problems }) => {
    test.slow();
    problems.allow('status of 409');
    await withoutPasskeyAutofill(page);
    const first = await virtualAuthenticator(page);
    const { member } = await memberWithPasskey(page, request);
    await page.goto('/user/profile/passkey');
    const items = page.getByTestId('passkey-item');
    await expect(items).toHaveCount(1);
    await items.first().getByTestId('passkey-delete').click();
    await expect(page.getByTestId('confirm-dialog')).toBeVisible();
    await page.getByTestId('confirm-accept').click();
    await expect(page.getByTestId('toast').filter({ hasText: 'This passkey is your only way to sign in' })).toBeVisible();
    await expect(items).toHaveCount(1);

    // A second authenticator (a security key, say) adds a second passkey.
    await first.cdp.send('WebAuthn.removeVirtualAuthenticator', { authenticatorId: first.id });
    await virtualAuthenticator(page);
    await afterDebounce(page);
    await page.getByTestId('passkey-add').click();
    await expect(page.getByTestId('toast').filter({ hasText: 'Passkey created' })).toBeVisible();
    await expect(items).toHaveCount(2);
    // A press within 500 ms of the last one is ignored by design (spec section 4).
    await afterDebounce(page);
    await items.first().getByTestId('passkey-delete').click();
    await page.getByTestId('confirm-accept').click();
    await expect(page.getByTestId('toast').filter({ hasText: 'Passkey deleted' })).toBeVisible();
    await expect(items).toHaveCount(1);
    const token = await browserToken(page.context());
    const info = await call(request, 'GET', '/member/info/', { token: token! });
    expect(info.data.userInfo).toMatchObject({ uid: member.userInfo.uid, webauthn: true });
  });

  test('autofill: the login page offers the passkey in the username field, and picking it signs in', async ({ page, request }) => {
    test.slow();
    await virtualAuthenticator(page);
    const { member } = await memberWithPasskey(page, request);
    const supported = await page.evaluate(() => PublicKeyCredential.isConditionalMediationAvailable?.() ?? false);
    test.skip(!supported, 'this Chromium offers no conditional mediation');
    // Signed out on a page without a login form, so that the autofill starts on /login.
    await page.goto('/about');
    await page.getByTestId('header-sign-out').click();
    await expect.poll(async () => (await settledUser(page, request, member.token)).userInfo.isGuest).toBe(true);
    const guestToken = await browserToken(page.context());
    // The virtual authenticator picks the passkey the moment the page asks, as a person would
    // in the username field's suggestions.
    // HTML attribute names are case-insensitive; React writes this one as autoComplete.
    expect(await (await request.get('/login')).text()).toMatch(/autocomplete="username webauthn"/i);
    await page.goto('/login');
    await expect(page.getByTestId('toast')).toHaveText([`Signed in as ${member.userInfo.nickname}`]);
    expect((await settledUser(page, request, guestToken!)).userInfo.uid).toBe(member.userInfo.uid);
  });

  test('a ceremony that finds no passkey says so as a warning and keeps the session', async ({ page, request, problems }) => {
    problems.allow(/NotAllowedError|not allowed/i);
    await withoutPasskeyAutofill(page);
    const authenticator = await virtualAuthenticator(page);
    await page.goto('/login');
    await hydrated(page);
    const visitor = await settledUser(page, request);
    await authenticator.cdp.send('WebAuthn.clearCredentials', { authenticatorId: authenticator.id });
    await page.getByTestId('passkey-sign-in').click();
    await expect(page.getByTestId('toast').filter({ hasText: 'The passkey did not work. Please try again.' })).toBeVisible({ timeout: 30_000 });
    expect((await settledUser(page, request)).token).toBe(visitor.token);
  });

  test('a browser without WebAuthn is told so on the bind list, and offered no passkey button', async ({ page, context, request, baseURL }) => {
    await page.addInitScript(() => {
      // @ts-expect-error -- a browser without WebAuthn has no PublicKeyCredential
      delete window.PublicKeyCredential;
    });
    const member = await newMember(request, uniqueUsername('nowebauthn'), 'no-passkeys-here-42');
    await useSession(context, baseURL!, member.token);
    await page.goto('/user/profile/social');
    await hydrated(page);
    await expect(page.getByTestId('passkey-unsupported')).toHaveText('WebAuthn is not supported in this browser');
    await expect(page.getByTestId('passkey-create')).toHaveCount(0);
    await page.goto('/login');
    await hydrated(page);
    await expect(page.getByTestId('password-sign-in')).toBeVisible();
    await expect(page.getByTestId('passkey-sign-in')).toHaveCount(0);
  });
});
