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

/** Chromium reports a 2g connection (Network Information API), as on a slow phone. */
async function onSlowConnection(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const connection = Object.assign(new EventTarget(), { effectiveType: '2g', saveData: false });
    Object.defineProperty(Navigator.prototype, 'connection', { get: () => connection, configurable: true });
  });
}

test.describe('payload prefetch', () => {
  test('a visible link’s payload is prefetched about a second after it comes into view, once', async ({ page }) => {
    const payloads = recordPayloads(page);
    await page.goto('/');
    await hydrated(page);
    // The header's categories link is in view from the start.
    await expect.poll(() => payloads.requests.map((r) => r.path)).toContain('/categories');
    // Its fetch started a second after the page was shown at the earliest (the watch starts at hydration, after DOMContentLoaded).
    // The resource timing entry appears only once the response has ended, a moment after the request event.
    const delayOfPrefetch = () =>
      page.evaluate(() => {
        const shown = (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming).domContentLoadedEventEnd;
        const fetched = performance.getEntriesByType('resource').find((entry) => new URL(entry.name).pathname === '/categories.data');
        return fetched ? fetched.startTime - shown : null;
      });
    await expect.poll(delayOfPrefetch).not.toBeNull();
    expect(await delayOfPrefetch()).toBeGreaterThanOrEqual(950);
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

  test('nothing is prefetched while the device is offline', async ({ page, context, problems }) => {
    // The first visit's guest sign-in may still be under way when the network goes.
    problems.allow('ERR_INTERNET_DISCONNECTED');
    problems.allow('Failed to fetch');
    const payloads = recordPayloads(page);
    await page.goto('/');
    await hydrated(page);
    await context.setOffline(true);
    await page.waitForTimeout(2500);
    expect(payloads.requests).toEqual([]);
    await context.setOffline(false);
  });

  test('nothing is prefetched on a 2g connection or with data saver on', async ({ page }) => {
    await onSlowConnection(page);
    const payloads = recordPayloads(page);
    await page.goto('/');
    await hydrated(page);
    await page.locator('footer').scrollIntoViewIfNeeded();
    await page.waitForTimeout(2500);
    expect(payloads.requests).toEqual([]);
  });
});

test.describe('page transitions', () => {
  test('a slow client navigation shows the top bar after the settle time; the new page fades in over about 100 ms without moving', async ({ page }) => {
    // Nothing prefetched (a 2g connection), so the navigation waits for its data.
    await onSlowConnection(page);
    // The animations started on the main content, as asked for.
    await page.addInitScript(() => {
      const animate = Element.prototype.animate;
      const seen: unknown[] = [];
      (window as unknown as { mainAnimations: unknown[] }).mainAnimations = seen;
      Element.prototype.animate = function (this: Element, keyframes, options) {
        if (this.id === 'main') seen.push({ keyframes, options });
        return animate.call(this, keyframes, options);
      };
    });
    await page.goto('/');
    await hydrated(page);
    const bar = page.getByTestId('navigation-progress');
    await expect(bar).toHaveCSS('opacity', '0');
    await expect(bar).toHaveCSS('position', 'fixed');

    // The next page's data takes a second to come.
    await page.route('**/categories.data*', async (route) => {
      await new Promise((done) => setTimeout(done, 1000));
      await route.continue();
    });
    await page.evaluate(() => {
      // Layout shifts from here on, wherever they come from (a click's own are excused by the browser for 500 ms only).
      (window as unknown as { shifts: number }).shifts = 0;
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries() as Array<PerformanceEntry & { value: number }>) (window as unknown as { shifts: number }).shifts += entry.value;
      }).observe({ type: 'layout-shift' });
    });
    await page.getByRole('navigation').getByRole('link', { name: 'Categories' }).first().click();
    await expect(bar).toHaveCSS('opacity', '1');
    await expect(page).toHaveURL('/categories');
    await expect(bar).toHaveCSS('opacity', '0');
    // The first page was the server's; the second fades in: opacity only, over 100 ms.
    expect(await page.evaluate(() => (window as unknown as { mainAnimations: unknown[] }).mainAnimations)).toEqual([
      { keyframes: [{ opacity: 0.4 }, { opacity: 1 }], options: { duration: 100, easing: 'ease-out' } },
    ]);
    expect(await page.evaluate(() => (window as unknown as { shifts: number }).shifts)).toBeLessThan(0.01);
  });
});
