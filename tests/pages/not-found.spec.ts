import { expect } from '@playwright/test';
import { httpTest as test, inVariant, LOCALE_VARIANTS, PRODUCT, TEXT } from '../support/site.ts';
import { renderedPage } from './html.ts';

// Spec section 5, each rule with valid and invalid values, checked in the HTML the server sends.
// Leaving the not-found page and client-side navigations to it are browser journeys (tests/e2e/shell).

/** Paths without locale prefix. */
const INVALID_PARAMETER = [
  '/app/snake!',
  '/app/snake%20game',
  '/app/%E8%B4%AA%E5%90%83%E8%9B%87',
  '/play/snake.html',
  '/play/a%2Bb',
  '/categories/puzzle!',
  '/categories/a.b',
  '/article/ab',
  '/article/abcdefghijklmnopqrstu',
  '/article/news1',
  '/article/news/es',
  '/article/ab/1001',
  '/article/news/x/1001',
  '/article/news/esports2/1001',
  '/article',
  '/article/news/esports/1005/extra',
  '/article/post/12x',
  '/article/post/-1',
];

/** Valid by the rules (whether or not the content exists): never the invalid-parameter 404. */
const VALID_PARAMETER = [
  '/app/Snake_2-x',
  '/play/tic_tac_toe',
  '/categories/Puzzle-2',
  '/article/news',
  '/article/abc',
  '/article/abcdefghijklmnopqrst',
  '/article/news/esports',
  '/article/news/1001',
  '/article/news/esports/1005',
  '/article/post/1001',
  '/article/post/007',
];

const UNMATCHED = ['/nothing-here', '/about/more', '/user/profile/unknown', '/app', '/settings/x'];

test.describe('not-found rules', () => {
  for (const variant of LOCALE_VARIANTS) {
    const text = TEXT[variant.locale];

    for (const path of INVALID_PARAMETER) {
      const url = inVariant(variant, path);
      test(`invalid parameter ${url}: 404 "Page Not Found: {path}"`, async ({ request }) => {
        const page = await renderedPage(request, url);
        expect(page.status).toBe(404);
        expect(page.byTestId('not-found-message')).toBe(text.invalid(page.path));
        expect(page.document.querySelector('h1')?.text).toBe(text.notFound);
        expect(page.document.text).toContain(text.notFoundDescription);
        expect(page.title).toBe(`${text.notFound} | ${PRODUCT}`);
      });
    }

    for (const path of UNMATCHED) {
      const url = inVariant(variant, path);
      test(`unmatched route ${url}: 404 "Page not found: {path}"`, async ({ request }) => {
        const page = await renderedPage(request, url);
        expect(page.status).toBe(404);
        expect(page.byTestId('not-found-message')).toBe(text.unmatched(url));
        expect(page.document.querySelector('h1')?.text).toBe(text.notFound);
        expect(page.title).toBe(`${text.notFound} | ${PRODUCT}`);
      });
    }

    for (const path of VALID_PARAMETER) {
      const url = inVariant(variant, path);
      test(`valid parameter ${url}: never the invalid-parameter 404`, async ({ request }) => {
        const page = await renderedPage(request, url);
        if (page.status === 404) expect(page.byTestId('not-found-message')).toBe(text.unmatched(page.path));
        else expect(page.has('not-found-message')).toBe(false);
      });
    }
  }

  test('an unsupported locale prefix is an unmatched route', async ({ request }) => {
    for (const url of ['/fr', '/fr/about', '/zh-cn/about', '/de/app/snake!', '/ja/settings']) {
      const page = await renderedPage(request, url);
      expect(page.status, url).toBe(404);
      expect(page.byTestId('not-found-message'), url).toBe(TEXT.en.unmatched(url));
    }
  });
});
