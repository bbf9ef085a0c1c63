import type { Page } from '@playwright/test';
import { expect, test } from '../fixtures.ts';
import { newGuest, newMember, uniqueUsername } from '../../support/accounts.ts';
import { browserToken, useSession } from '../browser-session.ts';
import { settledUser } from '../accounts/helpers.ts';
import { hydrated } from '../shell/helpers.ts';

// The service worker is the subject here; the other journeys run without it (playwright.config.ts).
test.use({ serviceWorkers: 'allow' });

/** Waits until the portal's worker is active and controls the page. */
async function controlledByWorker(page: Page): Promise<string> {
  return page.evaluate(async () => {
    const registration = await navigator.serviceWorker.ready;
    if (!navigator.serviceWorker.controller) await new Promise((done) => navigator.serviceWorker.addEventListener('controllerchange', done, { once: true }));
    return registration.active!.scriptURL;
  });
}

test.describe('the installable app offline', () => {
  test('a page never visited shows the offline page in the visitor’s language', async ({ page, context, problems }) => {
    // Offline, the browser reports the failed fetches the worker answers for.
    problems.allow('ERR_INTERNET_DISCONNECTED');
    problems.allow('Failed to fetch');
    await page.goto('/zh-CN');
    await hydrated(page);
    expect(await controlledByWorker(page)).toMatch(/\/sw\.js$/);

    await context.setOffline(true);
    await page.goto('/zh-CN/news');
    await expect(page.getByTestId('offline-page')).toBeVisible();
    await expect(page).toHaveTitle('你已离线 | Playport');
    await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');
    // The page names My area as the way to the games played before, and links to it (decision 117).
    await expect(page.getByRole('link', { name: '打开“我的”' })).toHaveAttribute('href', '/zh-CN/user');
    await expect(page.getByRole('link', { name: '重试' })).toHaveAttribute('href', '/zh-CN');

    await page.goto('/category/puzzle');
    await expect(page).toHaveTitle('You are offline | Playport');
    await expect(page.getByRole('link', { name: 'Open My area' })).toHaveAttribute('href', '/user');
    await expect(page.getByRole('link', { name: 'Try again' })).toHaveAttribute('href', '/');
    await context.setOffline(false);
  });

  test('a game played before plays again offline, its play page and its files from the device', async ({ page, context, problems }) => {
    test.slow();
    problems.allow('ERR_INTERNET_DISCONNECTED');
    problems.allow('Failed to fetch');
    await page.goto('/');
    await hydrated(page);
    await controlledByWorker(page);

    // Played once while online, with the worker in control.
    await page.goto('/play/2048');
    const game = page.frameLocator('[data-testid="game-frame"]');
    await expect(game.locator('body')).toHaveAttribute('data-state', /ready|playing/, { timeout: 20_000 });
    // Its files are kept on the device once it is up.
    await expect
      .poll(() => page.evaluate(async () => Boolean(await caches.match('/games/shared/game-shell.js')) && Boolean(await caches.match('/sdk/v1/playport.js'))), {
        timeout: 20_000,
      })
      .toBe(true);
    // And My area's list of recent games is kept after them (decision 117), once the play is recorded.
    await expect
      .poll(
        () =>
          page.evaluate(async () => {
            for (const request of await (await caches.open('library')).keys())
              if (new URL(request.url).pathname === '/serve/api/member/played/') return JSON.stringify(await (await caches.match(request))!.json());
            return '';
          }),
        { timeout: 20_000 },
      )
      .toContain('2048');

    // The home page asks for the recent games once it is up; going offline before that answer
    // would cut the request short.
    await page.goto('/zh-CN');
    await expect(page.getByTestId('row-recently-played').getByTestId('app-tile').first()).toHaveAttribute('href', '/zh-CN/app/2048');
    await context.setOffline(true);
    await page.goto('/play/2048');
    await expect(page).toHaveTitle('Play 2048 | Playport');
    await expect(page.getByTestId('game-frame')).toBeVisible();
    await expect(game.locator('body')).toHaveAttribute('data-state', /ready|playing/);
    for (const key of ['ArrowLeft', 'ArrowUp', 'ArrowRight', 'ArrowDown']) await page.keyboard.press(key);
    await expect.poll(async () => Number(await game.locator('body').getAttribute('data-moves'))).toBeGreaterThan(0);
    // Rebuilt from the device's copy, still sandboxed, in the visitor's language.
    await expect(page.getByTestId('game-frame')).toHaveAttribute('sandbox', 'allow-scripts allow-pointer-lock');
    await expect(page.getByTestId('game-frame')).toHaveAttribute('srcdoc', /<base href="http:\/\/localhost:\d+\/games\/2048\/index\.html\?locale=en">/);
    await expect(game.locator('html')).toHaveAttribute('lang', 'en');

    // A page never visited: the offline page's link to My area leads to a copy kept when the game
    // was played, which lists it, although My area was never opened on this device (decision 117).
    await page.goto('/news');
    await expect(page.getByTestId('offline-page')).toBeVisible();
    await page.getByRole('link', { name: 'Open My area' }).click();
    await expect(page).toHaveURL('/user');
    await expect(page.getByTestId('offline-notice')).toBeVisible();
    await expect(page.getByTestId('library-recently-played').getByRole('link', { name: /2048/ })).toBeVisible();
    await expect(page.getByText('Your games could not be loaded.')).toHaveCount(0);
    await context.setOffline(false);
  });

  test('a link with a session token reaches the server with the worker in control: the token leaves the address, is only offered, and is never kept', async ({
    page,
    context,
    request,
    problems,
  }) => {
    test.slow();
    // A link followed while the router still loads the page's data: the full navigation cancels that request.
    problems.allow(/\.data\?_routes=\S* net::ERR_FAILED/);
    problems.allow('ERR_INTERNET_DISCONNECTED');
    problems.allow('Failed to fetch');
    // A returning visitor: the worker controls the page and holds a copy of /user.
    await page.goto('/');
    await hydrated(page);
    await controlledByWorker(page);
    await settledUser(page, request);
    await page.goto('/user');
    await hydrated(page);
    await expect.poll(() => page.evaluate(async () => (await (await caches.open('pages')).keys()).map((r) => new URL(r.url).pathname))).toContain('/user');

    // A guest's token replaces a guest that holds nothing, as the server's offer does without the worker.
    const linked = await newGuest(request);
    await page.goto(`/user?token=${encodeURIComponent(linked.token)}`);
    await expect(page).toHaveURL('/user');
    await expect.poll(() => browserToken(context)).toBe(linked.token);

    // A member's token is only offered: the visitor is asked, and staying keeps the session.
    const member = await newMember(request, uniqueUsername('swlink'), 'Harbour-Lantern-Tricky-9');
    await page.goto(`/about?token=${encodeURIComponent(member.token)}`);
    await expect(page).toHaveURL('/about');
    const dialog = page.getByRole('alertdialog', { name: `Continue as ${member.userInfo.nickname}?` });
    await dialog.getByRole('button', { name: 'Stay as I am' }).click();
    await expect(dialog).toBeHidden();
    expect(await browserToken(context)).toBe(linked.token);

    // Offline the token cannot be checked: it is dropped, from the address too.
    await context.setOffline(true);
    await page.goto(`/user?token=${encodeURIComponent(member.token)}`);
    await expect(page).toHaveURL('/user');
    expect(await browserToken(context)).toBe(linked.token);
    await context.setOffline(false);

    // No copy is kept under an address that holds a token.
    const kept = await page.evaluate(async () => {
      const urls: string[] = [];
      for (const name of await caches.keys()) for (const entry of await (await caches.open(name)).keys()) urls.push(entry.url);
      return urls;
    });
    expect(kept.filter((url) => url.includes('token='))).toEqual([]);
  });

  test('the home page opened offline names the visitor and says it is offline', async ({ page, context, request, baseURL, problems }) => {
    test.slow();
    problems.allow('ERR_INTERNET_DISCONNECTED');
    problems.allow('Failed to fetch');
    // A page's payload prefetch under way when the network goes fails (the worker has no copy of it).
    problems.allow(/\.data\?_routes=\S+ net::ERR_FAILED/);
    // So does the home page's recently played row when the worker kept no copy of it (decision 117).
    problems.allow(/\/serve\/api\/member\/played\/\S* net::ERR_FAILED/);
    problems.allow(/net::ERR_FAILED @ \S+\/serve\/api\/member\/played\//);
    const member = await newMember(request, `offh${Date.now().toString(36)}`, 'Harbour-Lantern-Tricky-9');
    await useSession(context, baseURL!, member.token);
    await page.goto('/zh-CN');
    await hydrated(page);
    await controlledByWorker(page);
    await expect(page.getByTestId('header-user-name')).toHaveText(member.userInfo.nickname!);
    await expect(page.getByTestId('offline-notice')).toHaveCount(0);
    // Once more under the worker, so the page is kept for offline use.
    await page.reload();
    await hydrated(page);

    await context.setOffline(true);
    await page.goto('/zh-CN');
    await hydrated(page);
    await expect(page.getByTestId('offline-notice')).toHaveText(/你已离线/);
    await expect(page.getByTestId('header-user-name')).toHaveText(member.userInfo.nickname!);
    await context.setOffline(false);
  });

  test('signing out forgets the pages kept for offline use (they show the member), not the games', async ({ page, context, request, baseURL }) => {
    test.slow();
    const member = await newMember(request, `off${Date.now().toString(36)}`, 'Harbour-Lantern-Tricky-9');
    await useSession(context, baseURL!, member.token);
    await page.goto('/');
    await hydrated(page);
    await controlledByWorker(page);
    await page.goto('/play/2048');
    // The game's files are kept once it is up; a fresh browser's first game waits for its guest's proof of work.
    await expect.poll(() => page.evaluate(async () => Boolean(await caches.match('/games/shared/game-shell.js'))), { timeout: 20_000 }).toBe(true);
    await page.goto('/user/profile');
    await hydrated(page);
    await expect
      .poll(() => page.evaluate(async () => (await (await caches.open('pages')).keys()).map((r) => new URL(r.url).pathname)))
      .toContain('/user/profile');

    // My area's game lists were kept with the game (decision 117): personal, they go too.
    await expect.poll(() => page.evaluate(() => caches.has('library'))).toBe(true);

    await page.locator('main').getByRole('button', { name: 'Sign out' }).click();
    await expect.poll(() => page.evaluate(() => caches.has('pages'))).toBe(false);
    expect(await page.evaluate(() => caches.has('library'))).toBe(false);
    expect(await page.evaluate(async () => Boolean(await caches.match('/games/shared/game-shell.js')))).toBe(true);
  });

  test('when the build polling sees a new build, the worker is asked for its update; the next navigation is a full load', async ({ page }) => {
    // The browser fetches the worker's script itself (not through the page's network), so the
    // page's request for it is what is observed: the new worker then takes over (skipWaiting, clients.claim).
    await page.addInitScript(() => {
      const update = ServiceWorkerRegistration.prototype.update;
      (window as unknown as { __updates: number }).__updates = 0;
      ServiceWorkerRegistration.prototype.update = function (this: ServiceWorkerRegistration) {
        (window as unknown as { __updates: number }).__updates++;
        return update.call(this);
      };
    });
    await page.clock.install();
    await page.goto('/about');
    await hydrated(page);
    await controlledByWorker(page);
    await page.evaluate(() => ((window as unknown as { __marker: boolean }).__marker = true));
    expect(await page.evaluate(() => (window as unknown as { __updates: number }).__updates)).toBe(0);
    await page.route('**/builds/latest.json*', (route) => route.fulfill({ json: { id: 'a-newer-build' } }));
    await expect
      .poll(async () => {
        await page.clock.runFor(60 * 60 * 1000 + 1000);
        return page.evaluate(() => (window as unknown as { __updates: number }).__updates);
      })
      .toBe(1);
    await page.locator('footer a[href="/terms"]').click();
    await expect(page).toHaveURL('/terms');
    await expect.poll(() => page.evaluate(() => (window as unknown as { __marker?: boolean }).__marker ?? false).catch(() => 'reloading')).toBe(false);
    expect(await page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
  });

  test('the worker and its offline pages are revalidated on every use', async ({ request }) => {
    const worker = await request.get('/sw.js');
    expect(worker.status()).toBe(200);
    expect(worker.headers()['cache-control']).toBe('no-cache');
    const precached = [...(await worker.text()).matchAll(/"url":"([^"]+\.html)"/g)].map((match) => match[1]);
    expect(precached.sort()).toEqual(['offline/en.html', 'offline/zh-CN.html']);
    expect((await request.get('/offline/en.html')).headers()['cache-control']).toBe('no-cache');
  });

  test('the precache holds what every visitor uses, not the Studio and Console pages or their charts', async ({ request }) => {
    const worker = await (await request.get('/sw.js')).text();
    const scripts = [...worker.matchAll(/"url":"assets\/([^"]+\.js)"/g)].map((match) => match[1]!);
    expect(scripts.some((name) => name.startsWith('home-'))).toBe(true);
    expect(scripts.some((name) => name.startsWith('play-'))).toBe(true);
    expect(scripts.filter((name) => /^(studio|console)/.test(name))).toEqual([]);
    // The charting library, loaded on demand by the statistics and acquisition pages only.
    expect(worker).not.toContain('recharts');
    expect(scripts.filter((name) => /^(BarChart|LineChart|studio-stats-charts)/.test(name))).toEqual([]);
  });
});
