import { expect } from '@playwright/test';
import enCommon from '../../common/i18n/locales/en/common.json' with { type: 'json' };
import zhCommon from '../../common/i18n/locales/zh-CN/common.json' with { type: 'json' };
import { newMember, uniqueUsername } from '../support/accounts.ts';
import { catalogueSamples, httpTest as test, inVariant, LOCALE_VARIANTS, PRODUCT, TEXT } from '../support/site.ts';
import { expectAlternates, type RenderedPage, renderedPage } from './html.ts';

// Every route of the spec's table (section 2) in each locale variant, checked in the HTML the
// server sends: status, title, language, canonical and alternates, and which layout frames it.
// Which parts of a layout show on a phone or a desktop is a browser matter (tests/e2e/shell).

const stripPrefix = (path: string) => path.replace(/^\/zh-CN(?=\/|$)/, '') || '/';
const PAGE_TITLES = { en: enCommon.pages, 'zh-CN': zhCommon.pages };

type Layout = 'default' | 'auth' | 'empty';

interface RouteCase {
  path: string;
  layout: Layout;
  /** The exact page title where the shell owns the page; other pages only need "{title} | product". */
  title?: (locale: 'en' | 'zh-CN') => string;
  /** Profile pages are for members (decision 026): fetched with a member's session. */
  member?: boolean;
  /** A part of the page's own content that must be rendered. */
  content?: string;
}

const shellTitle = (key: 'settings' | 'diagnostics' | 'about' | 'terms' | 'cookiePolicy' | 'privacyPolicy') => (locale: 'en' | 'zh-CN') =>
  `${TEXT[locale][key]} | ${PRODUCT}`;
const profileTitle = (key: keyof typeof enCommon.pages) => (locale: 'en' | 'zh-CN') => `${PAGE_TITLES[locale][key]} | ${PRODUCT}`;

const ROUTES: RouteCase[] = [
  { path: '/', layout: 'default', content: 'row-popular' },
  { path: '/pwa', layout: 'default', content: 'row-popular' },
  { path: '/login', layout: 'auth', content: 'login-list' },
  { path: '/login/forgot', layout: 'auth', title: profileTitle('forgotPassword'), content: 'forgot-form' },
  { path: '/login/reset?key=unknown', layout: 'auth', title: profileTitle('resetPassword'), content: 'reset-form' },
  { path: '/login/not-me?key=unknown', layout: 'auth', title: profileTitle('notMe'), content: 'not-me-form' },
  { path: '/settings', layout: 'default', title: shellTitle('settings') },
  { path: '/test', layout: 'default', title: shellTitle('diagnostics') },
  { path: '/app/{app}', layout: 'default' },
  { path: '/play/{app}', layout: 'empty', content: 'game-frame' },
  { path: '/user', layout: 'default' },
  { path: '/about', layout: 'default', title: shellTitle('about'), content: 'static-page' },
  { path: '/terms', layout: 'default', title: shellTitle('terms'), content: 'static-page' },
  { path: '/cookie-policy', layout: 'default', title: shellTitle('cookiePolicy'), content: 'static-page' },
  { path: '/privacy-policy', layout: 'default', title: shellTitle('privacyPolicy'), content: 'static-page' },
  { path: '/account-deletion', layout: 'default', title: profileTitle('accountDeletion'), content: 'account-deletion-page' },
  { path: '/article/news', layout: 'default' },
  { path: '/article/news/esports', layout: 'default' },
  { path: '/article/news/1001', layout: 'default', content: 'article-body' },
  { path: '/article/post/1001', layout: 'default', content: 'article-body' },
  { path: '/categories', layout: 'default' },
  { path: '/categories/{category}', layout: 'default', content: 'app-grid' },
  { path: '/user/profile', layout: 'default', member: true, title: profileTitle('profile'), content: 'profile-rows' },
  { path: '/user/profile/email', layout: 'default', member: true, title: profileTitle('email'), content: 'profile-email-form' },
  { path: '/user/profile/phone', layout: 'default', member: true, title: profileTitle('phone'), content: 'profile-phone-form' },
  { path: '/user/profile/avatar', layout: 'default', member: true, title: profileTitle('avatar'), content: 'profile-avatar-form' },
  { path: '/user/profile/social', layout: 'default', member: true, title: profileTitle('social') },
  { path: '/user/profile/passkey', layout: 'default', member: true, title: profileTitle('passkey') },
  { path: '/user/profile/sessions', layout: 'default', member: true, title: profileTitle('sessions') },
  { path: '/user/profile/nickname', layout: 'default', member: true, title: profileTitle('nickname'), content: 'profile-nickname-form' },
  { path: '/user/profile/password', layout: 'default', member: true, title: profileTitle('password'), content: 'profile-password-form' },
  { path: '/user/profile/data', layout: 'default', member: true, title: profileTitle('data'), content: 'data-export' },
  { path: '/user/profile/two-factor', layout: 'default', member: true, title: profileTitle('twoFactor') },
  { path: '/user/profile/delete', layout: 'default', member: true, title: profileTitle('deleteAccount') },
];

function expectLayout(page: RenderedPage, layout: Layout) {
  const parts = ['site-header', 'header-nav', 'bottom-bar', 'site-footer', 'auth-header'];
  const expected: Record<Layout, string[]> = { default: ['site-header', 'header-nav', 'bottom-bar', 'site-footer'], auth: ['auth-header'], empty: [] };
  expect(Object.fromEntries(parts.map((part) => [part, page.has(part)]))).toEqual(
    Object.fromEntries(parts.map((part) => [part, expected[layout].includes(part)])),
  );
}

test.describe('every route in three locale variants', () => {
  let samples: { app: string; category: string } | null = null;
  let memberToken: string | null = null;
  test.beforeEach(async ({ request }) => {
    samples ??= await catalogueSamples(request);
  });

  for (const variant of LOCALE_VARIANTS) {
    for (const route of ROUTES) {
      test(`${inVariant(variant, route.path)} answers 200 with its title, language, alternates and layout`, async ({ request, baseURL }) => {
        if (route.member) memberToken ??= (await newMember(request, uniqueUsername('routes'), 'route-walker-42')).token;
        const url = inVariant(variant, route.path.replace('{app}', samples!.app).replace('{category}', samples!.category));
        const page = await renderedPage(request, url, route.member ? { token: memberToken! } : {});
        expect(page.status).toBe(200);
        if (route.title) expect(page.title).toBe(route.title(variant.locale));
        else expect(page.title).toMatch(new RegExp(`^(?!${TEXT[variant.locale].notFound} ).+ \\| ${PRODUCT}$`));
        expect(page.attribute('html', 'lang')).toBe(variant.lang);
        expect(page.attribute('html', 'dir')).toBe('ltr');
        // A page may name another address as canonical (an article under its column): alternates follow it.
        const canonical = new URL(page.attribute('link[rel="canonical"]', 'href')!).pathname;
        expectAlternates(page, baseURL!, variant.locale, stripPrefix(canonical));
        expectLayout(page, route.layout);
        if (route.content) expect(page.has(route.content), route.content).toBe(true);
        expect(page.has('not-found')).toBe(false);
      });
    }
  }

  test('the OAuth pop-up routes have no locale variants and use the empty layout', async ({ request }) => {
    // Opened without a flow of the portal's, they say so (400) in the pop-up's empty layout.
    for (const path of ['/oauth/google/link', '/oauth/discord/callback']) {
      const page = await renderedPage(request, path);
      expect(page.status, path).toBe(400);
      expect(page.title).toMatch(new RegExp(` \\| ${PRODUCT}$`));
      expectLayout(page, 'empty');
    }
    for (const path of ['/zh-CN/oauth/google/link', '/en/oauth/google/callback']) {
      expect((await renderedPage(request, path)).status, path).toBe(404);
    }
  });

  test('/pwa is the home page', async ({ request }) => {
    const main = async (path: string) => (await renderedPage(request, path)).document.querySelector('main')!.text;
    expect(await main('/pwa')).toBe(await main('/'));
  });
});
