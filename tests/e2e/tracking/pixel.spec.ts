import { createHash, randomBytes } from 'node:crypto';
import type { APIRequestContext, BrowserContext, Page } from '@playwright/test';
import { CONVERSIONS_API_STAND_IN } from '../../../playwright.config.ts';
import { type Account, call, newMember, uniqueUsername } from '../../support/accounts.ts';
import { settledUser } from '../accounts/helpers.ts';
import { useSession } from '../browser-session.ts';
import { expect, test } from '../fixtures.ts';
import { hydrated } from '../shell/helpers.ts';

interface Beacon {
  method: string;
  event: string;
  data: unknown[];
}

/**
 * The pixel's script and beacons never leave the machine: the browser's requests to Meta's
 * origins are answered here, and every beacon is recorded as it went out on the network.
 */
async function interceptMeta(context: BrowserContext): Promise<{ scriptLoads: () => number; scripts: string[]; beacons: Beacon[] }> {
  const scripts: string[] = [];
  const beacons: Beacon[] = [];
  // A stand-in for fbevents.js: each queued and later call becomes a beacon to facebook.com/tr, as the real script sends.
  const stub = `(() => {
    const send = (args) => fetch('https://www.facebook.com/tr/?' + new URLSearchParams({ method: String(args[0]), ev: String(args[1]), data: JSON.stringify(args.slice(2)) }), { mode: 'no-cors' });
    const fbq = window.fbq;
    fbq.callMethod = (...args) => send(args);
    for (const args of fbq.queue.splice(0)) send(args);
  })();`;
  await context.route('https://connect.facebook.net/**', (route) => {
    scripts.push(route.request().url());
    return route.fulfill({ contentType: 'application/javascript', body: stub });
  });
  await context.route('https://www.facebook.com/**', (route) => {
    const url = new URL(route.request().url());
    beacons.push({
      method: url.searchParams.get('method') ?? '',
      event: url.searchParams.get('ev') ?? '',
      data: JSON.parse(url.searchParams.get('data') ?? '[]') as unknown[],
    });
    return route.fulfill({ status: 204 });
  });
  return { scriptLoads: () => scripts.length, scripts, beacons };
}

interface ServerEvent {
  event_name: string;
  event_id: string;
  user_data: { external_id: string[] };
  custom_data?: { order_id: string; value: number; currency: string };
}

/** What the local stand-in for Meta's Conversions API has received from the server so far. */
async function serverEvents(): Promise<ServerEvent[]> {
  const received = (await (await fetch(`${CONVERSIONS_API_STAND_IN}/received`)).json()) as Array<{ body: { data: ServerEvent[] } }>;
  return received.flatMap((r) => r.body.data);
}

const sha256 = (value: string | number) => createHash('sha256').update(String(value).trim().toLowerCase()).digest('hex');

/** What must never reach Meta for this account (and order): the ids themselves, their plain SHA-256, readable event ids. */
function expectNoRawIds(sent: unknown, uid: number, orderId?: string) {
  const text = JSON.stringify(sent);
  expect(text).not.toContain(`"${uid}"`);
  expect(text).not.toContain(sha256(uid));
  expect(text).not.toMatch(/registration:|purchase:/);
  if (orderId) {
    expect(text).not.toContain(orderId);
    expect(text).not.toContain(sha256(orderId));
  }
}

async function visit(page: Page, source: string, path = '/') {
  await page.goto(`${path}?utm_source=${source}&utm_campaign=spring`);
  await hydrated(page);
}

/** A paid order of Solitaire's gold backs for a member, through the API and the sandbox's test card. */
async function paidOrder(request: APIRequestContext, member: Account): Promise<string> {
  const appId = (await call<{ id: number }>(request, 'GET', '/app/info/?slug=solitaire')).data.id;
  const order = await call<{ id: string }>(request, 'POST', `/game/pay/${appId}`, {
    token: member.token,
    body: { sku: 'solitaire-gold-backs', idempotencyKey: randomBytes(12).toString('base64url') },
  });
  expect(order.status).toBe(201);
  const checkout = await call<{ url: string }>(request, 'POST', '/payment/xsolla/create/', { token: member.token, body: { order_id: order.data.id } });
  const token = new URL(checkout.data.url, 'http://localhost').searchParams.get('token')!;
  expect((await call<{ outcome: string }>(request, 'POST', '/payment/sandbox/pay/', { body: { token, card: '4242 4242 4242 4242' } })).data.outcome).toBe(
    'paid',
  );
  await expect
    .poll(async () => (await call<{ status: string }>(request, 'GET', `/game/orders/${order.data.id}`, { token: member.token })).data.status)
    .toBe('paid');
  return order.data.id;
}

test.describe('the advertising pixel', () => {
  test('a visitor from a facebook campaign is asked first; after accepting, the pixel loads and sends only hashed ids', async ({ page, request }) => {
    const meta = await interceptMeta(page.context());
    await page.clock.install();
    await visit(page, 'facebook');
    const banner = page.getByTestId('consent-banner');
    await expect(banner).toBeVisible();
    await expect(banner.getByRole('link', { name: 'Cookie policy' })).toHaveAttribute('href', '/cookie-policy');
    // The time in which the pixel would load on its own, run at once: it does not, before the answer.
    await page.clock.runFor(2000);
    expect(meta.scriptLoads()).toBe(0);

    await banner.getByTestId('consent-accept').click();
    await expect(banner).toHaveCount(0);
    await expect.poll(() => meta.scriptLoads()).toBe(1);
    expect(meta.scripts).toEqual(['https://connect.facebook.net/en_US/fbevents.js']);
    const { userInfo, token } = await settledUser(page, request);
    // Automatic configuration (reading the page's forms and buttons) is off before the pixel starts.
    await expect.poll(() => meta.beacons.map((b) => `${b.method}:${b.event}`)).toEqual(['set:autoConfig', 'init:1234567890', 'track:PageView']);
    expect(meta.beacons[0]!.data).toEqual([false, '1234567890']);
    // The external id is the server's keyed hash of the uid, not a hash anyone can recompute.
    const ids = await request.get('/serve/api/tracking/ids/', {
      headers: { authorization: `Bearer ${token}`, 'utm-source': 'facebook', cookie: 'ad_consent=accepted' },
    });
    const { externalId } = ((await ids.json()) as { data: { externalId: string } }).data;
    expect(externalId).toMatch(/^[0-9a-f]{64}$/);
    expect(meta.beacons[1]!.data).toEqual([{ external_id: externalId }]);
    expectNoRawIds(meta.beacons, userInfo.uid);

    // The choice is kept (365 days) and changed in Settings.
    const cookie = (await page.context().cookies()).find((c) => c.name === 'ad_consent')!;
    expect(cookie.value).toBe('accepted');
    expect(cookie.expires - Date.now() / 1000).toBeGreaterThan(364 * 86_400);
    await page.goto('/settings');
    await page
      .getByTestId('settings-consent')
      .getByRole('radio', { name: /Not allowed/ })
      .click();
    expect((await page.context().cookies()).find((c) => c.name === 'ad_consent')!.value).toBe('declined');
  });

  test('a visitor from a meta campaign who accepted earlier gets the pixel after the page is interactive, and a game-loaded event', async ({
    page,
    context,
    baseURL,
  }) => {
    const meta = await interceptMeta(context);
    await context.addCookies([{ name: 'ad_consent', value: 'accepted', url: baseURL! }]);
    await visit(page, 'meta');
    await expect(page.getByTestId('consent-banner')).toHaveCount(0);
    await expect.poll(() => meta.scriptLoads()).toBe(1);
    await page.goto('/play/snake');
    await expect.poll(() => meta.beacons.some((b) => b.event === 'GameLoaded')).toBe(true);
  });

  test(
    'a Chinese page loads the pixel in Chinese; a registration carries the server’s event id, the same the Conversions API sends',
    { tag: '@db' },
    async ({ page, context, request, baseURL }) => {
      test.slow();
      const meta = await interceptMeta(context);
      await context.addCookies([{ name: 'ad_consent', value: 'accepted', url: baseURL! }]);
      await visit(page, 'facebook', '/zh-CN/login');
      const guest = await settledUser(page, request);
      await expect.poll(() => meta.scripts).toEqual(['https://connect.facebook.net/zh_CN/fbevents.js']);
      await page.goto('/zh-CN/login?mode=create');
      await expect.poll(() => meta.beacons.filter((b) => b.method === 'init').length).toBe(2);
      expect(meta.scripts).toEqual(['https://connect.facebook.net/zh_CN/fbevents.js', 'https://connect.facebook.net/zh_CN/fbevents.js']);
      const form = page.getByTestId('create-account');
      await form.getByLabel('用户名').fill(uniqueUsername('pixel'));
      await form.getByLabel('密码', { exact: true }).fill('Harbour-Lantern-Tricky-9');
      await form.getByRole('button', { name: '创建账号' }).click();

      await expect.poll(() => meta.beacons.some((b) => b.event === 'CompleteRegistration')).toBe(true);
      const beacon = meta.beacons.find((b) => b.event === 'CompleteRegistration')!;
      const eventId = (beacon.data[1] as { eventID: string }).eventID;
      expect(eventId).toMatch(/^[0-9a-f]{64}$/);
      // The server sent the same registration with the same event id and external id: Meta keeps one.
      await expect.poll(async () => (await serverEvents()).filter((e) => e.event_id === eventId).map((e) => e.event_name)).toEqual(['CompleteRegistration']);
      const server = (await serverEvents()).find((e) => e.event_id === eventId)!;
      const init = meta.beacons.findLast((b) => b.method === 'init')!;
      expect(init.data).toEqual([{ external_id: server.user_data.external_id[0] }]);
      expect(meta.beacons.filter((b) => b.method === 'set').map((b) => b.data)).toEqual([
        [false, '1234567890'],
        [false, '1234567890'],
      ]);
      expectNoRawIds(meta.beacons, guest.userInfo.uid);
      expectNoRawIds(server, guest.userInfo.uid);
    },
  );

  test(
    'a purchase carries the server’s keyed event and order ids, the same the Conversions API sends',
    { tag: '@db' },
    async ({ page, context, request, baseURL }) => {
      test.slow();
      const meta = await interceptMeta(context);
      const member = await newMember(request, uniqueUsername('pixelbuy'), 'Harbour-Lantern-Tricky-9');
      const orderId = await paidOrder(request, member);
      await useSession(context, baseURL!, member.token);
      await context.addCookies([{ name: 'ad_consent', value: 'accepted', url: baseURL! }]);
      // The play page hands the paid order to the game, which tracks the purchase once.
      await visit(page, 'meta', '/play/solitaire');

      await expect.poll(() => meta.beacons.some((b) => b.event === 'Purchase'), { timeout: 20_000 }).toBe(true);
      const beacon = meta.beacons.find((b) => b.event === 'Purchase')!;
      const custom = beacon.data[0] as { value: number; currency: string; order_id: string };
      const eventId = (beacon.data[1] as { eventID: string }).eventID;
      expect(custom).toMatchObject({ value: 1.99, currency: 'USD' });
      await expect.poll(async () => (await serverEvents()).filter((e) => e.event_id === eventId).map((e) => e.event_name)).toEqual(['Purchase']);
      const server = (await serverEvents()).find((e) => e.event_id === eventId)!;
      expect(server.custom_data).toMatchObject({ value: 1.99, currency: 'USD', order_id: custom.order_id });
      expect(meta.beacons.find((b) => b.method === 'init')!.data).toEqual([{ external_id: server.user_data.external_id[0] }]);
      expectNoRawIds(meta.beacons, member.userInfo.uid, orderId);
      expectNoRawIds(server, member.userInfo.uid, orderId);
    },
  );

  test('the page policy allows the pixel’s origins because a pixel is configured', async ({ request }) => {
    const csp = (await request.get('/about')).headers()['content-security-policy']!;
    expect(csp).toMatch(/script-src [^;]*https:\/\/connect\.facebook\.net/);
    expect(csp).toMatch(/connect-src [^;]*https:\/\/www\.facebook\.com/);
  });

  test('visitors from other sources are never measured, consent or not', async ({ page, context, baseURL }) => {
    const meta = await interceptMeta(context);
    await context.addCookies([{ name: 'ad_consent', value: 'accepted', url: baseURL! }]);
    await page.clock.install();
    await visit(page, 'google');
    await expect(page.getByTestId('consent-banner')).toHaveCount(0);
    await page.clock.runFor(2500);
    expect(meta.scriptLoads()).toBe(0);
    expect(meta.beacons).toEqual([]);
  });

  test('a declined visitor from facebook is never measured', async ({ page }) => {
    const meta = await interceptMeta(page.context());
    await page.clock.install();
    await visit(page, 'facebook');
    await page.getByTestId('consent-decline').click();
    await page.reload();
    await hydrated(page);
    await expect(page.getByTestId('consent-banner')).toHaveCount(0);
    await page.clock.runFor(2500);
    expect(meta.scriptLoads()).toBe(0);
  });
});
