import type { Page } from '@playwright/test';
import { clientAddress, expect, test } from '../fixtures.ts';
import { PRODUCT, TEXT } from '../../support/site.ts';
import { hydrated } from './helpers.ts';

/** The theme colour the browser uses: the first theme-color meta whose media applies. */
const themeColor = (page: Page) =>
  page.evaluate(
    () => [...document.querySelectorAll<HTMLMetaElement>('meta[name="theme-color"]')].find((m) => !m.media || matchMedia(m.media).matches)?.content,
  );

test.describe('desktop shell', () => {
  test('header: logo, the four links, language, colour mode and the avatar popover', async ({ page }) => {
    await page.goto('/zh-CN/about');
    await hydrated(page);
    const header = page.getByTestId('site-header');
    await expect(header.getByRole('link', { name: `${PRODUCT} 首页` })).toHaveAttribute('href', '/zh-CN');
    const nav = page.getByTestId('header-nav').getByRole('link');
    await expect(nav).toHaveText([...TEXT['zh-CN'].nav]);
    expect(await nav.evaluateAll((links) => links.map((a) => a.getAttribute('href')))).toEqual([
      '/zh-CN',
      '/zh-CN/categories',
      '/zh-CN/article/news',
      '/zh-CN/user',
    ]);
    await expect(page.getByTestId('language-selector')).toBeVisible();
    await expect(page.getByTestId('color-mode-button')).toBeVisible();

    // Signed out, the user menu holds settings only; it is a popover that closes on navigation.
    await page.getByTestId('user-menu-trigger').click();
    const menu = page.getByTestId('user-menu');
    await expect(menu).toBeVisible();
    await expect(menu.getByText('游客')).toBeVisible();
    await expect(menu.getByTestId('user-menu-items').getByRole('link')).toHaveText(['设置']);
    await page.keyboard.press('Escape');
    await expect(menu).toBeHidden();
    await page.getByTestId('user-menu-trigger').click();
    await menu.getByRole('link', { name: '设置' }).click();
    await expect(page).toHaveURL('/zh-CN/settings');
    await expect(menu).toBeHidden();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('设置');
  });

  test('side menu and footer', async ({ page }) => {
    await page.goto('/about');
    const side = page.getByTestId('side-menu');
    await expect(side.locator('[data-menu-group="categories"] h2')).toHaveText(TEXT.en.sideMenu.categories);
    await expect(side.locator('[data-menu-group="categories"] a')).toHaveText([TEXT.en.sideMenu.allCategories, TEXT.en.sideMenu.news]);
    await expect(side.locator('[data-menu-group="profile"]')).toHaveCount(0);
    await expect(side.locator('[data-menu-group="settings"] a')).toHaveText([TEXT.en.settings]);

    const footer = page.getByTestId('site-footer');
    await expect(footer).toContainText(`© ${new Date().getFullYear()} ${PRODUCT}`);
    const links = footer.getByRole('link');
    await expect(links).toHaveText([...TEXT.en.footer, `${TEXT.en.community}(opens in a new tab)`]);
    expect(await links.evaluateAll((all) => all.map((a) => a.getAttribute('href')))).toEqual([
      '/about',
      '/terms',
      '/privacy-policy',
      '/cookie-policy',
      '/page/developers',
      'https://discord.com/invite/playport',
    ]);
    await expect(links.last()).toHaveAttribute('target', '_blank');
    await footer.getByRole('link', { name: TEXT.en.footer[1] }).click();
    await expect(page).toHaveURL('/terms');
    await expect(page).toHaveTitle(`${TEXT.en.terms} | ${PRODUCT}`);
  });

  test('keyboard: the skip link comes first and moves focus to the content', async ({ page }) => {
    await page.goto('/settings');
    await page.keyboard.press('Tab');
    const skip = page.getByRole('link', { name: 'Skip to content' });
    await expect(skip).toBeFocused();
    await expect(skip).toBeVisible();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL('/settings#main');
    await page.keyboard.press('Tab');
    await expect(page.locator('main :focus')).toHaveCount(1);
  });
});

test.describe('mobile shell', () => {
  test('bottom bar and the user drawer, which closes on navigation @mobile', async ({ page, isMobile }) => {
    test.skip(!isMobile, 'mobile viewport only');
    await page.goto('/zh-CN/about');
    await hydrated(page);
    await expect(page.getByTestId('header-nav')).toBeHidden();
    await expect(page.getByTestId('site-footer')).toBeHidden();
    const bar = page.getByTestId('bottom-bar').getByRole('link');
    await expect(bar).toHaveText([...TEXT['zh-CN'].nav]);
    expect(await bar.evaluateAll((links) => links.map((a) => a.getAttribute('href')))).toEqual([
      '/zh-CN',
      '/zh-CN/categories',
      '/zh-CN/article/news',
      '/zh-CN/user',
    ]);

    await page.getByTestId('user-drawer-trigger').click();
    const drawer = page.getByTestId('user-drawer');
    await expect(drawer).toBeVisible();
    await expect(drawer.getByTestId('user-menu-items').getByRole('link')).toHaveText(['设置']);
    await expect(drawer.getByRole('radio', { name: 'English' })).toBeVisible();
    await expect(drawer.getByRole('radio', { name: '深色' })).toBeVisible();
    await drawer.getByRole('link', { name: '设置' }).click();
    await expect(page).toHaveURL('/zh-CN/settings');
    await expect(drawer).toBeHidden();

    await page.getByTestId('bottom-bar').getByRole('link', { name: '新闻' }).click();
    await expect(page).toHaveURL('/zh-CN/article/news');
    await expect(page.getByTestId('bottom-bar').getByRole('link', { name: '新闻' })).toHaveAttribute('aria-current', 'page');
  });

  test('the drawer switches colour mode and language @mobile', async ({ page, isMobile }) => {
    test.skip(!isMobile, 'mobile viewport only');
    await page.goto('/about');
    await hydrated(page);
    await page.getByTestId('user-drawer-trigger').click();
    const drawer = page.getByTestId('user-drawer');
    await drawer.getByRole('radio', { name: 'Dark' }).click();
    await expect(page.locator('html')).toHaveClass(/\bdark\b/);
    await drawer.getByRole('radio', { name: '简体中文' }).click();
    await expect(page).toHaveURL('/zh-CN/about');
    await expect(page).toHaveTitle(`${TEXT['zh-CN'].about} | ${PRODUCT}`);
  });
});

test.describe('colour mode', () => {
  test('the header button switches light and dark, stored locally, with the theme colour', async ({ page }) => {
    await page.emulateMedia({ colorScheme: 'light' });
    await page.goto('/settings');
    await hydrated(page);
    await expect(page.locator('html')).not.toHaveClass(/\bdark\b/);
    expect(await themeColor(page)).toBe('#ffffff');
    await page.getByTestId('color-mode-button').click();
    await expect(page.locator('html')).toHaveClass(/\bdark\b/);
    expect(await page.evaluate(() => localStorage.getItem('color-mode'))).toBe('dark');
    expect(await themeColor(page)).toBe('#18181B');
    await expect(page.getByTestId('settings-appearance').getByRole('radio', { name: /Dark/ })).toHaveAttribute('aria-checked', 'true');

    await page.getByTestId('color-mode-button').click();
    await expect(page.locator('html')).not.toHaveClass(/\bdark\b/);
    expect(await themeColor(page)).toBe('#ffffff');

    // System follows the device again.
    await page
      .getByTestId('settings-appearance')
      .getByRole('radio', { name: /System/ })
      .click();
    await page.emulateMedia({ colorScheme: 'dark' });
    await expect(page.locator('html')).toHaveClass(/\bdark\b/);
    expect(await themeColor(page)).toBe('#18181B');
    expect(await page.evaluate(() => localStorage.getItem('color-mode'))).toBe('system');
  });

  test('a stored mode is applied before the first paint of a server-rendered page', async ({ page }) => {
    await page.emulateMedia({ colorScheme: 'light' });
    // Records the <html> class at the moment <body> is created, before anything can paint.
    await page.addInitScript(() => {
      new MutationObserver((_records, observer) => {
        if (!document.body) return;
        (window as unknown as { __classAtBody: string }).__classAtBody = document.documentElement.className;
        observer.disconnect();
      }).observe(document, { childList: true, subtree: true });
    });
    await page.goto('/about');
    expect(await page.evaluate(() => (window as unknown as { __classAtBody: string }).__classAtBody)).not.toContain('dark');
    await page.evaluate(() => localStorage.setItem('color-mode', 'dark'));
    await page.goto('/terms');
    expect(await page.evaluate(() => (window as unknown as { __classAtBody: string }).__classAtBody)).toContain('dark');
    expect(await page.evaluate(() => getComputedStyle(document.documentElement).colorScheme)).toBe('dark');
    expect(await themeColor(page)).toBe('#18181B');
    // Dark was chosen on a light device: the page's own metas still answer the device.
    expect(await page.locator('meta[name="theme-color"][media]').evaluateAll((metas) => metas.map((m) => (m as HTMLMetaElement).content))).toEqual([
      '#ffffff',
      '#18181B',
    ]);
  });
});

test.describe('language', () => {
  test('switching loads the messages first, then changes the page and remembers the choice', async ({ page, context }) => {
    const requests: string[] = [];
    page.on('request', (request) => requests.push(new URL(request.url()).pathname));
    await page.goto('/about?x=1');
    await hydrated(page);
    await page.getByTestId('language-selector').click();
    await page.getByRole('menuitemradio', { name: '简体中文' }).click();
    await expect(page).toHaveURL('/zh-CN/about?x=1');
    await expect(page).toHaveTitle(`${TEXT['zh-CN'].about} | ${PRODUCT}`);
    await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');
    await expect(page.getByTestId('header-nav').getByRole('link')).toHaveText([...TEXT['zh-CN'].nav]);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('关于 Playport');
    const messages = requests.indexOf('/zh-CN/messages.json');
    expect(messages).toBeGreaterThanOrEqual(0);
    expect(requests.findIndex((p, i) => i > messages && p.startsWith('/zh-CN/about'))).toBeGreaterThan(messages);
    const cookie = (await context.cookies()).find((c) => c.name === 'i18n_redirected');
    expect(cookie?.value).toBe('zh-CN');
    expect(cookie!.expires - Date.now() / 1000).toBeGreaterThan(364 * 86_400);

    // And back, from the settings page.
    await page.goto('/zh-CN/settings');
    await hydrated(page);
    await page.getByTestId('settings-language').getByRole('radio', { name: 'English' }).click();
    await expect(page).toHaveURL('/settings');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Settings');
    expect((await context.cookies()).find((c) => c.name === 'i18n_redirected')?.value).toBe('en');
  });

  test('a failed load warns "Failed loading locale" and keeps the current locale', async ({ page, problems }) => {
    problems.allow('status of 503');
    const warnings: string[] = [];
    page.on('console', (message) => message.type() === 'warning' && warnings.push(message.text()));
    await page.route(/\/zh-CN\/messages\.json/, (route) => route.fulfill({ status: 503, body: 'down' }));
    await page.goto('/settings');
    await hydrated(page);
    await page.getByTestId('settings-language').getByRole('radio', { name: '简体中文' }).click();
    const toast = page.getByTestId('toast');
    await expect(toast).toHaveText(/That language could not be loaded/);
    await expect(page).toHaveURL('/settings');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Settings');
    expect(warnings.some((w) => w.startsWith('Failed loading locale'))).toBe(true);
    // Toasts sit at the top centre and close by themselves after 3 s.
    const box = (await toast.boundingBox())!;
    const viewport = page.viewportSize()!;
    expect(box.y).toBeLessThan(40);
    expect(Math.abs(box.x + box.width / 2 - viewport.width / 2)).toBeLessThan(2);
    await expect(toast).toHaveCount(0, { timeout: 4_500 });
  });
});

test.describe('first visit language', () => {
  test('a browser preferring Chinese is sent to /zh-CN once, and the cookie remembers it', async ({ browser, baseURL }, testInfo) => {
    const context = await browser.newContext({ baseURL, locale: 'zh-CN', extraHTTPHeaders: { 'X-Forwarded-For': clientAddress(testInfo) } });
    const page = await context.newPage();
    await page.goto('/?utm_source=x');
    await expect(page).toHaveURL('/zh-CN?utm_source=x');
    expect((await context.cookies()).find((c) => c.name === 'i18n_redirected')?.value).toBe('zh-CN');
    // Deep links are left alone.
    await page.goto('/about');
    await expect(page).toHaveURL('/about');
    // Choosing English sticks.
    await context.addCookies([{ name: 'i18n_redirected', value: 'en', url: baseURL! }]);
    await page.goto('/');
    await expect(page).toHaveURL('/');
    await context.close();
  });

  test('an English browser stays on the unprefixed pages', async ({ browser, baseURL }, testInfo) => {
    const context = await browser.newContext({ baseURL, locale: 'en-GB', extraHTTPHeaders: { 'X-Forwarded-For': clientAddress(testInfo) } });
    const page = await context.newPage();
    await page.goto('/');
    await expect(page).toHaveURL('/');
    expect((await context.cookies()).find((c) => c.name === 'i18n_redirected')).toBeUndefined();
    await context.close();
  });
});

test.describe('global middleware', () => {
  test('campaign tags are kept in cookies for 365 days, secure and SameSite strict, empty ones dropped', async ({ page, context }) => {
    await page.goto('/about?utm_source=news%20letter&utm_medium=&utm_campaign=spring&utm_content=hero');
    const cookies = Object.fromEntries((await context.cookies()).map((c) => [c.name, c]));
    expect(cookies.utm_source).toMatchObject({ value: 'news%20letter', secure: true, sameSite: 'Strict', httpOnly: false });
    expect(cookies.utm_campaign?.value).toBe('spring');
    expect(cookies.utm_content?.value).toBe('hero');
    expect(cookies.utm_medium).toBeUndefined();
    expect(cookies.utm_source!.expires - Date.now() / 1000).toBeGreaterThan(364 * 86_400);
  });

  test('the redirect lookup by path keeps the hash, localises paths and keeps a destination hash', async ({ page }) => {
    await page.goto('/news#latest');
    await expect(page).toHaveURL('/article/news#latest');
    await page.goto('/zh-CN/news');
    await expect(page).toHaveURL('/zh-CN/article/news');
    await page.goto('/contact#ignored');
    await expect(page).toHaveURL('/about#contact');
    // A client-side navigation asks the server too, and keeps the hash.
    await page.goto('/settings');
    await hydrated(page);
    await page.evaluate(() =>
      (window as unknown as { __reactRouterDataRouter: { navigate(to: string): Promise<void> } }).__reactRouterDataRouter.navigate('/privacy#cookies'),
    );
    await expect(page).toHaveURL('/privacy-policy#cookies');
    await expect(page).toHaveTitle(`${TEXT.en.privacyPolicy} | ${PRODUCT}`);
  });
});

test.describe('pages of the shell', () => {
  test('/test shows the build, locale, session and what the browser supports', async ({ page, request }) => {
    const { id } = await (await request.get('/builds/latest.json')).json();
    await page.goto('/zh-CN/test');
    await expect(page.getByTestId('test-build')).toHaveText(id);
    await expect(page.getByTestId('test-locale')).toHaveText('zh-CN (zh-CN)');
    // Every visitor gets a guest account a moment after the first page: the diagnostics follow it.
    await expect(page.getByTestId('test-session')).toHaveText('游客');
    await expect(page.getByTestId('test-webauthn')).toHaveText('是');
    await expect(page.getByTestId('test-broadcast-channel')).toHaveText('是');
    await expect(page.getByTestId('test-service-worker')).toHaveText('是');
    await expect(page.getByTestId('test-conditional-mediation')).toHaveText(/^(是|否)$/);
    await expect(page.getByTestId('test-install')).not.toHaveText('检测中…');
  });

  test('copying the diagnostics confirms with a toast and a 1.5 s indicator', async ({ page, context }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.clock.install();
    await page.goto('/test');
    await expect(page.getByTestId('test-webauthn')).toHaveText('Yes');
    // The toasts' code loads with the first toast (decision 066): the first copy, with the clock running.
    await page.getByRole('button', { name: 'Copy details' }).click();
    await expect(page.getByTestId('toast')).toHaveText(/Copied to the clipboard/);
    await expect(page.getByRole('button', { name: 'Copy details' })).toBeVisible();
    // Time stands still from here on, and moves only when the test says so.
    await page.clock.pauseAt(new Date(Date.now() + 60_000));
    await page.getByRole('button', { name: 'Copy details' }).click();
    await expect(page.getByTestId('toast').last()).toHaveText(/Copied to the clipboard/);
    await expect(page.getByRole('button', { name: 'Copied' })).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toContain('Build: ');
    await page.clock.runFor(1400);
    await expect(page.getByRole('button', { name: 'Copied' })).toBeVisible();
    await page.clock.runFor(200);
    await expect(page.getByRole('button', { name: 'Copy details' })).toBeVisible();
  });

  test('static pages come from the API in both locales, with links kept in the locale', async ({ page, request }) => {
    const api = await (await request.get('/serve/api/page/info/?slug=privacy-policy', { headers: { locale: 'zh-CN' } })).json();
    await page.goto('/zh-CN/privacy-policy');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(api.data.title);
    await page.goto('/zh-CN/about');
    const link = page.getByTestId('static-page').locator('.page-content a[href*="/app/"]').first();
    await expect(link).toHaveAttribute('href', /^\/zh-CN\/app\//);
    await page.goto('/cookie-policy');
    await expect(page.getByTestId('static-page').locator('table')).toBeVisible();
  });

  test('a new build reloads the page on the next navigation', async ({ page }) => {
    await page.clock.install();
    await page.goto('/about');
    await hydrated(page);
    await page.evaluate(() => ((window as unknown as { __marker: boolean }).__marker = true));
    await page.route('**/builds/latest.json*', (route) => route.fulfill({ json: { id: 'a-newer-build' } }));
    const polls: string[] = [];
    page.on('request', (request) => /\/builds\/latest\.json\?t=\d+/.test(request.url()) && polls.push(request.url()));
    // An hour later the page asks; the poll starts with the page's effects, so allow for a late start.
    await expect
      .poll(async () => {
        await page.clock.runFor(60 * 60 * 1000 + 1000);
        return polls.length;
      })
      .toBeGreaterThan(0);
    await page.getByTestId('site-footer').getByRole('link', { name: TEXT.en.footer[1] }).click();
    await expect(page).toHaveURL('/terms');
    // The reload replaces the document: an evaluation caught in the middle of it is asked again.
    await expect.poll(() => page.evaluate(() => (window as unknown as { __marker?: boolean }).__marker ?? false).catch(() => 'reloading')).toBe(false);
    await expect(page).toHaveTitle(`${TEXT.en.terms} | ${PRODUCT}`);
  });
});
