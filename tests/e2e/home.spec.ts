import { expect, test } from './fixtures.ts';

const variants = [
  { path: '/', lang: 'en-US', title: 'Home | Playport', heading: 'All games', snake: 'Snake' },
  { path: '/en', lang: 'en-US', title: 'Home | Playport', heading: 'All games', snake: 'Snake' },
  { path: '/zh-CN', lang: 'zh-CN', title: '首页 | Playport', heading: '全部游戏', snake: '贪吃蛇' },
];

test.describe('home page', () => {
  for (const variant of variants) {
    test(`renders the catalogue from the database at ${variant.path} @mobile`, async ({ page }) => {
      const response = await page.goto(variant.path);
      expect(response?.status()).toBe(200);
      // Server-rendered: the list is in the HTML before any script runs.
      const html = await response!.text();
      expect(html).toContain('data-testid="app-grid"');
      expect(html).toContain(variant.snake);
      await expect(page).toHaveTitle(variant.title);
      await expect(page.locator('html')).toHaveAttribute('lang', variant.lang);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(variant.heading);
      const tiles = page.getByTestId('app-tile');
      expect(await tiles.count()).toBeGreaterThanOrEqual(12);
      const snake = tiles.filter({ hasText: variant.snake });
      const prefix = variant.path === '/' ? '' : variant.path;
      await expect(snake).toHaveAttribute('href', `${prefix}/app/snake`);
      await expect(snake.locator('img')).toHaveAttribute('src', '/games/snake/thumbnail.svg');
      // Every thumbnail loads.
      for (const img of await page.locator('[data-testid="app-tile"] img').all()) {
        await img.scrollIntoViewIfNeeded();
        await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0)).toBe(true);
      }
    });
  }
});
