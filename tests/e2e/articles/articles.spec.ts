import type { Page } from '@playwright/test';
import { expect, test } from '../fixtures.ts';

/** The news column (with its sub-columns esports and releases), newest first, as the demo content has it. */
const NEWS_NEWEST_FIRST = [1004, 1007, 1010, 1009, 1006, 1003, 1005, 1008, 1002, 1001];

async function cardIds(page: Page): Promise<number[]> {
  return await page.getByTestId('article-card').evaluateAll((cards) => cards.map((c) => Number(c.getAttribute('data-id'))));
}

async function headLinks(page: Page, selector: string, attribute = 'href'): Promise<string[]> {
  return page.locator(selector).evaluateAll((links, name) => links.map((l) => l.getAttribute(name) ?? ''), attribute);
}

/** Resolves once React has hydrated the element (it then carries React's props), so clicks reach its handlers. */
async function hydrated(page: Page, testId: string): Promise<void> {
  await page.waitForFunction((id) => {
    const element = document.querySelector(`[data-testid="${id}"]`);
    return element !== null && Object.keys(element).some((key) => key.startsWith('__reactProps'));
  }, testId);
}

async function structuredData(page: Page): Promise<Record<string, any>> {
  const text = await page.locator('script[type="application/ld+json"]').textContent();
  return JSON.parse(text ?? 'null');
}

test.describe('articles', () => {
  test('the news column is server-rendered, then loads more articles through the API @mobile', async ({ page, baseURL }) => {
    const response = await page.goto('/article/news');
    expect(response?.status()).toBe(200);
    const html = await response!.text();
    expect(html).toContain('data-testid="article-list"');
    expect(html).toContain('Community spotlight: seven weeks of Sketchpad');
    await expect(page).toHaveTitle('News | Playport');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('News');
    await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', `${baseURL}/article/news`);
    await expect(page.locator('link[type="application/atom+xml"]')).toHaveAttribute('href', `${baseURL}/feeds/news.en.xml`);

    expect(await cardIds(page)).toEqual(NEWS_NEWEST_FIRST.slice(0, 6));
    const first = page.getByTestId('article-card').first();
    await expect(first.getByTestId('article-link')).toHaveAttribute('href', '/article/news/1004');
    await expect(first).toContainText('1 min read');
    // Covers reserve their space and load.
    const cover = first.locator('img');
    await expect(cover).toHaveAttribute('width', '1200');
    await expect.poll(() => cover.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);

    await hydrated(page, 'load-more');
    const more = page.getByTestId('load-more');
    await expect(more).toHaveAttribute('href', /^\/article\/news\?cursor=/);
    const call = page.waitForResponse((r) => r.url().includes('/serve/api/article/list/news?') && r.status() === 200);
    await more.click();
    expect(new URL((await call).url()).searchParams.get('locale')).toBe('en');
    await expect(page.getByTestId('article-card')).toHaveCount(10);
    expect(await cardIds(page)).toEqual(NEWS_NEWEST_FIRST);
    await expect(more).toHaveCount(0);
    // Focus moves to the first article that arrived, for keyboard users.
    await expect(page.locator('[data-id="1005"] [data-testid="article-link"]')).toBeFocused();
    expect(page.url()).toBe(`${baseURL}/article/news`);
  });

  test('without scripts, "load more" is a link to the next page', async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto('/zh-CN/article/news');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('新闻');
    await page.getByTestId('load-more').click();
    await expect(page).toHaveURL(/\/zh-CN\/article\/news\?cursor=/);
    expect(await cardIds(page)).toEqual(NEWS_NEWEST_FIRST.slice(6));
    await expect(page.getByTestId('load-more')).toHaveCount(0);
    await context.close();
  });

  test('sub-columns are tabs of their column', async ({ page }) => {
    await page.goto('/article/news');
    const tabs = page.getByRole('navigation', { name: 'Sections' });
    await expect(tabs.getByRole('link', { name: 'All' })).toHaveAttribute('aria-current', 'page');
    await tabs.getByRole('link', { name: 'Esports' }).click();
    await expect(page).toHaveURL(/\/article\/news\/esports$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Esports');
    await expect(tabs.getByRole('link', { name: 'Esports' })).toHaveAttribute('aria-current', 'page');
    expect(await cardIds(page)).toEqual([1007, 1006, 1005]);
    await expect(page.getByTestId('load-more')).toHaveCount(0);
  });

  test('an article in English and in Chinese: meta tags, structured data, canonical and hreflang', async ({ page, baseURL }) => {
    await page.goto('/article/news/1001');
    await expect(page).toHaveTitle('Playport opens its doors | Playport');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Playport opens its doors');
    await expect(page.getByTestId('reading-time')).toHaveText(/\d+ min read/);
    await expect(page.getByText('By Mira Chen')).toBeVisible();
    await expect(page.locator('meta[name="description"]')).toHaveAttribute('content', /^Ten browser games, no download/);
    await expect(page.locator('meta[property="og:type"]')).toHaveAttribute('content', 'article');
    await expect(page.locator('meta[property="og:title"]')).toHaveAttribute('content', 'Playport opens its doors');
    await expect(page.locator('meta[property="og:url"]')).toHaveAttribute('content', `${baseURL}/article/news/1001`);
    await expect(page.locator('meta[property="og:image"]')).toHaveAttribute('content', new RegExp(`^${baseURL}/uploads/articles/1001-`));
    await expect(page.locator('meta[name="twitter:card"]')).toHaveAttribute('content', 'summary_large_image');
    await expect(page.locator('link[rel="canonical"]')).toHaveCount(1);
    await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', `${baseURL}/article/news/1001`);
    expect(await headLinks(page, 'link[rel="alternate"][hreflang]', 'hreflang')).toEqual(['en', 'zh-CN', 'x-default']);
    expect(await headLinks(page, 'link[rel="alternate"][hreflang]')).toEqual([
      `${baseURL}/article/news/1001`,
      `${baseURL}/zh-CN/article/news/1001`,
      `${baseURL}/article/news/1001`,
    ]);
    const en = await structuredData(page);
    expect(en).toMatchObject({
      '@context': 'https://schema.org',
      '@type': 'NewsArticle',
      headline: 'Playport opens its doors',
      datePublished: '2025-12-04T09:00:00.000Z',
      inLanguage: 'en-US',
      author: [{ '@type': 'Person', name: 'Mira Chen' }],
      publisher: { '@type': 'Organization', name: 'Playport' },
      mainEntityOfPage: { '@id': `${baseURL}/article/news/1001` },
    });
    expect(en.image[0]).toMatch(/\/uploads\/articles\/1001-[0-9a-f]+\.svg$/);
    // Body images carry their size; links to the portal stay inside it.
    const bodyImage = page.getByTestId('article-body').locator('img').first();
    await expect(bodyImage).toHaveAttribute('width', '1200');
    await expect(bodyImage).toHaveAttribute('height', '630');
    await expect(page.getByTestId('article-body').getByRole('link', { name: 'Snake' })).toHaveAttribute('href', '/app/snake');
    await expect(page.getByTestId('article-neighbours').getByRole('link')).toHaveAttribute('href', '/article/news/1002');
    await expect(page.getByTestId('related-articles').getByTestId('article-card')).toHaveCount(3);

    await page.goto('/zh-CN/article/news/1001');
    await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');
    await expect(page).toHaveTitle('Playport 正式上线 | Playport');
    await expect(page.getByTestId('reading-time')).toHaveText(/约 \d+ 分钟读完/);
    await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', `${baseURL}/zh-CN/article/news/1001`);
    await expect(page.locator('meta[property="og:locale"]')).toHaveAttribute('content', 'zh_CN');
    const zh = await structuredData(page);
    expect(zh).toMatchObject({ '@type': 'NewsArticle', headline: 'Playport 正式上线', inLanguage: 'zh-CN', url: `${baseURL}/zh-CN/article/news/1001` });
    // Chinese articles link to Chinese pages.
    await expect(page.getByTestId('article-body').getByRole('link', { name: '贪吃蛇' })).toHaveAttribute('href', '/zh-CN/app/snake');
  });

  test('/article/post/{id} shows the article with the canonical address of its column', async ({ page, baseURL }) => {
    const response = await page.goto('/article/post/1005');
    expect(response?.status()).toBe(200);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Snake Speedrun Cup: sign-ups open');
    await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', `${baseURL}/article/news/esports/1005`);
    expect((await structuredData(page)).url).toBe(`${baseURL}/article/news/esports/1005`);
    await expect(page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link')).toHaveText(['News', 'Esports']);
  });

  test('a script tag quoted in an article is not part of the page', async ({ page }) => {
    let dialogs = 0;
    page.on('dialog', (dialog) => {
      dialogs += 1;
      void dialog.dismiss();
    });
    const response = await page.goto('/article/updates/1021');
    expect(await response!.text()).not.toContain("<script>alert('x')</script>");
    await expect(page.getByTestId('article-body')).toContainText('a snippet like this one');
    await expect(page.getByTestId('article-body').locator('script')).toHaveCount(0);
    expect(dialogs).toBe(0);
  });

  test('the catch-all rule: valid paths resolve, invalid ones are "Page Not Found: {path}" with 404', async ({ page, request, problems }) => {
    for (const path of [
      '/article/news',
      '/article/news/1001',
      '/article/news/esports',
      '/article/news/esports/1005',
      '/zh-CN/article/guides/1011',
      '/article/post/1001',
    ]) {
      expect((await request.get(path)).status(), path).toBe(200);
    }
    // Valid by the rule but naming nothing: the ordinary not-found page, not the invalid-parameter one.
    const missing = await request.get('/article/news/123');
    expect(missing.status()).toBe(404);
    expect(await missing.text()).toContain('Page not found: /article/news/123');
    // A scheduled article does not exist yet.
    expect((await request.get('/article/updates/1024')).status()).toBe(404);
    // Another address of a column or article leads to its own.
    const moved = await request.get('/article/news/1005', { maxRedirects: 0 });
    expect(moved.status()).toBe(301);
    expect(moved.headers().location).toBe('/article/news/esports/1005');

    for (const path of [
      '/article/ab',
      '/article/news/es-ports',
      '/article/news1',
      '/article/news/esports/1005/more',
      '/article/post/12a',
      '/zh-CN/article/n3ws',
    ]) {
      const response = await request.get(path);
      expect(response.status(), path).toBe(404);
      expect(await response.text(), path).toContain(`Page Not Found: ${path}`);
    }

    problems.allow('status of 404');
    const shown = await page.goto('/article/news/es-ports');
    expect(shown?.status()).toBe(404);
    await expect(page.getByTestId('not-found-message')).toHaveText('Page Not Found: /article/news/es-ports');
  });

  test('copy link: success toast, the copied indicator for 1500 ms, and the link in the clipboard', async ({ page, context, baseURL }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    // The page's timers run on a clock the test moves, so the 1500 ms are measured exactly.
    await page.clock.install();
    await page.goto('/zh-CN/article/guides/1011');
    const button = page.getByTestId('copy-link');
    await expect(button).toHaveText('复制链接');
    await hydrated(page, 'copy-link');
    // The toasts' code loads with the first toast (decision 105): the first copy, with the clock running.
    await button.click();
    await expect(page.getByTestId('toast').filter({ hasText: '已复制到剪贴板' })).toHaveAttribute('data-color', 'success');
    await expect(button).toHaveText('复制链接');
    await page.clock.pauseAt(Date.now() + 60_000);
    await button.click();
    await expect(button).toHaveText('已复制');
    await expect(page.getByTestId('toast').filter({ hasText: '已复制到剪贴板' }).last()).toHaveAttribute('data-color', 'success');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${baseURL}/zh-CN/article/guides/1011`);
    await page.clock.runFor(1499);
    await expect(button).toHaveText('已复制');
    await page.clock.runFor(1);
    await expect(button).toHaveText('复制链接');
  });

  test('copy link without a clipboard shows an error toast @mobile', async ({ page }) => {
    await page.addInitScript(() => Object.defineProperty(Navigator.prototype, 'clipboard', { get: () => undefined }));
    await page.goto('/article/guides/1011');
    await hydrated(page, 'copy-link');
    await page.getByTestId('copy-link').click();
    await expect(page.getByTestId('toast').filter({ hasText: 'This browser does not allow copying from the page.' })).toHaveAttribute('data-color', 'error');
    await expect(page.getByTestId('copy-link')).toHaveText('Copy link');
  });

  test('the feeds and the sitemap are well-formed XML with what they promise', async ({ page, baseURL }) => {
    await page.goto('/article/news');
    const parse = (url: string) =>
      page.evaluate(async (address) => {
        const response = await fetch(address);
        const text = await response.text();
        const doc = new DOMParser().parseFromString(text, 'application/xml');
        const error = doc.getElementsByTagName('parsererror')[0]?.textContent ?? null;
        const atom = 'http://www.w3.org/2005/Atom';
        return {
          status: response.status,
          type: response.headers.get('content-type'),
          error,
          root: doc.documentElement.localName,
          entries: [...doc.getElementsByTagNameNS(atom, 'entry')].map((e) => e.getElementsByTagNameNS(atom, 'link')[0]?.getAttribute('href')),
          contents: [...doc.getElementsByTagNameNS(atom, 'content')].map((c) => c.textContent ?? ''),
          locs: [...doc.getElementsByTagName('loc')].map((l) => l.textContent),
          alternates: [...doc.getElementsByTagNameNS('http://www.w3.org/1999/xhtml', 'link')].map(
            (l) => `${l.getAttribute('hreflang')} ${l.getAttribute('href')}`,
          ),
        };
      }, url);

    for (const locale of ['en', 'zh-CN']) {
      const feed = await parse(`/feeds/news.${locale}.xml`);
      expect(feed, locale).toMatchObject({ status: 200, type: 'application/atom+xml; charset=utf-8', error: null, root: 'feed' });
      const prefix = locale === 'en' ? '' : '/zh-CN';
      expect(feed.entries).toEqual(
        NEWS_NEWEST_FIRST.map(
          (id) => `${baseURL}${prefix}/article/news/${[1005, 1006, 1007].includes(id) ? 'esports/' : [1008, 1009, 1010].includes(id) ? 'releases/' : ''}${id}`,
        ),
      );
      expect(feed.contents.join('')).not.toMatch(/<script/i);
    }
    const updates = await parse('/feeds/updates.en.xml');
    expect(updates.error).toBeNull();
    expect(updates.entries.some((href) => /\/(1024|1025)$/.test(href ?? ''))).toBe(false);

    const sitemap = await parse('/sitemap.xml');
    expect(sitemap).toMatchObject({ status: 200, error: null, root: 'urlset' });
    for (const path of [
      '/article/news',
      '/article/news/esports',
      '/article/guides',
      '/article/updates',
      '/article/news/1001',
      '/article/news/esports/1005',
      '/categories',
    ]) {
      expect(sitemap.locs, path).toContain(`${baseURL}${path}`);
      expect(sitemap.locs, path).toContain(`${baseURL}/zh-CN${path}`);
      expect(sitemap.alternates, path).toContain(`zh-CN ${baseURL}/zh-CN${path}`);
    }
    expect(sitemap.locs.some((loc) => loc?.startsWith(`${baseURL}/app/`))).toBe(true);
    expect(sitemap.locs.some((loc) => loc?.startsWith(`${baseURL}/zh-CN/categories/`))).toBe(true);
    expect(sitemap.locs.some((loc) => /\/(1024|1025)$/.test(loc ?? ''))).toBe(false);
  });

  test('the news link of the header leads to the news column', async ({ page }) => {
    await page.goto('/article/guides');
    await page.getByRole('banner').getByRole('link', { name: 'News', exact: true }).click();
    await expect(page).toHaveURL(/\/article\/news$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('News');
  });

  test('the news link of the bottom bar leads to the news column @mobile', async ({ page, isMobile }) => {
    test.skip(!isMobile, 'the bottom bar is the mobile navigation');
    await page.goto('/zh-CN/article/updates');
    await page
      .getByRole('navigation')
      .filter({ has: page.getByRole('link', { name: '新闻' }) })
      .last()
      .getByRole('link', { name: '新闻' })
      .click();
    await expect(page).toHaveURL(/\/zh-CN\/article\/news$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('新闻');
  });
});
