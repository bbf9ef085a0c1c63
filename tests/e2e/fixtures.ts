import { createHash } from 'node:crypto';
import { test as base, expect, type TestInfo } from '@playwright/test';

export interface PageProblems {
  /** Console errors and failed requests the test expects (matched by substring); anything else fails it. */
  allow(pattern: string | RegExp): void;
}

/**
 * The client address a test's requests come from (X-Forwarded-For; the end-to-end server trusts
 * it). Each test is its own client, as each visitor is: per-address rate limits (new guest
 * accounts, failed sign-ins) count one test's requests, never the whole run's.
 */
export function clientAddress(testInfo: Pick<TestInfo, 'testId' | 'retry' | 'repeatEachIndex'>): string {
  const [a, b, c] = createHash('sha256').update(`${testInfo.testId}/${testInfo.retry}/${testInfo.repeatEachIndex}`).digest();
  return `10.${a}.${b}.${Math.max(1, c!)}`;
}

/**
 * Every page records console errors, uncaught exceptions and failed requests; an
 * unexpected one fails the test after it ran.
 */
export const test = base.extend<{ problems: PageProblems }>({
  extraHTTPHeaders: async ({ extraHTTPHeaders }, use, testInfo) => {
    await use({ ...extraHTTPHeaders, 'X-Forwarded-For': clientAddress(testInfo) });
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
