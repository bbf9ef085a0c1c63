import { expect } from '@playwright/test';
import { httpTest } from '../support/site.ts';

export { clientAddress } from '../support/site.ts';

export interface PageProblems {
  /** Console errors and failed requests the test expects (matched by substring); anything else fails it. */
  allow(pattern: string | RegExp): void;
}

/**
 * Browser tests: every page records console errors, uncaught exceptions and failed requests; an
 * unexpected one fails the test after it ran.
 */
export const test = httpTest.extend<{ problems: PageProblems; storagePage: import('@playwright/test').Page }>({
  /**
   * A page in a browser profile as most desktop Chrome users have it, third-party cookies and storage
   * allowed: Playwright's contexts block them (as incognito windows do), and a game's frame is a
   * third party on the play page (decision 089). Games must work in both; this shows what they get at best.
   */
  storagePage: async ({ baseURL }, use) => {
    const { chromium } = await import('@playwright/test');
    const { mkdtempSync, mkdirSync, writeFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const dir = mkdtempSync(join(tmpdir(), 'playport-profile-'));
    mkdirSync(join(dir, 'Default'));
    writeFileSync(join(dir, 'Default', 'Preferences'), JSON.stringify({ profile: { cookie_controls_mode: 0 } }));
    // Without the tests' X-Forwarded-For (site.ts), which the browser would also send to a game's backend.
    const context = await chromium.launchPersistentContext(dir, { executablePath: '/usr/bin/chromium', extraHTTPHeaders: {}, ...(baseURL ? { baseURL } : {}) });
    await use(context.pages()[0] ?? (await context.newPage()));
    await context.close();
  },
  problems: [
    async ({ page }, use) => {
      const seen: string[] = [];
      const allowed: Array<string | RegExp> = [];
      page.on('console', (message) => {
        if (message.type() === 'error') seen.push(`console: ${message.text()} @ ${message.location().url}`);
      });
      page.on('pageerror', (error) => seen.push(`exception: ${error.message}`));
      page.on('requestfailed', (request) => {
        const failure = request.failure()?.errorText ?? '';
        // A navigation away aborts in-flight requests: not a failure of the page.
        if (failure.includes('ERR_ABORTED')) return;
        seen.push(`request failed: ${request.method()} ${request.url()} ${failure}`);
      });
      await use({ allow: (pattern) => allowed.push(pattern) });
      const unexpected = seen.filter((line) => !allowed.some((p) => (typeof p === 'string' ? line.includes(p) : p.test(line))));
      expect(unexpected, 'unexpected console errors or failed requests').toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };

/** The frame of a hosted game, found by its own host below the games origin (decision 089), once it has loaded. */
export async function hostedGameFrame(page: import('@playwright/test').Page, slug: string): Promise<import('@playwright/test').Frame> {
  const find = () => page.frames().find((frame) => frame.url().startsWith(`http://${slug}.games.localhost:`));
  await expect.poll(() => find()?.url() ?? '').toContain('/index.html');
  const frame = find()!;
  await frame.waitForLoadState();
  return frame;
}

/**
 * Waits until a click on a game's frame reaches the game: while a portal dialog is open, and
 * during its closing animation, its modal layer turns pointer events off on the page and a click
 * on the frame lands nowhere, though Playwright's checks see the frame's button as clickable.
 */
export async function portalTakesClicks(page: import('@playwright/test').Page): Promise<void> {
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect.poll(() => page.evaluate(() => getComputedStyle(document.body).pointerEvents)).not.toBe('none');
}
