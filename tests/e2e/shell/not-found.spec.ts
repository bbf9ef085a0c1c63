import { expect, test } from '../fixtures.ts';
import { PRODUCT, TEXT } from '../../support/site.ts';
import { hydrated } from './helpers.ts';

// The rules themselves (statuses and messages for every path) are checked over HTTP in
// tests/pages/not-found.spec.ts; here, what a visitor does on the page.
test.describe('not-found page in the browser', () => {
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
    await page.evaluate(() =>
      (window as unknown as { __reactRouterDataRouter: { navigate(to: string): Promise<void> } }).__reactRouterDataRouter.navigate('/article/post/abc'),
    );
    await expect(page.getByTestId('not-found-message')).toHaveText(TEXT.en.invalid('/article/post/abc'));
    await expect(page).toHaveTitle(`${TEXT.en.notFound} | ${PRODUCT}`);
  });
});
