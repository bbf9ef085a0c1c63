import { createHash } from 'node:crypto';
import { test as base, type APIRequestContext, type TestInfo } from '@playwright/test';

/** What the browser suite (tests/e2e) and the page checks over HTTP (tests/pages) both rely on. */

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
    footer: ['About', 'Terms', 'Privacy', 'Cookies', 'For developers'],
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
    footer: ['关于我们', '使用条款', '隐私政策', 'Cookie 政策', '开发者专区'],
    community: '社区聊天',
    sideMenu: { categories: '分类', allCategories: '全部分类', news: '新闻' },
  },
} as const;

/** A path in a locale variant: "/" + prefix handled like the app's links. */
export function inVariant(variant: LocaleVariant, path: string): string {
  if (path === '/') return variant.prefix || '/';
  return variant.prefix + path;
}

/** A published app and a category with apps, from the API, so the checks follow the demo data. */
export async function catalogueSamples(request: APIRequestContext): Promise<{ app: string; category: string }> {
  const apps = await (await request.get('/serve/api/app/list/?limit=1')).json();
  const categories = await (await request.get('/serve/api/app/category/')).json();
  const category = (categories.data.items as Array<{ slug: string; count: number }>).find((c) => c.count > 0);
  return { app: apps.data.items[0].slug as string, category: category!.slug };
}

/**
 * The client address a test's requests come from (X-Forwarded-For; the end-to-end server trusts
 * it). Each test is its own client, as each visitor is: per-address rate limits (new guest
 * accounts, failed sign-ins) count one test's requests, never the whole run's.
 */
export function clientAddress(testInfo: Pick<TestInfo, 'testId' | 'retry' | 'repeatEachIndex'>): string {
  const [a, b, c] = createHash('sha256').update(`${testInfo.testId}/${testInfo.retry}/${testInfo.repeatEachIndex}`).digest();
  return `10.${a}.${b}.${Math.max(1, c!)}`;
}

/** Tests that speak HTTP to the portal, each from its own client address; no browser is started. */
export const httpTest = base.extend({
  extraHTTPHeaders: async ({ extraHTTPHeaders }, use, testInfo) => {
    await use({ ...extraHTTPHeaders, 'X-Forwarded-For': clientAddress(testInfo) });
  },
});
