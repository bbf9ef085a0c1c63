import { readFile } from 'node:fs/promises';
import { call, newGuest, newMember, uniqueUsername } from '../../support/accounts.ts';
import { openRunDatabase } from '../../support/run-database.ts';
import { useSession } from '../browser-session.ts';
import { apiData } from '../catalogue/helpers.ts';
import { expect, test } from '../fixtures.ts';

// A developer's statistics (decision 101): after a guest plays the developer's game, the
// Studio's statistics page shows the play, in English and in Chinese, with charts that load on
// that page only, and the CSV downloads.

// Breakout: no other journey changes it (the Console's journey unpublishes Sudoku for a moment).
const GAME = 'breakout';
const today = () => new Date().toISOString().slice(0, 10);

test.describe('a developer’s statistics', { tag: '@db' }, () => {
  test('a developer opens the statistics of their game after a guest played it and sees the play, in both languages', async ({
    browser,
    page,
    request,
    baseURL,
  }) => {
    test.slow();
    const developer = await newMember(request, uniqueUsername('dev'), 'Harbour-Lantern-Tricky-9');
    const { id: gameId } = await apiData<{ id: number }>(request, `/app/info/?slug=${GAME}`);
    // Creating a game in the Studio is another page's work: the demo game is given to the developer here.
    const database = await openRunDatabase();
    try {
      const now = new Date().toISOString();
      await database.db
        .insertInto('developer_profiles')
        .values({ user_id: developer.userInfo.uid, studio_name: 'Sweep Studio', contact_email: 'dev@sweep.test', created_at: now, updated_at: now })
        .execute();
      await database.db.updateTable('apps').set({ developer_user_id: developer.userInfo.uid }).where('id', '=', gameId).execute();
    } finally {
      await database.close();
    }
    const playsToday = async () => {
      const { status, data } = await call<{ daily: Array<{ day: string; plays: number }> }>(request, 'GET', `/studio/games/${gameId}/stats?days=7`, {
        token: developer.token,
      });
      expect(status).toBe(200);
      return data.daily.find((day) => day.day === today())?.plays ?? 0;
    };
    const before = await playsToday();

    // A guest plays the game in a browser of their own; leaving the page sends the visit's figures.
    const guest = await newGuest(request);
    const guestContext = await browser.newContext();
    await useSession(guestContext, baseURL!, guest.token);
    const guestPage = await guestContext.newPage();
    await guestPage.goto(`/en/play/${GAME}`);
    await expect(guestPage.getByTestId('game-loading')).toBeHidden({ timeout: 20_000 });
    await guestPage.goto('/en');
    await expect
      .poll(async () => (await call<{ items: unknown[] }>(request, 'GET', `/tracking/game-sessions/${gameId}`, { token: guest.token })).data.items.length)
      .toBeGreaterThan(0);
    await guestContext.close();
    expect(await playsToday()).toBeGreaterThan(before);

    // The charts' code is not part of other pages.
    const scripts: string[] = [];
    page.on('request', (req) => {
      if (req.resourceType() === 'script') scripts.push(req.url());
    });
    await useSession(page.context(), baseURL!, developer.token);
    await page.goto('/en');
    await expect(page.getByRole('main')).toBeVisible();
    expect(scripts.filter((url) => url.includes('studio-stats-charts'))).toEqual([]);

    await page.goto(`/en/studio/games/${gameId}/stats?days=7`);
    await expect(page.getByRole('heading', { name: 'Statistics' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Last 7 days' })).toHaveAttribute('aria-current', 'page');
    const todayRow = page.getByRole('table', { name: 'Figures per day' }).getByRole('row').nth(1);
    await expect(todayRow.getByRole('rowheader')).toHaveText(new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date()));
    const plays = Number((await todayRow.getByRole('cell').first().textContent())!.replaceAll(',', ''));
    expect(plays).toBeGreaterThan(before);
    await expect(page.getByTestId('stats-charts')).toBeVisible();
    await expect(page.getByTestId('stats-charts').locator('.recharts-surface').first()).toBeVisible();
    expect(scripts.some((url) => url.includes('studio-stats-charts'))).toBe(true);

    // The range switcher reloads the figures for 30 days.
    await page.getByRole('link', { name: 'Last 30 days' }).click();
    await expect(page).toHaveURL(/\?days=30$/);
    await expect(page.getByRole('table', { name: 'Figures per day' }).getByRole('row')).toHaveCount(31);

    // The CSV export downloads with a header row and today's plays.
    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download CSV' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(new RegExp(`^game-${gameId}-stats-.*\\.csv$`));
    const csv = await readFile((await download.path())!, 'utf8');
    const lines = csv.split('\r\n');
    expect(lines[0]).toMatch(/^date,game,item_sku,/);
    expect(lines.find((line) => line.startsWith(today()))).toMatch(new RegExp(`^${today()},Breakout,,,,${plays},`));

    // The same page in Chinese: texts, dates and numbers in the page's language.
    await page.goto(`/zh-CN/studio/games/${gameId}/stats?days=7`);
    await expect(page.getByRole('heading', { name: '统计' })).toBeVisible();
    await expect(page.getByRole('link', { name: '最近 7 天' })).toHaveAttribute('aria-current', 'page');
    const zhRow = page.getByRole('table', { name: '每日数据' }).getByRole('row').nth(1);
    await expect(zhRow.getByRole('rowheader')).toHaveText(new Intl.DateTimeFormat('zh-CN', { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date()));
    await expect(page.getByText('下载 CSV')).toBeVisible();
    await expect(page.getByTestId('stats-charts')).toContainText('每日游玩次数与玩家数');
  });

  test('the statistics page is not found for another member', async ({ page, request, baseURL, problems }) => {
    const stranger = await newMember(request, uniqueUsername('other'), 'Harbour-Lantern-Tricky-9');
    const { id: gameId } = await apiData<{ id: number }>(request, `/app/info/?slug=${GAME}`);
    await useSession(page.context(), baseURL!, stranger.token);
    problems.allow('404');
    const response = await page.goto(`/en/studio/games/${gameId}/stats`);
    expect(response?.status()).toBe(404);
  });
});
