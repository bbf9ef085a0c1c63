import { AxeBuilder } from '@axe-core/playwright';
import type { Browser, Page } from '@playwright/test';
import { newGuest } from '../../support/accounts.ts';
import { useSession } from '../browser-session.ts';
import { expect, hostedGameFrame, test } from '../fixtures.ts';

// Leaderboards and achievements (decision 092): Snake records its fruit and unlocks "First bite"
// through the portal's play page, and the app page, open meanwhile in an anonymous visitor's
// browser, shows the score and the achievement's new count without a reload, in both languages.

/** A fresh browser's first game waits for its guest account (see tests/e2e/catalogue/play.spec.ts). */
const FIRST_GAME_MS = 20_000;
/** The app page asks again every 5 seconds; the API shares its answer for 5 seconds more. */
const UPDATE_MS = 20_000;

/** Plays one game of Snake as a new guest: it runs into the wall, and the game records the result. Answers the guest's nickname and score. */
async function playSnake(page: Page, baseURL: string, request: Parameters<typeof newGuest>[0]): Promise<{ nickname: string; score: number }> {
  const guest = await newGuest(request);
  await useSession(page.context(), baseURL, guest.token);
  await page.goto('/play/snake');
  await expect(page.getByTestId('game-loading')).toBeHidden({ timeout: FIRST_GAME_MS });
  const frame = await hostedGameFrame(page, 'snake');
  const body = frame.locator('body');
  await expect(body).toHaveAttribute('data-state', 'ready');
  // A tap on the field starts the game; the snake heads right into the wall.
  await frame.locator('#overlay').click();
  await expect(body).toHaveAttribute('data-state', 'over', { timeout: 15_000 });
  await expect(body).toHaveAttribute('data-recorded', 'saved');
  return { nickname: guest.userInfo.nickname!, score: Number(await body.getAttribute('data-score')) };
}

async function anonymousVisitor(browser: Browser, baseURL: string): Promise<Page> {
  const context = await browser.newContext({ baseURL });
  return context.newPage();
}

const players = (viewer: Page) => viewer.getByTestId('achievement-first-game').getByTestId('achievement-players');
const count = async (viewer: Page) => Number((await players(viewer).textContent())!.replace(/\D/g, ''));

test.describe('leaderboards and achievements', { tag: '@db' }, () => {
  test('a score and an achievement recorded by Snake appear on its app page while it is open, in English and Chinese', async ({
    page,
    browser,
    request,
    baseURL,
  }) => {
    test.slow();
    const viewer = await anonymousVisitor(browser, baseURL!);
    await viewer.goto('/app/snake');
    const board = viewer.getByTestId('board-fruit');
    await expect(viewer.getByRole('heading', { name: 'Leaderboards' })).toBeVisible();
    await expect(board.getByRole('heading', { name: 'Fruit eaten' })).toBeVisible();
    await expect(board.getByRole('tab', { name: 'All time' })).toHaveAttribute('aria-selected', 'true');
    const before = await count(viewer);

    const first = await playSnake(page, baseURL!, request);
    // No reload: the open page polls while it is visible.
    const row = board.getByRole('row').filter({ hasText: first.nickname });
    await expect(row).toBeVisible({ timeout: UPDATE_MS });
    await expect(row.getByRole('cell').nth(1)).toContainText('Guest');
    await expect(row.getByRole('cell').last()).toHaveText(String(first.score));
    await expect(players(viewer)).toHaveText(before + 1 === 1 ? '1 player has it' : `${before + 1} players have it`, { timeout: UPDATE_MS });
    await expect(board.getByRole('table')).toHaveAccessibleName('Fruit eaten, All time');
    const axe = await new AxeBuilder({ page: viewer }).include('[data-testid="leaderboards"]').include('[data-testid="achievements"]').analyze();
    expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
    // The period tabs: today's board has the score too, by keyboard.
    await board.getByRole('tab', { name: 'All time' }).focus();
    await viewer.keyboard.press('Home');
    await expect(board.getByRole('tab', { name: 'Today' })).toHaveAttribute('aria-selected', 'true');
    await expect(board.getByRole('tab', { name: 'Today' })).toBeFocused();
    await expect(board.getByRole('table')).toHaveAccessibleName('Fruit eaten, Today');
    await expect(board.getByRole('row').filter({ hasText: first.nickname })).toBeVisible();

    // In Chinese, the same page and again an update without a reload.
    await viewer.goto('/zh-CN/app/snake');
    const zhBoard = viewer.getByTestId('board-fruit');
    await expect(viewer.getByRole('heading', { name: '排行榜' })).toBeVisible();
    await expect(zhBoard.getByRole('heading', { name: '吃到的果子' })).toBeVisible();
    await expect(zhBoard.getByRole('tab', { name: '总榜' })).toHaveAttribute('aria-selected', 'true');
    await expect(zhBoard.getByRole('row').filter({ hasText: first.nickname }).getByRole('cell').nth(1)).toContainText('游客');
    await expect(viewer.getByTestId('achievement-first-game')).toContainText('初尝一口');
    const zhBefore = await count(viewer);
    expect(zhBefore).toBe(before + 1);
    const second = await playSnake(page, baseURL!, request);
    await expect(zhBoard.getByRole('row').filter({ hasText: second.nickname })).toBeVisible({ timeout: UPDATE_MS });
    await expect(players(viewer)).toHaveText(`${zhBefore + 1} 位玩家已获得`, { timeout: UPDATE_MS });

    // My area lists the achievement for the player who unlocked it.
    await page.goto('/user');
    await expect(page.getByTestId('my-achievements-snake').getByTestId('my-achievement-first-game')).toContainText('First bite', { timeout: 15_000 });
    await viewer.context().close();
  });
});
