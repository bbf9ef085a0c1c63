import { expect } from '@playwright/test';
import { newGuest, newMember, uniqueUsername } from '../support/accounts.ts';
import { grantOperator } from '../support/operators.ts';
import { httpTest as test } from '../support/site.ts';

const STUDIO_PAGES = [
  '/studio',
  '/studio/profile',
  '/studio/keys',
  '/studio/earnings',
  '/studio/earnings/USD/2026-01',
  '/studio/earnings/payouts',
  '/studio/games/new',
];
const CONSOLE_PAGES = [
  '/console',
  '/console/orders',
  '/console/members',
  '/console/acquisition',
  '/console/reconciliation',
  '/console/audit',
  '/console/payouts',
];
const cookieOf = (token: string) => ({ cookie: `token=${encodeURIComponent(token)}` });

test.describe('Studio and Console access (decision 095)', () => {
  test('send a visitor without a session, and a guest, to /login with the way back', async ({ request }) => {
    const guest = await newGuest(request);
    for (const path of [...STUDIO_PAGES, ...CONSOLE_PAGES]) {
      for (const headers of [{}, cookieOf(guest.token)]) {
        const response = await request.get(path, { maxRedirects: 0, headers });
        expect(response.status(), `${path} ${'cookie' in headers ? 'guest' : 'no session'}`).toBe(302);
        expect(response.headers().location).toBe(`/login?redirect=${encodeURIComponent(path)}`);
      }
    }
    const zh = await request.get('/zh-CN/console/orders', { maxRedirects: 0 });
    expect(zh.headers().location).toBe(`/zh-CN/login?redirect=${encodeURIComponent('/zh-CN/console/orders')}`);
  });

  test('the Console does not exist for a member who is not an operator, and opens for an operator', async ({ request }) => {
    const member = await newMember(request, uniqueUsername('plain'), 'plain-member-pass-1');
    for (const path of CONSOLE_PAGES) {
      const response = await request.get(path, { maxRedirects: 0, headers: cookieOf(member.token) });
      expect(response.status(), path).toBe(404);
      expect(await response.text()).not.toContain('data-testid="console-overview"');
    }
    const operator = await newMember(request, uniqueUsername('oper'), 'operator-pass-words-1');
    await grantOperator(operator.userInfo.uid);
    for (const path of [...CONSOLE_PAGES, '/zh-CN/console/audit']) {
      const response = await request.get(path, { maxRedirects: 0, headers: cookieOf(operator.token) });
      expect(response.status(), path).toBe(200);
    }
    const overview = await request.get('/console', { headers: cookieOf(operator.token) });
    expect(await overview.text()).toContain('data-testid="console-overview"');
  });
});
