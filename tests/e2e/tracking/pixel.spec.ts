import { createHash } from 'node:crypto';
import type { BrowserContext, Page } from '@playwright/test';
import { settledUser } from '../accounts/helpers.ts';
import { expect, test } from '../fixtures.ts';
import { hydrated } from '../shell/helpers.ts';

/**
 * The pixel's script and beacons never leave the machine: the browser's requests to Meta's
 * origins are answered here, and every beacon is recorded as it went out on the network.
 */
async function interceptMeta(context: BrowserContext): Promise<{ scriptLoads: () => number; beacons: Array<{ method: string; event: string; data: unknown[] }> }> {
  let scriptLoads = 0;
  const beacons: Array<{ method: string; event: string; data: unknown[] }> = [];
  // A stand-in for fbevents.js: each queued and later call becomes a beacon to facebook.com/tr, as the real script sends.
  const stub = `(() => {
    const send = (args) => fetch('https://www.facebook.com/tr/?' + new URLSearchParams({ method: String(args[0]), ev: String(args[1]), data: JSON.stringify(args.slice(2)) }), { mode: 'no-cors' });
    const fbq = window.fbq;
    fbq.callMethod = (...args) => send(args);
    for (const args of fbq.queue.splice(0)) send(args);
  })();`;
  await context.route('https://connect.facebook.net/**', (route) => {
    scriptLoads += 1;
    return route.fulfill({ contentType: 'application/javascript', body: stub });
  });
  await context.route('https://www.facebook.com/**', (route) => {
    const url = new URL(route.request().url());
    beacons.push({ method: url.searchParams.get('method') ?? '', event: url.searchParams.get('ev') ?? '', data: JSON.parse(url.searchParams.get('data') ?? '[]') as unknown[] });
    return route.fulfill({ status: 204 });
  });
  return { scriptLoads: () => scriptLoads, beacons };
}

const sha256 = (value: string | number) => createHash('sha256').update(String(value).trim().toLowerCase()).digest('hex');

async function visit(page: Page, source: string) {
  await page.goto(`/?utm_source=${source}&utm_campaign=spring`);
  await hydrated(page);
}

test.describe('the advertising pixel', () => {
  test('a visitor from a facebook campaign is asked first; after accepting, the pixel loads and sends only hashed ids', async ({ page, request }) => {
    const meta = await interceptMeta(page.context());
    await visit(page, 'facebook');
    const banner = page.getByTestId('consent-banner');
    await expect(banner).toBeVisible();
    await expect(banner.getByRole('link', { name: 'Cookie policy' })).toHaveAttribute('href', '/cookie-policy');
    await page.waitForTimeout(2000);
    expect(meta.scriptLoads()).toBe(0);

    await banner.getByTestId('consent-accept').click();
    await expect(banner).toHaveCount(0);
    await expect.poll(() => meta.scriptLoads()).toBe(1);
    const { userInfo } = await settledUser(page, request);
    await expect.poll(() => meta.beacons.map((b) => `${b.method}:${b.event}`)).toEqual(['init:1234567890', 'track:PageView']);
    expect(meta.beacons[0]!.data).toEqual([{ external_id: sha256(userInfo.uid) }]);
    expect(JSON.stringify(meta.beacons)).not.toContain(`"${userInfo.uid}"`);

    // The choice is kept (365 days) and changed in Settings.
    const cookie = (await page.context().cookies()).find((c) => c.name === 'ad_consent')!;
    expect(cookie.value).toBe('accepted');
    expect(cookie.expires - Date.now() / 1000).toBeGreaterThan(364 * 86_400);
    await page.goto('/settings');
    await page.getByTestId('settings-consent').getByRole('radio', { name: /Not allowed/ }).click();
    expect((await page.context().cookies()).find((c) => c.name === 'ad_consent')!.value).toBe('declined');
  });

  test('a visitor from a meta campaign who accepted earlier gets the pixel after the page is interactive, and a game-loaded event', async ({ page, context, baseURL }) => {
    const meta = await interceptMeta(context);
    await context.addCookies([{ name: 'ad_consent', value: 'accepted', url: baseURL! }]);
    await visit(page, 'meta');
    await expect(page.getByTestId('consent-banner')).toHaveCount(0);
    await expect.poll(() => meta.scriptLoads()).toBe(1);
    await page.goto('/play/snake');
    await expect.poll(() => meta.beacons.some((b) => b.event === 'GameLoaded')).toBe(true);
  });

  test('the page policy allows the pixel’s origins because a pixel is configured', async ({ request }) => {
    const csp = (await request.get('/about')).headers()['content-security-policy']!;
    expect(csp).toMatch(/script-src [^;]*https:\/\/connect\.facebook\.net/);
    expect(csp).toMatch(/connect-src [^;]*https:\/\/www\.facebook\.com/);
  });

  test('visitors from other sources are never measured, consent or not', async ({ page, context, baseURL }) => {
    const meta = await interceptMeta(context);
    await context.addCookies([{ name: 'ad_consent', value: 'accepted', url: baseURL! }]);
    await visit(page, 'google');
    await expect(page.getByTestId('consent-banner')).toHaveCount(0);
    await page.waitForTimeout(2500);
    expect(meta.scriptLoads()).toBe(0);
    expect(meta.beacons).toEqual([]);
  });

  test('a declined visitor from facebook is never measured', async ({ page }) => {
    const meta = await interceptMeta(page.context());
    await visit(page, 'facebook');
    await page.getByTestId('consent-decline').click();
    await page.reload();
    await hydrated(page);
    await expect(page.getByTestId('consent-banner')).toHaveCount(0);
    await page.waitForTimeout(2500);
    expect(meta.scriptLoads()).toBe(0);
  });
});
