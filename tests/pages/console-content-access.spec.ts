import { expect } from '@playwright/test';
import { newGuest, newMember, uniqueUsername } from '../support/accounts.ts';
import { grantOperator } from '../support/operators.ts';
import { httpTest as test } from '../support/site.ts';

const CONTENT_PAGES = ['/console/games', '/console/articles', '/console/articles/new', '/console/articles/1001', '/console/pages', '/console/pages/about'];
const cookieOf = (token: string) => ({ cookie: `token=${encodeURIComponent(token)}` });

test.describe("the Console's content pages (decision 099)", () => {
  test('send visitors to sign in, do not exist for guests and members, and open for operators', async ({ request }) => {
    const guest = await newGuest(request);
    const member = await newMember(request, uniqueUsername('cm'), 'gate-keeper-1');
    const operator = await newMember(request, uniqueUsername('co'), 'gate-keeper-1');
    await grantOperator(operator.userInfo.uid);
    for (const path of CONTENT_PAGES) {
      const anonymous = await request.get(path, { maxRedirects: 0 });
      expect(anonymous.status(), `${path} without a session`).toBe(302);
      expect((await request.get(path, { maxRedirects: 0, headers: cookieOf(guest.token) })).status(), `${path} guest`).toBe(302);
      expect((await request.get(path, { maxRedirects: 0, headers: cookieOf(member.token) })).status(), `${path} member`).toBe(404);
      expect((await request.get(path, { maxRedirects: 0, headers: cookieOf(operator.token) })).status(), `${path} operator`).toBe(200);
      expect((await request.get(`/zh-CN${path}`, { maxRedirects: 0, headers: cookieOf(operator.token) })).status(), `/zh-CN${path} operator`).toBe(200);
    }
    // A malformed address is "not found" even for an operator (spec section 2).
    expect((await request.get('/console/articles/abc', { headers: cookieOf(operator.token) })).status()).toBe(404);
    expect((await request.get('/console/pages/Not_A_Slug', { headers: cookieOf(operator.token) })).status()).toBe(404);
  });
});
