import { expect, test } from '../fixtures.ts';
import { apiData } from './helpers.ts';

test.describe('search', { tag: '@db' }, () => {
  test('the header box suggests games as you type, debounced, and opens results or a game', async ({ page }) => {
    // A journey over several pages.
    test.slow();
    const asked: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname === '/serve/api/app/list/' && url.searchParams.has('q')) asked.push(url.searchParams.get('q')!);
    });
    await page.goto('/');
    const input = page.getByTestId('header-search-input');
    await input.pressSequentially('2048', { delay: 20 });
    const suggestions = page.getByRole('listbox');
    await expect(suggestions.getByRole('option').first()).toContainText('2048');
    await expect(suggestions.getByRole('option').last()).toHaveText('See all results for “2048”');
    // Keys typed faster than the debounce share a request: fewer requests than keys, the last for the whole text.
    expect(asked.length).toBeLessThan(4);
    expect(asked.at(-1)).toBe('2048');

    await input.press('Enter');
    await expect(page).toHaveURL('/search?q=2048');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Results for “2048”');
    await expect(page.getByTestId('app-grid').getByTestId('app-tile')).toHaveCount(1);
    await expect(page.getByTestId('app-tile')).toHaveAttribute('href', '/app/2048');

    // Choosing a suggestion with the keyboard opens the game's page.
    await input.fill('');
    await input.pressSequentially('20', { delay: 40 });
    await expect(suggestions.getByRole('option').first()).toContainText('2048');
    await input.press('ArrowDown');
    await expect(input).toHaveAttribute('aria-activedescendant', /option-0$/);
    await input.press('Enter');
    await expect(page).toHaveURL('/app/2048');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('2048');
  });

  test('a new key press cancels the request in flight', async ({ page }) => {
    await page.goto('/');
    const gate = Promise.withResolvers<void>();
    const held = Promise.withResolvers<void>();
    const aborted: string[] = [];
    page.on('requestfailed', (request) => aborted.push(new URL(request.url()).searchParams.get('q') ?? ''));
    // The answer for "sn" is held back, so that it is still in flight when the next keys come.
    await page.route(
      (url) => url.pathname === '/serve/api/app/list/' && url.searchParams.get('q') === 'sn',
      async (route) => {
        held.resolve();
        await gate.promise;
        await route.continue().catch(() => undefined);
      },
    );
    const input = page.getByTestId('header-search-input');
    await input.pressSequentially('sn');
    await held.promise;
    await input.pressSequentially('ake');
    await expect(page.getByRole('listbox').getByRole('option').first()).toContainText('Snake');
    await expect.poll(() => aborted).toContain('sn');
    gate.resolve();
  });

  test('Chinese search finds a title by two characters, in the header and on the results page', async ({ page, request }) => {
    const snake = await apiData<{ title: string }>(request, '/app/info/?slug=snake', 'zh-CN');
    const two = [...snake.title].slice(0, 2).join('');
    await page.goto('/zh-CN');
    await page.getByTestId('header-search-input').pressSequentially(two, { delay: 40 });
    await expect(page.getByRole('listbox').getByRole('option').filter({ hasText: snake.title })).toHaveCount(1);
    await page.getByTestId('header-search-input').press('Enter');
    await expect(page).toHaveURL(`/zh-CN/search?q=${encodeURIComponent(two)}`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`“${two}”的搜索结果`);
    await expect(page.getByTestId('app-grid').getByTestId('app-tile').filter({ hasText: snake.title })).toHaveAttribute('href', '/zh-CN/app/snake');

    // The English site finds it too: search covers both locales.
    const response = await page.goto(`/search?q=${encodeURIComponent(two)}`);
    expect(await response!.text()).toContain('href="/app/snake"');
  });

  test('the results page follows the text as it is typed and says when nothing matches', async ({ page }) => {
    await page.goto('/search');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Search');
    await expect(page.getByTestId('tag-list').getByRole('link').first()).toBeVisible();
    const input = page.getByTestId('search-page-input');
    await input.pressSequentially('snak', { delay: 30 });
    await expect(page).toHaveURL('/search?q=snak');
    await expect(page.getByTestId('app-tile').first()).toHaveAttribute('href', '/app/snake');
    await input.pressSequentially('qqq', { delay: 30 });
    await expect(page.getByTestId('no-results')).toContainText('No games or apps match “snakqqq”.');
    await expect(input).toHaveValue('snakqqq');
  });

  test('on a slow connection every key typed while results load is kept, and the last text is searched', async ({ page }) => {
    test.slow();
    await page.goto('/search');
    const input = page.getByTestId('search-page-input');
    await expect(input).toBeEditable();
    // A slow connection, made exact: the results for "snak" are held until the next key has been
    // typed, and land before that key's own search starts (within the 250 ms debounce).
    const asked = Promise.withResolvers<void>();
    const release = Promise.withResolvers<void>();
    await page.route(
      (url) => url.pathname.startsWith('/search') && url.searchParams.get('q') === 'snak',
      async (route) => {
        asked.resolve();
        await release.promise;
        await route.continue().catch(() => undefined);
      },
    );
    await input.pressSequentially('snak', { delay: 30 });
    await asked.promise;
    await input.press('q');
    release.resolve();
    await expect(page).toHaveURL(/q=snak/);
    // The results for "snak" have landed; the key typed meanwhile is still there, and searched.
    await expect(page.getByTestId('search-heading')).toContainText('snak');
    await expect(input).toHaveValue('snakq');
    await expect(page).toHaveURL('/search?q=snakq', { timeout: 15_000 });
    await input.pressSequentially('qq', { delay: 30 });
    await expect(page).toHaveURL('/search?q=snakqqq', { timeout: 15_000 });
    await expect(page.getByTestId('no-results')).toContainText('No games or apps match “snakqqq”.', { timeout: 15_000 });
    await expect(input).toHaveValue('snakqqq');
  });

  test('on a phone the search button opens the box over the header @mobile', async ({ page, isMobile }) => {
    test.skip(!isMobile, 'a phone layout');
    await page.goto('/');
    const input = page.getByTestId('header-search-input');
    await expect(input).toBeHidden();
    await page.getByTestId('header-search').getByRole('button', { name: 'Search games and apps' }).click();
    await expect(input).toBeFocused();
    await input.pressSequentially('snake', { delay: 30 });
    await page.getByRole('listbox').getByRole('option').first().click();
    await expect(page).toHaveURL('/app/snake');
    await expect(input).toBeHidden();
  });
});
