import { expect, test } from './fixtures.ts';

const variants = [
  { path: '/', lang: 'en-US', title: 'Home | Playport', heading: 'Play free games in your browser', snake: 'Snake' },
  { path: '/en', lang: 'en-US', title: 'Home | Playport', heading: 'Play free games in your browser', snake: 'Snake' },
  { path: '/zh-CN', lang: 'zh-CN', title: '首页 | Playport', heading: '在浏览器里畅玩免费游戏', snake: '贪吃蛇' },
];

test.describe('home page', () => {
  for (const variant of variants) {
    test(`renders the catalogue from the database at ${variant.path} @mobile`, async ({ page }) => {
      const response = await page.goto(variant.path);
      expect(response?.status()).toBe(200);
      // Server-rendered: the list is in the HTML before any script runs.
      const html = await response!.text();
      expect(html).toContain('data-testid="row-popular"');
      expect(html).toContain(variant.snake);
      await expect(page).toHaveTitle(variant.title);
      await expect(page.locator('html')).toHaveAttribute('lang', variant.lang);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(variant.heading);
      const tiles = page.getByTestId('app-tile');
      expect(await tiles.count()).toBeGreaterThanOrEqual(12);
      // A game shows in several rows; the first is enough.
      const snake = tiles.filter({ hasText: variant.snake }).first();
      // English links are unprefixed from / and /en alike: one canonical address per page.
      const prefix = variant.lang === 'zh-CN' ? '/zh-CN' : '';
      await expect(snake).toHaveAttribute('href', `${prefix}/app/snake`);
      // The SVG thumbnail is shown drawn as WebP (decision 034): no SVG document per tile.
      await expect(snake.locator('img')).toHaveAttribute('src', /^\/_img\/w_\d+,q_85,f_webp\/games\/snake\/thumbnail\.svg$/);
      // Every thumbnail on show loads (wide screens leave the end of each row to "See all").
      for (const img of await page.locator('[data-testid="app-tile"] img:visible').all()) {
        await img.scrollIntoViewIfNeeded();
        await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0)).toBe(true);
      }
    });
  }
});
