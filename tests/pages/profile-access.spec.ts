import { expect } from '@playwright/test';
import { newGuest, newMember, uniqueUsername } from '../support/accounts.ts';
import { httpTest as test } from '../support/site.ts';

const PROFILE_PAGES = [
  '/user/profile',
  '/user/profile/avatar',
  '/user/profile/nickname',
  '/user/profile/password',
  '/user/profile/email',
  '/user/profile/phone',
  '/user/profile/social',
  '/user/profile/passkey',
  '/user/profile/data',
  '/user/profile/two-factor',
  '/user/profile/sessions',
  '/user/profile/delete',
];

test.describe('the auth middleware (decision 026)', () => {
  test('every profile page sends a visitor without a session, and a guest, to /login with the way back', async ({ request }) => {
    const guest = await newGuest(request);
    for (const path of PROFILE_PAGES) {
      for (const cookie of [undefined, `token=${encodeURIComponent(guest.token)}`]) {
        const response = await request.get(path, { maxRedirects: 0, headers: cookie ? { cookie } : {} });
        expect(response.status(), `${path} ${cookie ? 'guest' : 'no session'}`).toBe(302);
        expect(response.headers().location).toBe(`/login?redirect=${encodeURIComponent(path)}`);
      }
    }
    const zh = await request.get('/zh-CN/user/profile/nickname?from=menu', { maxRedirects: 0 });
    expect(zh.headers().location).toBe(`/zh-CN/login?redirect=${encodeURIComponent('/zh-CN/user/profile/nickname?from=menu')}`);
    const member = await newMember(request, uniqueUsername('gate'), 'gate-keeper-1');
    const allowed = await request.get('/user/profile/nickname', { maxRedirects: 0, headers: { cookie: `token=${encodeURIComponent(member.token)}` } });
    expect(allowed.status()).toBe(200);
  });
});
