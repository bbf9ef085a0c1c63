import type { Page, Request } from '@playwright/test';
import { expect, test } from '../fixtures.ts';
import { hydrated } from './helpers.ts';

/** The pages whose payload (React Router's .data requests) the browser fetched, with when. */
function recordPayloads(page: Page): { requests: Array<{ path: string; at: number }> } {
  const record = { requests: [] as Array<{ path: string; at: number }> };
  page.on('request', (request: Request) => {
    const url = new URL(request.url());
    if (url.pathname.endsWith('.data')) record.requests.push({ path: url.pathname.replace(/\.data$/, ''), at: Date.now() });
  });
  return record;
}

test.describe('payload prefetch', () => {
  test('a visible link’s payload is prefetched about a second after it comes into view, once', async ({ page }) => {
    const payloads = recordPayloads(page);
    await page.goto('/');
    await hydrated(page);
    // The header's categories link is in view from the start.
    await expect.poll(() => payloads.requests.map((r) => r.path)).toContain('/categories');
    // Its fetch started a second after the page was shown at the earliest (the watch starts at hydration, after DOMContentLoaded).
    const delay = await page.evaluate(() => {
      const shown = (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming).domContentLoadedEventEnd;
      const fetched = performance.getEntriesByType('resource').find((entry) => new URL(entry.name).pathname === '/categories.data')!;
      return fetched.startTime - shown;
    });
    expect(delay).toBeGreaterThanOrEqual(950);
    await page.waitForTimeout(300);
    expect(payloads.requests.filter((r) => r.path === '/categories')).toHaveLength(1);
  });

  test('a link further down is prefetched only once it is scrolled into view', async ({ page }) => {
    const payloads = recordPayloads(page);
    await page.setViewportSize({ width: 1280, height: 400 });
    await page.goto('/settings');
    await hydrated(page);
    const footerLink = page.locator('footer a[data-discover][href^="/"]').first();
    const target = new URL((await footerLink.getAttribute('href'))!, 'http://x').pathname;
    expect(payloads.requests.map((r) => r.path)).not.toContain(target);
    await footerLink.scrollIntoViewIfNeeded();
    const scrolled = Date.now();
    await expect.poll(() => payloads.requests.map((r) => r.path)).toContain(target);
    expect(payloads.requests.find((r) => r.path === target)!.at - scrolled).toBeGreaterThanOrEqual(700);
  });

  test('nothing is prefetched on a 2g connection or with data saver on', async ({ page }) => {
    await page.addInitScript(() => {
      const connection = Object.assign(new EventTarget(), { effectiveType: '2g', saveData: false });
      Object.defineProperty(Navigator.prototype, 'connection', { get: () => connection, configurable: true });
    });
    const payloads = recordPayloads(page);
    await page.goto('/');
    await hydrated(page);
    await page.locator('footer').scrollIntoViewIfNeeded();
    await page.waitForTimeout(2500);
    expect(payloads.requests).toEqual([]);
  });
});
