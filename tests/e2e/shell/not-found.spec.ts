import { expect, test } from '../fixtures.ts';
import { hydrated, inVariant, LOCALE_VARIANTS, PRODUCT, TEXT } from './helpers.ts';

/** Spec section 5, each rule with valid and invalid values; paths without locale prefix. */
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
      test(`invalid parameter ${url}: 404 "Page Not Found: {path}" @mobile`, async ({ page, problems }) => {
        problems.allow('status of 404');
        const response = await page.goto(url);
        expect(response?.status()).toBe(404);
        const pathname = new URL(page.url()).pathname;
        await expect(page.getByTestId('not-found-message')).toHaveText(text.invalid(pathname));
        await expect(page.getByRole('heading', { level: 1 })).toHaveText(text.notFound);
        await expect(page.getByText(text.notFoundDescription)).toBeVisible();
        await expect(page).toHaveTitle(`${text.notFound} | ${PRODUCT}`);
      });
    }

    for (const path of UNMATCHED) {
      const url = inVariant(variant, path);
      test(`unmatched route ${url}: 404 "Page not found: {path}" @mobile`, async ({ page, problems }) => {
        problems.allow('status of 404');
        const response = await page.goto(url);
        expect(response?.status()).toBe(404);
        await expect(page.getByTestId('not-found-message')).toHaveText(text.unmatched(url));
        await expect(page.getByRole('heading', { level: 1 })).toHaveText(text.notFound);
        await expect(page).toHaveTitle(`${text.notFound} | ${PRODUCT}`);
      });
    }

    for (const path of VALID_PARAMETER) {
      const url = inVariant(variant, path);
      test(`valid parameter ${url}: never the invalid-parameter 404`, async ({ page, problems }) => {
        problems.allow('status of 404');
        const response = await page.goto(url);
        const message = page.getByTestId('not-found-message');
        if (response?.status() === 404) await expect(message).toHaveText(text.unmatched(new URL(page.url()).pathname));
        else await expect(message).toHaveCount(0);
      });
    }
  }

  test('an unsupported locale prefix is an unmatched route', async ({ page, problems }) => {
    problems.allow('status of 404');
    for (const url of ['/fr', '/fr/about', '/zh-cn/about', '/de/app/snake!', '/ja/settings']) {
      const response = await page.goto(url);
      expect(response?.status(), url).toBe(404);
      await expect(page.getByTestId('not-found-message'), url).toHaveText(TEXT.en.unmatched(url));
    }
  });

  test('the not-found page clears the error and goes home, keeping the locale @mobile', async ({ page, problems }) => {
    problems.allow('status of 404');
    await page.goto('/zh-CN/nothing-here');
    await hydrated(page);
    await expect(page.getByText(TEXT['zh-CN'].notFoundDescription)).toBeVisible();
    await page.getByRole('button', { name: TEXT['zh-CN'].home }).click();
    await expect(page).toHaveURL('/zh-CN');
    await expect(page.getByTestId('not-found')).toHaveCount(0);

    await page.goto('/app/bad!');
    await hydrated(page);
    await page.getByRole('button', { name: TEXT.en.home }).click();
    await expect(page).toHaveURL('/');
    await expect(page.getByTestId('not-found')).toHaveCount(0);
  });

  test('a client-side navigation to a missing page shows the same page with the right message', async ({ page, problems }) => {
    problems.allow('status of 404');
    await page.goto('/about');
    await hydrated(page);
    await page.evaluate(() => (window as unknown as { __reactRouterDataRouter: { navigate(to: string): Promise<void> } }).__reactRouterDataRouter.navigate('/article/post/abc'));
    await expect(page.getByTestId('not-found-message')).toHaveText(TEXT.en.invalid('/article/post/abc'));
    await expect(page).toHaveTitle(`${TEXT.en.notFound} | ${PRODUCT}`);
  });
});
