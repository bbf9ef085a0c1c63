import { expect, test } from './fixtures.ts';

test.describe('the page policy in the browser', () => {
  test('scripts run under the nonce CSP: the page hydrates and no violation reaches the console', async ({ page }) => {
    // The fixture fails the test on any console error, which is where CSP violations are reported.
    await page.goto('/');
    await expect
      .poll(() => page.evaluate(() => typeof (window as unknown as { __reactRouterRouteModules?: unknown }).__reactRouterRouteModules))
      .toBe('object');
  });
});
