import { readdirSync } from 'node:fs';
import { expect, hostedGameFrame, test } from '../fixtures.ts';
import { newGuest } from '../../support/accounts.ts';
import { recordTracking, useSession } from '../browser-session.ts';
import { apiData } from './helpers.ts';
import { settledUser } from '../accounts/helpers.ts';

/**
 * A fresh browser's first game waits for its guest account, whose proof of work takes a random
 * time (seconds on a busy two-core runner with two browsers): more than the default 7 s expect.
 */
const FIRST_GAME_MS = 20_000;

test.describe('app page and play', { tag: '@db' }, () => {
  test('the app page has details, similar games, structured data and Open Graph tags', async ({ page, request, baseURL }) => {
    const app = await apiData<{
      title: string;
      summary: string;
      categories: Array<{ title: string }>;
      tags: Array<{ title: string }>;
      similar: Array<{ title: string }>;
    }>(request, '/app/info/?slug=2048');
    const response = await page.goto('/app/2048');
    expect(response?.status()).toBe(200);
    await expect(page).toHaveTitle('2048 | Playport');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(app.title);
    await expect(page.getByTestId('app-page')).toContainText(app.summary);
    await expect(page.getByTestId('app-tags').getByRole('link')).toHaveText(app.tags.map((t) => `#${t.title}`));
    await expect(page.getByTestId('row-similar').getByTestId('app-tile')).toHaveCount(app.similar.length);
    expect(app.similar.length).toBeGreaterThan(0);
    await expect(page.getByTestId('play-button')).toHaveAttribute('href', '/play/2048');

    const data = JSON.parse((await page.locator('script[type="application/ld+json"]').textContent()) ?? 'null');
    expect(data).toMatchObject({
      '@context': 'https://schema.org',
      '@type': 'VideoGame',
      name: '2048',
      url: `${baseURL}/app/2048`,
      gamePlatform: 'Web browser',
      genre: app.categories.map((c) => c.title),
      offers: { price: '0' },
    });
    expect(data.image).toMatch(new RegExp(`^${baseURL}/`));
    const og = async (property: string) => page.locator(`meta[property="${property}"]`).getAttribute('content');
    expect(await og('og:title')).toBe('2048');
    expect(await og('og:description')).toBe(app.summary);
    expect(await og('og:url')).toBe(`${baseURL}/app/2048`);
    expect(await og('og:image')).toBe(data.image);
    expect(await page.locator('meta[name="description"]').getAttribute('content')).toBe(app.summary);

    // An app (not a game) is a SoftwareApplication.
    await page.goto('/app/calculator');
    const calculator = JSON.parse((await page.locator('script[type="application/ld+json"]').textContent()) ?? 'null');
    expect(calculator['@type']).toBe('SoftwareApplication');
  });

  test('play 2048: sandboxed frame, loaded event, keys reach the game, then it is under recently played', async ({ page, context, request, baseURL }) => {
    // A journey over several pages.
    test.slow();
    const token = (await newGuest(request)).token;
    await useSession(context, baseURL!, token);
    const tracked = await recordTracking(page);

    await page.goto('/app/2048');
    await page.getByTestId('play-button').click();
    await expect(page).toHaveURL('/play/2048');
    await expect(page).toHaveTitle('Play 2048 | Playport');
    const frame = page.getByTestId('game-frame');
    // On its own host below the games origin, keeping that origin (decision 089).
    await expect(frame).toHaveAttribute('sandbox', 'allow-scripts allow-same-origin allow-pointer-lock allow-storage-access-by-user-activation');
    await expect(frame).toHaveAttribute('src', `http://2048.games.localhost:${Number(new URL(page.url()).port) + 1}/index.html?locale=en`);
    await expect.poll(tracked, { timeout: FIRST_GAME_MS }).toContainEqual({ event: 'game-loaded', data: { name: '2048' } });
    await expect(page.getByTestId('game-loading')).toBeHidden({ timeout: FIRST_GAME_MS });
    // The frame fills the space under the bar.
    const box = (await frame.boundingBox())!;
    expect(box.width).toBe(page.viewportSize()!.width);
    expect(box.y + box.height).toBeCloseTo(page.viewportSize()!.height, 0);

    const game = page.frameLocator('[data-testid="game-frame"]');
    await expect(game.locator('body')).toHaveAttribute('data-state', /ready|playing/);
    for (const key of ['ArrowLeft', 'ArrowUp', 'ArrowRight', 'ArrowDown', 'ArrowLeft', 'ArrowUp']) await page.keyboard.press(key);
    await expect.poll(async () => Number(await game.locator('body').getAttribute('data-moves'))).toBeGreaterThan(0);
    await expect(game.locator('body')).toHaveAttribute('data-state', 'playing');

    // The play was recorded for this account.
    await expect
      .poll(async () => {
        const response = await request.get('/serve/api/member/played/', { headers: { authorization: `Bearer ${token}` } });
        return (await response.json()).data.items.map((i: { slug: string }) => i.slug);
      })
      .toEqual(['2048']);

    await page.getByTestId('play-back').click();
    await expect(page).toHaveURL('/app/2048');
    // These lists load in the browser after hydration: slow on a busy machine.
    const loaded = { timeout: 15_000 };
    await page.goto('/');
    await expect(page.getByTestId('row-recently-played').getByTestId('app-tile')).toHaveAttribute('href', '/app/2048', loaded);
    await page.goto('/user');
    await expect(page.getByTestId('library-recently-played').getByTestId('app-tile')).toHaveAttribute('href', '/app/2048', loaded);
  });

  test('a first visit straight to a play page gets its guest and the game without loading the crawler list, the toasts or the route manifest', async ({
    page,
    request,
  }) => {
    test.slow();
    // The play page's start is the player's wait (decision 105): what the page does not need stays unloaded.
    const requested: string[] = [];
    page.on('request', (sent) => requested.push(new URL(sent.url()).pathname));
    await page.goto('/play/2048');
    await expect(page.locator('html')).not.toHaveAttribute('data-crawler');
    await expect(page.getByTestId('game-loading')).toBeHidden({ timeout: FIRST_GAME_MS });
    const guest = await settledUser(page, request);
    expect(guest.userInfo.isGuest).toBe(true);
    await page.waitForLoadState('networkidle');
    expect(requested.filter((path) => /\/assets\/(isbot|toaster)-/.test(path) || path === '/__manifest')).toEqual([]);
    // The back link's route is discovered when it is followed: still a client navigation to the app page.
    await page.getByTestId('play-back').click();
    await expect(page).toHaveURL('/app/2048');
    await expect(page.getByTestId('play-button')).toBeVisible();
    expect(requested).toContain('/__manifest');
    expect(requested.filter((path) => path === '/app/2048')).toEqual([]);
  });

  test('favourites: marked on the app page, found in my area, removed again', async ({ page, context, request, baseURL }) => {
    // A journey over several pages.
    test.slow();
    const token = (await newGuest(request)).token;
    await useSession(context, baseURL!, token);
    await page.goto('/app/snake');
    const heart = page.getByTestId('favourite-button');
    await expect(heart).toBeEnabled();
    await expect(heart).toHaveAttribute('aria-pressed', 'false');
    await heart.click();
    await expect(heart).toHaveAttribute('aria-pressed', 'true');
    await expect(heart).toHaveAccessibleName('Remove from favourites');
    // Saved once the server answered: the button is usable again and a toast says so.
    await expect(page.getByTestId('toast').getByText('Added to your favourites')).toBeVisible();
    await expect(heart).toBeEnabled();
    await page.goto('/user');
    await expect(page.getByTestId('library-favourites').getByTestId('app-tile')).toHaveAttribute('href', '/app/snake', { timeout: 15_000 });
    await page.goto('/app/snake');
    await expect(page.getByTestId('favourite-button')).toHaveAttribute('aria-pressed', 'true');
    await page.getByTestId('favourite-button').click();
    await expect(page.getByTestId('favourite-button')).toHaveAttribute('aria-pressed', 'false');
    await expect(page.getByTestId('toast').getByText('Removed from your favourites')).toBeVisible();
    await page.goto('/user');
    await expect(page.getByTestId('library-favourites')).toContainText('Mark a game with the heart', { timeout: 15_000 });
  });

  test('on a phone the play page fills the screen and hints at the orientation @mobile', async ({ page, request, isMobile, baseURL }) => {
    test.skip(!isMobile, 'a phone layout');
    test.slow();
    await useSession(page.context(), baseURL!, (await newGuest(request)).token);
    const games = await apiData<{ items: Array<{ slug: string; orientation: string }> }>(request, '/app/list/?limit=60');
    await page.goto('/play/2048');
    const frame = page.getByTestId('game-frame');
    await expect(page.getByTestId('game-loading')).toBeHidden({ timeout: FIRST_GAME_MS });
    const box = (await frame.boundingBox())!;
    expect(box.width).toBe(page.viewportSize()!.width);
    // A landscape game held upright shows the hint, which can be dismissed.
    const landscape = games.items.find((g) => g.orientation === 'landscape');
    test.skip(!landscape, 'the demo catalogue has no landscape-only game');
    await page.goto(`/play/${landscape!.slug}`);
    const hint = page.getByTestId('orientation-hint');
    await expect(hint).toContainText('Turn your device sideways');
    await hint.getByRole('button', { name: 'Dismiss' }).click();
    await expect(hint).toBeHidden();
  });
});

// Reads the catalogue only: on SQLite alone (decision 056). One test per game, so the two
// workers share them and a slow game names itself.
const DEMO_GAMES = readdirSync('games', { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && entry.name !== 'shared')
  .map((entry) => entry.name)
  .sort();

test.describe('demo games', () => {
  test('the catalogue lists every demo game', async ({ request }) => {
    const apps = await apiData<{ items: Array<{ slug: string }> }>(request, '/app/list/?limit=48');
    expect(DEMO_GAMES.length).toBeGreaterThanOrEqual(14);
    expect(apps.items.map((app) => app.slug)).toEqual(expect.arrayContaining(DEMO_GAMES));
  });

  for (const [index, slug] of DEMO_GAMES.entries()) {
    const locale = index % 2 === 0 ? 'en' : 'zh-CN';
    test(`${slug} starts in its frame through the shared game shell (${locale}): its language, its title, the loaded message, no layout shift`, async ({
      page,
      request,
      baseURL,
    }) => {
      // A new browser, a guest made over the API and a game's first load: seconds each on a busy runner.
      test.slow();
      // A returning guest: the game is the subject here, not the first visit's account.
      await useSession(page.context(), baseURL!, (await newGuest(request)).token);
      const tracked = await recordTracking(page);
      // Layout shifts in every frame, the game's included (Lighthouse counts them too).
      await page.context().addInitScript(() => {
        const shifts: number[] = ((window as unknown as { layoutShifts: number[] }).layoutShifts = []);
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries() as Array<PerformanceEntry & { value: number; hadRecentInput: boolean }>)
            if (!entry.hadRecentInput) shifts.push(entry.value);
        }).observe({ type: 'layout-shift', buffered: true });
      });
      await page.goto(locale === 'en' ? `/play/${slug}` : `/zh-CN/play/${slug}`);
      await expect.poll(tracked, { timeout: FIRST_GAME_MS }).toContainEqual({ event: 'game-loaded', data: { name: slug } });
      await expect(page.getByTestId('game-loading')).toBeHidden({ timeout: FIRST_GAME_MS });
      const game = page.frameLocator('[data-testid="game-frame"]');
      await expect(game.locator('html')).toHaveAttribute('lang', locale);
      await expect(game.locator('h1, [data-t="title"]').first()).not.toBeEmpty();
      const gameFrame = await hostedGameFrame(page, slug);
      let shifted = 0;
      for (const frame of [page.mainFrame(), gameFrame!])
        shifted += await frame.evaluate(() => ((window as unknown as { layoutShifts?: number[] }).layoutShifts ?? []).reduce((sum, value) => sum + value, 0));
      expect(shifted, 'layout shift while loading').toBeLessThan(0.05);
    });
  }
});
