import type { APIRequestContext, Page } from '@playwright/test';
import { expect } from '../fixtures.ts';

export const PRODUCT = 'Playport';
export const LOCALE_VARIANTS = [
  { prefix: '', locale: 'en', lang: 'en-US' },
  { prefix: '/en', locale: 'en', lang: 'en-US' },
  { prefix: '/zh-CN', locale: 'zh-CN', lang: 'zh-CN' },
] as const;
export type LocaleVariant = (typeof LOCALE_VARIANTS)[number];

/** Texts the shell shows, per locale (the message files hold the same). */
export const TEXT = {
  en: {
    notFound: 'Page not found',
    notFoundDescription: 'We are sorry but this page could not be found.',
    invalid: (path: string) => `Page Not Found: ${path}`,
    unmatched: (path: string) => `Page not found: ${path}`,
    home: 'Back to home',
    nav: ['Home', 'Categories', 'News', 'My area'],
    settings: 'Settings',
    diagnostics: 'Diagnostics',
    about: 'About us',
    terms: 'Terms of use',
    cookiePolicy: 'Cookie policy',
    privacyPolicy: 'Privacy policy',
    footer: ['About', 'Terms', 'Privacy', 'Cookies'],
    community: 'Community chat',
    sideMenu: { categories: 'Categories', allCategories: 'All categories', news: 'News' },
  },
  'zh-CN': {
    notFound: '页面不存在',
    notFoundDescription: '抱歉，找不到你要访问的页面。',
    invalid: (path: string) => `页面不存在（参数无效）：${path}`,
    unmatched: (path: string) => `页面不存在：${path}`,
    home: '返回首页',
    nav: ['首页', '分类', '新闻', '我的'],
    settings: '设置',
    diagnostics: '诊断',
    about: '关于我们',
    terms: '使用条款',
    cookiePolicy: 'Cookie 政策',
    privacyPolicy: '隐私政策',
    footer: ['关于我们', '使用条款', '隐私政策', 'Cookie 政策'],
    community: '社区聊天',
    sideMenu: { categories: '分类', allCategories: '全部分类', news: '新闻' },
  },
} as const;

/** A published app and a category with apps, from the API, so the walk follows the demo data. */
export async function catalogueSamples(request: APIRequestContext): Promise<{ app: string; category: string }> {
  const apps = await (await request.get('/serve/api/app/list/?limit=1')).json();
  const categories = await (await request.get('/serve/api/app/category/')).json();
  const category = (categories.data.items as Array<{ slug: string; count: number }>).find((c) => c.count > 0);
  return { app: apps.data.items[0].slug as string, category: category!.slug };
}

/** The canonical URL and the hreflang alternates (en, zh-CN, x-default) of a page at `path` (no prefix). */
export async function expectAlternates(page: Page, baseURL: string, locale: 'en' | 'zh-CN', path: string) {
  const href = (selector: string) => page.locator(selector).getAttribute('href');
  const at = (prefix: string) => baseURL + (path === '/' ? prefix || '/' : prefix + path);
  expect(await href('link[rel="canonical"]')).toBe(at(locale === 'en' ? '' : '/zh-CN'));
  expect(await href('link[rel="alternate"][hreflang="en"]')).toBe(at(''));
  expect(await href('link[rel="alternate"][hreflang="zh-CN"]')).toBe(at('/zh-CN'));
  expect(await href('link[rel="alternate"][hreflang="x-default"]')).toBe(at(''));
}

/** A path in a locale variant: "/" + prefix handled like the app's links. */
export function inVariant(variant: LocaleVariant, path: string): string {
  if (path === '/') return variant.prefix || '/';
  return variant.prefix + path;
}

/** Waits until React has hydrated the page (its DOM nodes carry React's keys), so controls respond. */
export async function hydrated(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    const main = document.getElementById('main') ?? document.body;
    return Object.keys(main).some((key) => key.startsWith('__reactFiber'));
  });
}
