import type { APIRequestContext } from '@playwright/test';
import { type HTMLElement, parse } from 'node-html-parser';
import { expect } from '@playwright/test';

/** A page as the server renders it: what every visitor, script or not, receives first. */
export interface RenderedPage {
  status: number;
  /** The path asked for, as sent (percent-encoded where it was). */
  path: string;
  document: HTMLElement;
  title: string;
  /** The text of the element with this data-testid, or null when the page has none. */
  byTestId(testId: string): string | null;
  has(testId: string): boolean;
  attribute(selector: string, name: string): string | undefined;
}

/** Fetches a page without following redirects, optionally with a session cookie, and parses it. */
export async function renderedPage(request: APIRequestContext, path: string, options: { token?: string } = {}): Promise<RenderedPage> {
  const headers: Record<string, string> = options.token ? { cookie: `token=${encodeURIComponent(options.token)}` } : {};
  const response = await request.get(path, { maxRedirects: 0, headers });
  const document = parse(await response.text());
  const find = (testId: string) => document.querySelector(`[data-testid="${testId}"]`);
  return {
    status: response.status(),
    path: new URL(response.url()).pathname,
    document,
    title: document.querySelector('title')?.text ?? '',
    byTestId: (testId) => find(testId)?.text ?? null,
    has: (testId) => find(testId) !== null,
    attribute: (selector, name) => document.querySelector(selector)?.getAttribute(name),
  };
}

/** The canonical URL and the hreflang alternates (en, zh-CN, x-default) of a page at `path` (no prefix). */
export function expectAlternates(page: RenderedPage, baseURL: string, locale: 'en' | 'zh-CN', path: string) {
  const at = (prefix: string) => baseURL + (path === '/' ? prefix || '/' : prefix + path);
  expect(page.attribute('link[rel="canonical"]', 'href')).toBe(at(locale === 'en' ? '' : '/zh-CN'));
  expect(page.attribute('link[rel="alternate"][hreflang="en"]', 'href')).toBe(at(''));
  expect(page.attribute('link[rel="alternate"][hreflang="zh-CN"]', 'href')).toBe(at('/zh-CN'));
  expect(page.attribute('link[rel="alternate"][hreflang="x-default"]', 'href')).toBe(at(''));
}
