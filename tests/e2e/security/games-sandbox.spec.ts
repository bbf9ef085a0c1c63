import type { Frame, Page } from '@playwright/test';
import { expect, hostedGameFrame, test } from '../fixtures.ts';

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

/** The games origin of this run: the port after the portal's (decision 089). */
function gamesPort(page: Page): number {
  return Number(new URL(page.url()).port) + 1;
}

test.describe('games never run with the portal origin', () => {
  test('a game opened directly on the portal origin cannot read the session cookie or the portal storage', async ({ page }) => {
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

  test('a game in the play page runs on a host of its own: none of the portal’s cookies, storage or API, and no origin it did not declare', async ({
    page,
    problems,
  }) => {
    // The refusals below are the browser's, reported on the console.
    problems.allow('Content Security Policy');
    const token = await portalSession(page);
    await page.goto('/play/snake');
    await expect(page.getByTestId('game-frame')).toHaveAttribute('sandbox', 'allow-scripts allow-same-origin allow-pointer-lock');
    const snake = await hostedGameFrame(page, 'snake');
    const seen = await whatTheGameSees(snake);
    expect(seen.origin).toBe(`http://snake.games.localhost:${gamesPort(page)}`);
    expect(seen.cookie.value ?? '').not.toContain(token.split('|')[1]);
    expect(seen.cookie.value ?? '').not.toContain(encodeURIComponent(token));
    // Where the browser blocks third-party storage (this profile, as incognito windows) a game's
    // storage throws; where it allows it, the next test shows it is the game's own.
    expect(seen.storage).toEqual({ error: 'SecurityError' });

    const portal = new URL(page.url()).origin;
    const reach = await snake.evaluate(async (portalOrigin) => {
      // oxlint-disable-next-line unicorn/consistent-function-scoping -- this function runs inside the game's frame
      const tryFetch = (url: string, init?: RequestInit) =>
        fetch(url, init).then(
          (response) => `status ${response.status}`,
          (error: Error) => error.name,
        );
      return {
        // The portal's API as the player: refused by CORS (and the cookie would not go).
        api: await tryFetch(`${portalOrigin}/serve/api/member/info/`, { credentials: 'include' }),
        // An origin the game did not declare: refused by the frame's connect-src.
        undeclared: await tryFetch('http://127.0.0.1:9/anything'),
        // Its own files: allowed.
        own: await tryFetch('/index.html'),
      };
    }, portal);
    expect(reach).toEqual({ api: 'TypeError', undeclared: 'TypeError', own: 'status 200' });

    // A game cannot plant a cookie the portal would read (a Domain cookie of a shared parent).
    await snake.evaluate(() => {
      document.cookie = 'token=planted; domain=localhost; path=/';
      document.cookie = 'token=planted; domain=games.localhost; path=/';
    });
    await page.goto('/settings');
    expect(await page.evaluate(() => decodeURIComponent(/(?:^|; )token=([^;]+)/.exec(document.cookie)?.[1] ?? ''))).toBe(token);
  });

  test('in a profile that allows third-party storage, a game has storage of its own that neither the portal nor another game shares', async ({
    storagePage: page,
    baseURL,
  }) => {
    await page.goto(`${baseURL}/settings`);
    await page.evaluate(() => window.localStorage.setItem('playport-secret', 'portal-only'));
    await page.goto(`${baseURL}/play/snake`);
    const snake = await hostedGameFrame(page, 'snake');
    expect(await snake.evaluate(() => window.localStorage.getItem('playport-secret'))).toBeNull();
    await snake.evaluate(() => window.localStorage.setItem('snake-secret', 'snake-only'));
    expect(await snake.evaluate(() => window.localStorage.getItem('snake-secret'))).toBe('snake-only');
    await page.goto(`${baseURL}/play/2048`);
    const other = await hostedGameFrame(page, '2048');
    expect(await other.evaluate(() => window.localStorage.getItem('snake-secret'))).toBeNull();
    expect(await page.evaluate(() => window.localStorage.getItem('snake-secret'))).toBeNull();
  });

  test('the games origin serves game files only: no portal page, no API, nothing on a host that names no game', async ({ page, problems }) => {
    problems.allow('404 (Not Found)');
    await page.goto('/');
    const port = gamesPort(page);
    for (const url of [
      `http://snake.games.localhost:${port}/serve/api/app/list/`,
      `http://snake.games.localhost:${port}/settings`,
      `http://games.localhost:${port}/`,
    ]) {
      const response = await page.goto(url);
      expect(response?.status(), url).toBe(404);
      expect(await response?.headerValue('set-cookie'), url).toBeNull();
    }
    const entry = await page.goto(`http://snake.games.localhost:${port}/index.html`);
    expect(entry?.status()).toBe(200);
    expect(await entry?.headerValue('content-security-policy')).toContain('frame-ancestors http://localhost:');
  });
});
