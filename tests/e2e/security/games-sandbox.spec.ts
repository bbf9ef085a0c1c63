import { mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { APIRequestContext, Frame, Page } from '@playwright/test';
import { insertDeveloperGame, insertReviewedBuild } from '../../../server/testing/developer-games.ts';
import { call, newMember, uniqueUsername } from '../../support/accounts.ts';
import { openRunDatabase } from '../../support/run-database.ts';
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
    await expect(page.getByTestId('game-frame')).toHaveAttribute(
      'sandbox',
      'allow-scripts allow-same-origin allow-pointer-lock allow-storage-access-by-user-activation',
    );
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
    // A refusal is a document too, sandboxed with nothing allowed: the browser says so when the test's tooling looks in.
    problems.allow('Blocked script execution');
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

  test('an SVG, XML or XHTML file of a game opened directly on its host runs no script @db', async ({ page, request, problems }) => {
    // The browser's own word that it refused: expected here. The preview host has no favicon.
    problems.allow('Blocked script execution');
    problems.allow('404 (Not Found)');
    // A build of a developer's game, served on its preview host as any build is (decision 097).
    const developer = await newMember(request, uniqueUsername('svg'), 'Harbour-Lantern-Tricky-9');
    const database = await openRunDatabase();
    const now = new Date().toISOString();
    await database.db
      .insertInto('developer_profiles')
      .values({ user_id: developer.userInfo.uid, studio_name: 'Inert Files', contact_email: 'dev@inert.test', created_at: now, updated_at: now })
      .execute();
    const game = await insertDeveloperGame(database.db, developer.userInfo.uid);
    const uid = developer.userInfo.uid;
    const build = await insertReviewedBuild(database.db, { appId: game.id, version: 1, status: 'rejected', uploadedBy: uid, reviewedBy: uid });
    await database.close();
    const files = join(tmpdir(), `playport-e2e-builds-${process.env.E2E_RUN_ID}`, String(game.id), String(build.id));
    mkdirSync(files, { recursive: true });
    const ran = "document.getElementById('mark').textContent = 'script ran'";
    writeFileSync(join(files, 'index.html'), `<!doctype html><title>Inert</title><p id="mark">inert</p><script>${ran}</script>`);
    writeFileSync(join(files, 'art.svg'), `<svg xmlns="http://www.w3.org/2000/svg"><text id="mark" x="10" y="20">inert</text><script>${ran}</script></svg>`);
    writeFileSync(
      join(files, 'data.xml'),
      `<?xml version="1.0"?><root xmlns:h="http://www.w3.org/1999/xhtml"><h:p id="mark">inert</h:p><h:script>${ran}</h:script></root>`,
    );
    writeFileSync(join(files, 'page.xhtml'), `<html xmlns="http://www.w3.org/1999/xhtml"><body><p id="mark">inert</p><script>${ran}</script></body></html>`);

    const { data } = await call<{ builds: Array<{ id: number; previewUrl: string }> }>(request, 'GET', `/studio/games/${game.id}/builds`, {
      token: developer.token,
    });
    const label = new URL(data.builds.find((b) => b.id === build.id)!.previewUrl).searchParams.get('preview');
    await page.goto('/');
    const host = `http://${label}.previews.localhost:${gamesPort(page)}`;
    const seen: Record<string, string | null> = {};
    for (const file of ['index.html', 'art.svg', 'data.xml', 'page.xhtml']) {
      const response = await page.goto(`${host}/${file}`);
      expect(response?.status(), file).toBe(200);
      seen[file] = await page.locator('#mark').textContent();
    }
    // The game's page runs, in the game sandbox; no other document runs a script.
    expect(seen).toEqual({ 'index.html': 'script ran', 'art.svg': 'inert', 'data.xml': 'inert', 'page.xhtml': 'inert' });
  });
});

/** Eight cookies of about 4 KB for a whole domain, sent along with third-party requests too, as a game or a preview could set them; what the page then reads. */
async function plantCookies(target: Page | Frame, domain: string): Promise<number> {
  return target.evaluate((parent) => {
    for (let i = 0; i < 8; i++) document.cookie = `planted${i}=${'x'.repeat(4000)}; domain=${parent}; path=/; max-age=31536000; SameSite=None; Secure`;
    return document.cookie.length;
  }, domain);
}

/** A developer's build on its preview host (decision 097), found as the Studio lists it: the host of its private preview. */
async function previewHostOfNewBuild(request: APIRequestContext, port: number): Promise<string> {
  const developer = await newMember(request, uniqueUsername('dev'), 'Harbour-Lantern-Tricky-9');
  const database = await openRunDatabase();
  // The Studio answers only a member with a studio profile (decision 107).
  const now = new Date().toISOString();
  await database.db
    .insertInto('developer_profiles')
    .values({ user_id: developer.userInfo.uid, studio_name: 'Preview Cookies', contact_email: 'dev@preview.test', created_at: now, updated_at: now })
    .execute();
  const game = await insertDeveloperGame(database.db, developer.userInfo.uid);
  const build = await insertReviewedBuild(database.db, {
    appId: game.id,
    version: 1,
    status: 'rejected',
    uploadedBy: developer.userInfo.uid,
    reviewedBy: developer.userInfo.uid,
  });
  await database.close();
  const files = join(tmpdir(), `playport-e2e-builds-${process.env.E2E_RUN_ID}`, String(game.id), String(build.id));
  mkdirSync(files, { recursive: true });
  writeFileSync(join(files, 'index.html'), '<!doctype html><title>A preview</title><p>A preview');
  const listed = await call<{ builds: Array<{ id: number; previewUrl: string }> }>(request, 'GET', `/studio/games/${game.id}/builds`, {
    token: developer.token,
  });
  const label = new URL(listed.data.builds.find((item) => item.id === build.id)!.previewUrl).searchParams.get('preview');
  return `${label}.previews.localhost:${port}`;
}

test.describe('one game’s cookies never reach or break another game (decision 108)', () => {
  test('a game that plants eight 4 KB cookies for the games domain breaks no other game, which reads none of them', async ({ storagePage: page, baseURL }) => {
    // Several games load one after another, in a browser of its own for some.
    test.slow();
    const port = Number(new URL(baseURL!).port) + 1;
    // A game opened directly sets cookies for every game host (this profile allows third-party cookies, so framed games would get them too).
    await page.goto(`http://snake.games.localhost:${port}/index.html`);
    expect(await plantCookies(page, 'games.localhost')).toBeGreaterThan(32_000);
    // Another game still loads in the play page (Node would answer 431 to such headers) and reads no cookie.
    const served = page.waitForResponse((response) => response.url().startsWith(`http://2048.games.localhost:${port}/index.html`));
    await page.goto(`${baseURL}/play/2048`);
    expect((await served).status()).toBe(200);
    const other = await hostedGameFrame(page, '2048');
    expect(await other.evaluate(() => document.cookie.length)).toBe(0);
    expect((await page.context().cookies()).filter((cookie) => cookie.domain.includes('games.localhost'))).toEqual([]);

    // A framed game does the same: the next game framed reads none of them either.
    expect(await plantCookies(other, 'games.localhost')).toBeGreaterThan(32_000);
    await page.goto(`${baseURL}/play/snake`);
    expect(await (await hostedGameFrame(page, 'snake')).evaluate(() => document.cookie.length)).toBe(0);
  });

  test('where third-party cookies are blocked, a framed game’s partitioned cookies do not reach the next game either', async ({ page }) => {
    // Several games load one after another, in a browser of its own for some.
    test.slow();
    await page.goto('/play/snake');
    const snake = await hostedGameFrame(page, 'snake');
    // CHIPS: a partitioned cookie is allowed in a third-party frame, shared by every game framed by the portal.
    const planted = await snake.evaluate(() => {
      document.cookie = `planted=${'x'.repeat(4000)}; domain=games.localhost; path=/; SameSite=None; Secure; Partitioned`;
      return document.cookie.length;
    });
    expect(planted).toBeGreaterThan(4000);
    await page.goto('/play/2048');
    expect(await (await hostedGameFrame(page, '2048')).evaluate(() => document.cookie.length)).toBe(0);
  });

  test('a preview is on a site of its own: its cookies reach no published game, and previews clear each other’s @db', async ({
    storagePage: page,
    baseURL,
    request,
  }) => {
    // Several games load one after another, in a browser of its own for some.
    test.slow();
    const port = Number(new URL(baseURL!).port) + 1;
    const previewHost = await previewHostOfNewBuild(request, port);
    const opened = await page.goto(`http://${previewHost}/index.html`);
    expect(opened?.status()).toBe(200);
    // The browser refuses a cookie for the games domain from a preview: another site.
    expect(await plantCookies(page, 'games.localhost')).toBe(0);
    // For its own domain it is accepted; no published game receives it.
    expect(await plantCookies(page, 'previews.localhost')).toBeGreaterThan(32_000);
    await page.goto(`${baseURL}/play/2048`);
    expect(await (await hostedGameFrame(page, '2048')).evaluate(() => document.cookie.length)).toBe(0);
    // A request that reaches the server (not the browser's cache) clears them.
    const again = await page.goto(`http://${previewHost}/index.html?again`);
    expect(again?.status()).toBe(200);
    expect(await page.evaluate(() => document.cookie.length)).toBe(0);
  });
});
