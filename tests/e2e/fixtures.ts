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
export const test = httpTest.extend<{ problems: PageProblems }>({
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
