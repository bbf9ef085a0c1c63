import { expect, test } from '../fixtures.ts';
import { apiData } from './helpers.ts';

interface Category {
  slug: string;
  title: string;
  count: number;
}

test.describe('browsing the catalogue', () => {
  test('home is server-rendered with featured, popular and new rows and category chips', async ({ page, request }) => {
    // A journey over several pages.
    test.slow();
    const response = await request.get('/');
    const html = await response.text();
    for (const part of ['data-testid="row-featured"', 'data-testid="row-popular"', 'data-testid="row-newest"', 'data-testid="category-chips"'])
      expect(html).toContain(part);

    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Play free games in your browser');
    for (const [row, title] of [
      ['featured', 'Featured'],
      ['popular', 'Popular'],
      ['newest', 'New'],
    ] as const) {
      await expect(page.getByTestId(`row-${row}`).getByRole('heading', { level: 2 })).toHaveText(title);
    }
    const popular = await apiData<{ items: Array<{ slug: string; title: string }> }>(request, '/app/list/?limit=6');
    await expect(page.getByTestId('row-popular').getByTestId('app-tile').first()).toContainText(popular.items[0]!.title);

    // Every image reserves its box; those below the fold load lazily.
    const images = page.locator('[data-testid="app-tile"] img');
    for (const img of await images.all()) {
      await expect(img).toHaveAttribute('width', /\d+/);
      await expect(img).toHaveAttribute('height', /\d+/);
    }
    await expect(page.getByTestId('row-newest').locator('img').first()).toHaveAttribute('loading', 'lazy');
    await expect(page.getByTestId('row-featured').locator('img').first()).toHaveAttribute('loading', 'eager');

    // Every chip's icon is drawn from the sprite (a missing symbol or a refused file draws nothing).
    const icons = page.getByTestId('category-chips').locator('svg use');
    expect(await icons.count()).toBeGreaterThan(2);
    await expect
      .poll(() => icons.evaluateAll((uses) => uses.map((use) => (use as SVGUseElement).getBBox()).filter((box) => box.width >= 8 && box.height >= 8).length))
      .toBe(await icons.count());

    // The chips lead to the categories.
    const categories = await apiData<{ items: Category[] }>(request, '/app/category/');
    const first = categories.items.find((c) => c.count > 0)!;
    await page.getByTestId('category-chips').getByRole('link', { name: first.title }).click();
    await expect(page).toHaveURL(`/categories/${first.slug}`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(first.title);
  });

  test('a category lists its apps, server-rendered, in each order', async ({ page, request }) => {
    const categories = await apiData<{ items: Category[] }>(request, '/app/category/', 'zh-CN');
    const category = categories.items.find((c) => c.count > 1)!;
    const expected = await apiData<{ items: Array<{ title: string }> }>(request, `/app/list/?category=${category.slug}&sort=name&limit=12`, 'zh-CN');

    const response = await page.goto(`/zh-CN/categories/${category.slug}?sort=name`);
    expect(response?.status()).toBe(200);
    expect(await response!.text()).toContain(expected.items[0]!.title);
    await expect(page).toHaveTitle(`${category.title} | Playport`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(category.title);
    await expect(page.getByTestId('app-grid').getByTestId('app-tile')).toHaveText(expected.items.map((i) => i.title));
    await expect(page.getByTestId('sort-tabs').getByRole('link', { name: '按名称' })).toHaveAttribute('aria-current', 'true');

    await page.getByTestId('sort-tabs').getByRole('link', { name: '最新' }).click();
    await expect(page).toHaveURL(`/zh-CN/categories/${category.slug}?sort=newest`);
    const newest = await apiData<{ items: Array<{ title: string }> }>(request, `/app/list/?category=${category.slug}&sort=newest&limit=12`, 'zh-CN');
    await expect(page.getByTestId('app-grid').getByTestId('app-tile')).toHaveText(newest.items.map((i) => i.title));
  });

  test('all categories: the list, then more apps with "Load more", and plain pages without scripts', async ({ page, request, browser, baseURL }) => {
    // A journey over several pages.
    test.slow();
    const all = await apiData<{ items: Array<{ slug: string }> }>(request, '/app/list/?limit=60');
    expect(all.items.length).toBeGreaterThan(12);
    await page.goto('/categories');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Categories');
    await expect(page.getByTestId('category-list').getByRole('link').first()).toBeVisible();
    const tiles = page.getByTestId('app-grid').getByTestId('app-tile');
    await expect(tiles).toHaveCount(12);
    const loadMore = page.getByTestId('load-more');
    await loadMore.click();
    await expect(tiles).toHaveCount(Math.min(24, all.items.length));
    const hrefs = await tiles.evaluateAll((links) => links.map((a) => a.getAttribute('href')));
    expect(hrefs).toEqual(all.items.slice(0, 24).map((i) => `/app/${i.slug}`));
    await expect(page).toHaveURL('/categories');

    // Without scripts, "Load more" is a link to the next page, rendered by the server.
    const noScript = await browser.newContext({ javaScriptEnabled: false, baseURL });
    const plain = await noScript.newPage();
    await plain.goto('/categories');
    await plain.getByTestId('load-more').click();
    await expect(plain).toHaveURL(/\/categories\?cursor=/);
    await expect(plain.getByTestId('app-tile').first()).toHaveAttribute('href', `/app/${all.items[12]!.slug}`);
    await noScript.close();
  });

  test('an app page links its tags to a tag listing', async ({ page, request }) => {
    const app = await apiData<{ tags: Array<{ slug: string; title: string }>; title: string }>(request, '/app/info/?slug=2048');
    const tag = app.tags[0]!;
    const tagged = await apiData<{ items: Array<{ slug: string }> }>(request, `/app/list/?tag=${tag.slug}&limit=12`);
    await page.goto('/app/2048');
    await page
      .getByTestId('app-tags')
      .getByRole('link', { name: `#${tag.title}` })
      .click();
    await expect(page).toHaveURL(`/search?tag=${tag.slug}`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Tagged “${tag.title}”`);
    const hrefs = await page
      .getByTestId('app-grid')
      .getByTestId('app-tile')
      .evaluateAll((links) => links.map((a) => a.getAttribute('href')));
    expect(hrefs).toEqual(tagged.items.map((i) => `/app/${i.slug}`));
    expect(hrefs).toContain('/app/2048');
  });

  test('bad and unknown slugs are 404s with the two messages', async ({ page, request, problems }) => {
    for (const [path, message] of [
      ['/app/bad.slug', 'Page Not Found: /app/bad.slug'],
      ['/play/bad.slug', 'Page Not Found: /play/bad.slug'],
      ['/categories/bad.slug', 'Page Not Found: /categories/bad.slug'],
      ['/app/no-such-game', 'Page not found: /app/no-such-game'],
      ['/play/no-such-game', 'Page not found: /play/no-such-game'],
      ['/categories/no-such-category', 'Page not found: /categories/no-such-category'],
      ['/zh-CN/categories/no-such-category', '页面不存在：/zh-CN/categories/no-such-category'],
      ['/search?tag=no-such-tag', 'Page not found: /search'],
    ] as const) {
      const response = await request.get(path);
      expect(response.status(), path).toBe(404);
      expect(await response.text(), path).toContain(message);
    }
    // And in the browser, with the way home.
    problems.allow('status of 404');
    await page.goto('/play/no-such-game');
    await expect(page.getByTestId('not-found-message')).toHaveText('Page not found: /play/no-such-game');
  });

  test('on a phone, home rows scroll sideways and a category shows two tiles a row @mobile', async ({ page, isMobile }) => {
    test.skip(!isMobile, 'a phone layout');
    await page.goto('/');
    const row = page.getByTestId('row-popular').getByRole('list');
    expect(await row.evaluate((el) => el.scrollWidth > el.clientWidth && getComputedStyle(el).overflowX === 'auto')).toBe(true);
    await page.goto('/categories');
    const tops = await page
      .getByTestId('app-grid')
      .locator('li')
      .evaluateAll((items) => items.slice(0, 3).map((li) => Math.round(li.getBoundingClientRect().top)));
    expect(tops[0]).toBe(tops[1]);
    expect(tops[2]).toBeGreaterThan(tops[0]!);
  });
});
