import { expect, test } from '../fixtures.ts';
import { catalogueSamples, expectAlternates, inVariant, LOCALE_VARIANTS, PRODUCT, TEXT } from './helpers.ts';

const stripPrefix = (path: string) => path.replace(/^\/zh-CN(?=\/|$)/, '') || '/';

type Layout = 'default' | 'auth' | 'empty';

interface RouteCase {
  path: string;
  layout: Layout;
  /** The exact page title where the shell owns the page; other pages only need "{title} | product". */
  title?: (text: (typeof TEXT)['en' | 'zh-CN']) => string;
}

/** Every route of the spec's table (section 2), with the layout it must use. */
function routeTable(app: string, category: string): RouteCase[] {
  return [
    { path: '/', layout: 'default' },
    { path: '/pwa', layout: 'default' },
    { path: '/login', layout: 'auth' },
    { path: '/settings', layout: 'default', title: (t) => `${t.settings} | ${PRODUCT}` },
    { path: '/test', layout: 'default', title: (t) => `${t.diagnostics} | ${PRODUCT}` },
    { path: `/app/${app}`, layout: 'default' },
    { path: `/play/${app}`, layout: 'empty' },
    { path: '/user', layout: 'default' },
    { path: '/about', layout: 'default', title: (t) => `${t.about} | ${PRODUCT}` },
    { path: '/terms', layout: 'default', title: (t) => `${t.terms} | ${PRODUCT}` },
    { path: '/cookie-policy', layout: 'default', title: (t) => `${t.cookiePolicy} | ${PRODUCT}` },
    { path: '/privacy-policy', layout: 'default', title: (t) => `${t.privacyPolicy} | ${PRODUCT}` },
    { path: '/article/news', layout: 'default' },
    { path: '/article/news/esports', layout: 'default' },
    { path: '/article/news/1001', layout: 'default' },
    { path: '/article/post/1001', layout: 'default' },
    { path: '/categories', layout: 'default' },
    { path: `/categories/${category}`, layout: 'default' },
    ...['', '/email', '/phone', '/avatar', '/social', '/passkey', '/nickname', '/password'].map((sub) => ({ path: `/user/profile${sub}`, layout: 'default' as const })),
  ];
}

async function expectLayout(page: import('@playwright/test').Page, layout: Layout, mobile: boolean) {
  const header = page.getByTestId('site-header');
  if (layout === 'default') {
    await expect(header).toBeVisible();
    await expect(page.getByTestId('header-nav')).toBeVisible({ visible: !mobile });
    await expect(page.getByTestId('bottom-bar')).toBeVisible({ visible: mobile });
    await expect(page.getByTestId('site-footer')).toBeVisible({ visible: !mobile });
  } else if (layout === 'auth') {
    await expect(page.getByTestId('auth-header')).toBeVisible();
    await expect(header).toHaveCount(0);
    await expect(page.getByTestId('bottom-bar')).toHaveCount(0);
  } else {
    await expect(header).toHaveCount(0);
    await expect(page.getByTestId('bottom-bar')).toHaveCount(0);
    await expect(page.getByTestId('site-footer')).toHaveCount(0);
  }
}

test.describe('every route in three locale variants', () => {
  let samples: { app: string; category: string } | null = null;
  test.beforeEach(async ({ request }) => {
    samples ??= await catalogueSamples(request);
  });

  for (const variant of LOCALE_VARIANTS) {
    for (const route of routeTable('{app}', '{category}')) {
      test(`${inVariant(variant, route.path)} answers 200 with its title, layout, language and alternates @mobile`, async ({ page, baseURL, isMobile }) => {
        const text = TEXT[variant.locale];
        const url = inVariant(variant, route.path.replace('{app}', samples!.app).replace('{category}', samples!.category));
        const response = await page.goto(url);
        expect(response?.status()).toBe(200);
        if (route.title) await expect(page).toHaveTitle(route.title(text));
        else await expect(page).toHaveTitle(new RegExp(`^(?!${text.notFound} ).+ \\| ${PRODUCT}$`));
        // Profile pages belong to the accounts feature, which may send a visitor elsewhere.
        if (route.path.startsWith('/user/profile')) return;
        await expect(page.locator('html')).toHaveAttribute('lang', variant.lang);
        await expect(page.locator('html')).toHaveAttribute('dir', 'ltr');
        // A page may name another address as canonical (an article under its column): alternates follow it.
        const canonical = new URL((await page.locator('link[rel="canonical"]').getAttribute('href'))!).pathname;
        await expectAlternates(page, baseURL!, variant.locale, stripPrefix(canonical));
        await expectLayout(page, route.layout, isMobile);
      });
    }
  }

  test('the OAuth pop-up routes have no locale variants and use the empty layout @mobile', async ({ page, problems }) => {
    problems.allow('status of 404');
    for (const path of ['/oauth/google/link', '/oauth/discord/callback']) {
      const response = await page.goto(path);
      expect(response?.status(), path).toBe(200);
      await expect(page).toHaveTitle(/ \| Playport$/);
      await expectLayout(page, 'empty', false);
    }
    for (const path of ['/zh-CN/oauth/google/link', '/en/oauth/google/callback']) {
      expect((await page.goto(path))?.status(), path).toBe(404);
    }
  });

  test('/pwa is the home page', async ({ page }) => {
    await page.goto('/');
    const home = await page.locator('main').innerText();
    await page.goto('/pwa');
    expect(await page.locator('main').innerText()).toBe(home);
  });
});
