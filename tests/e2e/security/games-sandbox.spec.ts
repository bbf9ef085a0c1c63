import type { Frame, Page } from '@playwright/test';
import { expect, test } from '../fixtures.ts';

/** What a game's script can see of the portal's session from inside its document. */
async function whatTheGameSees(target: Page | Frame) {
  return target.evaluate(() => {
    // oxlint-disable-next-line unicorn/consistent-function-scoping -- this function runs inside the game's page
    const attempt = (read: () => unknown) => {
      try {
        return { value: String(read()) };
      } catch (error) {
        return { error: (error as Error).name };
      }
    };
    return {
      origin: window.origin,
      cookie: attempt(() => document.cookie),
      storage: attempt(() => window.localStorage.getItem('playport-secret')),
    };
  });
}

/** The portal's own session (the guest account every visitor gets) and a stored secret, before a game is opened. */
async function portalSession(page: Page): Promise<string> {
  await page.goto('/settings');
  await page.evaluate(() => window.localStorage.setItem('playport-secret', 'portal-only'));
  await expect.poll(() => page.evaluate(() => /(?:^|; )token=([^;]+)/.exec(document.cookie)?.[1] ?? '')).toContain('%7C');
  return page.evaluate(() => decodeURIComponent(/(?:^|; )token=([^;]+)/.exec(document.cookie)![1]!));
}

test.describe('games never run with the portal origin', () => {
  test('a game opened directly cannot read the session cookie or the portal storage', async ({ page }) => {
    const token = await portalSession(page);
    await page.goto('/games/snake/');
    const seen = await whatTheGameSees(page);
    expect(seen.origin).toBe('null');
    expect(seen.cookie.value ?? '').not.toContain(token.split('|')[1]);
    expect(seen.cookie.value ?? '').not.toContain(encodeURIComponent(token));
    expect(seen.storage).toEqual({ error: 'SecurityError' });
    // The game still runs: its canvas is drawn and keys work without storage.
    await expect(page.locator('canvas').first()).toBeVisible();
  });

  test('a game in the play page frame is sandboxed too', async ({ page }) => {
    const token = await portalSession(page);
    await page.goto('/play/snake');
    const frameElement = page.locator('iframe');
    await expect(frameElement).toHaveAttribute('sandbox', /allow-scripts/);
    await expect(frameElement).not.toHaveAttribute('sandbox', /allow-same-origin/);
    await expect
      .poll(() =>
        page
          .frames()
          .find((f) => f.url().includes('/games/snake/'))
          ?.url(),
      )
      .toBeTruthy();
    const frame = page.frames().find((f) => f.url().includes('/games/snake/'))!;
    await frame.waitForLoadState();
    const seen = await whatTheGameSees(frame);
    expect(seen.origin).toBe('null');
    expect(seen.cookie.value ?? '').not.toContain(token.split('|')[1]);
    expect(seen.cookie.value ?? '').not.toContain(encodeURIComponent(token));
    expect(seen.storage).toEqual({ error: 'SecurityError' });
  });
});
