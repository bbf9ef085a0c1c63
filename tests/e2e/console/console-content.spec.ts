import { insertDeveloperGame, insertReviewedBuild } from '../../../server/testing/developer-games.ts';
import { call, newMember, uniqueUsername } from '../../support/accounts.ts';
import { grantOperator } from '../../support/operators.ts';
import { openRunDatabase } from '../../support/run-database.ts';
import { afterDebounce } from '../accounts/helpers.ts';
import { useSession } from '../browser-session.ts';
import { expect, test } from '../fixtures.ts';

const PASSWORD = 'Harbour-Lantern-Tricky-9';
const IMAGE = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="120" height="60"><rect width="120" height="60" fill="#0f766e"/></svg>');

const pad = (n: number) => String(n).padStart(2, '0');
/** A datetime-local value in the browser's time zone (the test runs in the same one). */
function localInput(date: Date): string {
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

test.describe('Console content (decision 099)', { tag: '@db' }, () => {
  test('an operator writes an article in both languages with an image, schedules it, publishes it and reads it; creates a static page the same way; unpublishes a game', async ({
    page,
    context,
    request,
    baseURL,
  }) => {
    test.slow();
    const operator = await newMember(request, uniqueUsername('op'), PASSWORD);
    await grantOperator(operator.userInfo.uid);
    await useSession(context, baseURL!, operator.token);

    // Write: column, slug, a publish time tomorrow, the English text with an image, the Chinese text.
    await page.goto('/console/articles');
    await page.getByTestId('article-new').click();
    await expect(page).toHaveURL(/\/console\/articles\/new$/);
    const slug = `lantern-${Date.now()}`;
    await page.getByTestId('article-column').selectOption('guides');
    await page.getByTestId('article-slug').fill(slug);
    await page.getByTestId('title-en').fill('Lantern festival guide');
    await page.getByTestId('summary-en').fill('How to light every lantern.');
    await page.getByTestId('markdown-en').fill('## Lanterns\n\nLight them **in order**.\n\n<script>alert(1)</script>\n');
    await page.getByTestId('markdown-image-en').setInputFiles({ name: 'lantern.svg', mimeType: 'image/svg+xml', buffer: IMAGE });
    await expect(page.getByTestId('markdown-en')).toHaveValue(/!\[lantern\]\(\/uploads\/articles\/lantern-120x60-[0-9a-f]{16}\.svg\)/);
    const preview = page.getByTestId('preview-en');
    await expect(preview.locator('strong')).toHaveText('in order');
    await expect(preview.locator('img[src^="/uploads/articles/lantern-"]')).toBeVisible();
    await expect(preview.locator('script')).toHaveCount(0);

    await page.getByTestId('tab-zh-CN').click();
    await page.getByTestId('add-zh-CN').click();
    await page.getByTestId('title-zh-CN').fill('灯会指南');
    await page.getByTestId('summary-zh-CN').fill('如何点亮每一盏灯。');
    await page.getByTestId('markdown-zh-CN').fill('## 灯笼\n\n**按顺序**点亮。');
    await expect(page.getByTestId('preview-zh-CN').locator('strong')).toHaveText('按顺序');

    // Scheduled: saved, but readers do not see it yet.
    await page.getByTestId('article-save').click();
    await expect(page).toHaveURL(/\/console\/articles\/\d+$/);
    const id = Number(new URL(page.url()).pathname.split('/').pop());
    await expect(page.getByTestId('article-status')).toContainText('Scheduled');
    expect((await request.get(`/article/guides/${id}`)).status()).toBe(404);
    expect((await call(request, 'GET', `/article/info/${id}`)).status).toBe(404);

    // Published now: the operator follows the link and reads it as readers do.
    await page.getByTestId('article-publish-now').click();
    await expect(page.getByTestId('article-status')).toContainText('Published');
    await page.getByTestId('article-view').click();
    await expect(page).toHaveURL(new RegExp(`/article/guides/${id}$`));
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Lantern festival guide');
    const body = page.getByTestId('article-body');
    await expect(body.locator('strong')).toHaveText('in order');
    await expect(body.locator('img[src^="/uploads/articles/lantern-"]')).toBeVisible();
    await expect(body.locator('script')).toHaveCount(0);
    await page.goto(`/zh-CN/article/guides/${id}`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('灯会指南');

    // A static page: created at /page/<slug>, scheduled like the article, then published now.
    await page.goto('/console/pages');
    await page.getByTestId('page-new').click();
    await expect(page).toHaveURL(/\/console\/pages\/new$/);
    const pageSlug = `lantern-rules-${Date.now()}`;
    await page.getByTestId('page-slug').fill(pageSlug);
    await page.getByTestId('page-publish-at').fill(localInput(new Date(Date.now() + 24 * 3600_000)));
    await page.getByTestId('page-title-en').fill('Lantern rules');
    await page.getByTestId('markdown-en').fill('Carry your lantern **with care**.');
    await expect(page.getByTestId('page-save')).toHaveText('Schedule');
    await page.getByTestId('page-save').click();
    await expect(page).toHaveURL(new RegExp(`/console/pages/${pageSlug}$`));
    await expect(page.getByTestId('page-status')).toContainText('Scheduled');
    expect((await request.get(`/page/${pageSlug}`)).status()).toBe(404);
    await page.getByTestId('page-publish-now').click();
    await expect(page.getByTestId('page-status')).toContainText('Published');
    await page.getByTestId('page-view').click();
    await expect(page).toHaveURL(new RegExp(`/page/${pageSlug}$`));
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Lantern rules');
    await expect(page.getByTestId('static-page').locator('strong')).toHaveText('with care');
    // One address per page: the fixed pages are not also under /page/.
    expect((await request.get('/page/about')).status()).toBe(404);

    // A game unpublished in the Console is gone from search at once; it comes back when published again.
    // Sudoku: no other journey plays it, so taking it away for a moment disturbs none.
    try {
      await page.goto('/console/games');
      await page.getByTestId('console-games-search').fill('sudoku');
      const row = page.locator('[data-testid="console-game"][data-slug="sudoku"]');
      await expect(row).toHaveCount(1);
      await page.getByTestId('console-games-reason').fill('Checking a report');
      await row.getByTestId('console-game-publish').click();
      await expect(row).toContainText('Unpublished');
      await page.goto('/search?q=sudoku');
      await expect(page.getByTestId('no-results')).toBeVisible();
      expect((await request.get('/app/sudoku')).status()).toBe(404);
      // Its files on the portal's own origin too (the thumbnail, the offline copy); the shared scripts stay.
      expect((await request.get('/games/sudoku/index.html')).status()).toBe(404);
      expect((await request.get('/games/shared/game-shell.js')).status()).toBe(200);
    } finally {
      const { data } = await call<{ items: Array<{ id: number; published: boolean }> }>(request, 'GET', '/console/games/?q=sudoku', {
        token: operator.token,
      });
      for (const game of data.items) {
        if (!game.published)
          await call(request, 'PATCH', `/console/games/${game.id}`, { token: operator.token, body: { published: true, reason: 'test done' } });
      }
    }
    await page.goto('/search?q=sudoku');
    await expect(page.getByTestId('app-grid').getByTestId('app-tile')).toHaveCount(1);
    expect((await request.get('/games/sudoku/index.html')).status()).toBe(200);
  });

  test("an operator rolls a developer's game back to its previous build from the games page, with the keyboard", async ({
    page,
    context,
    request,
    baseURL,
  }) => {
    const developer = await newMember(request, uniqueUsername('dev'), PASSWORD);
    const operator = await newMember(request, uniqueUsername('op'), PASSWORD);
    await grantOperator(operator.userInfo.uid);
    const database = await openRunDatabase();
    const now = new Date().toISOString();
    const title = `Rollback Run ${Date.now()}`;
    let game: { id: number; slug: string };
    const builds: number[] = [];
    try {
      await database.db
        .insertInto('developer_profiles')
        .values({ user_id: developer.userInfo.uid, studio_name: 'Rollback Works', contact_email: 'dev@rollback.test', created_at: now, updated_at: now })
        .execute();
      game = await insertDeveloperGame(database.db, developer.userInfo.uid, { title, thumbnail: '/games/snake/thumbnail.svg' });
      for (const version of [1, 2]) {
        const row = await insertReviewedBuild(database.db, {
          appId: game.id,
          version,
          status: 'approved',
          uploadedBy: developer.userInfo.uid,
          reviewedBy: operator.userInfo.uid,
        });
        builds.push(row.id);
      }
      await database.db.updateTable('apps').set({ live_build_id: builds[1]! }).where('id', '=', game.id).execute();
    } finally {
      await database.close();
    }

    await useSession(context, baseURL!, operator.token);
    await page.goto('/console/games');
    await page.getByTestId('console-games-search').fill(game.slug);
    const row = page.locator(`[data-testid="console-game"][data-slug="${game.slug}"]`);
    await expect(row).toContainText('Live: version 2');
    await page.getByTestId('console-games-reason').fill('Version 2 crashes on start');
    const rollback = row.getByTestId('console-game-rollback');
    await expect(rollback).toHaveText('Roll back to version 1');

    // Asked first: Escape answers no and nothing changes.
    await rollback.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByTestId('confirm-dialog');
    await expect(dialog).toContainText(`Roll back ${title}?`);
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(row).toContainText('Live: version 2');

    // Confirmed with the keyboard alone: version 1 is live, and no earlier build is left to go back to.
    // A press within 500 ms of the last one is ignored (the pending-action debounce).
    await rollback.focus();
    await afterDebounce(page);
    await page.keyboard.press('Enter');
    await expect(dialog).toBeVisible();
    await page.getByTestId('confirm-accept').focus();
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('toast').getByText(`${title} is back on version 1.`)).toBeVisible();
    await expect(row).toContainText('Live: version 1');
    await expect(row.getByTestId('console-game-rollback')).toHaveCount(0);
    const audit = await call<{ entries: Array<{ action: string; detail: Record<string, unknown> }> }>(
      request,
      'GET',
      `/console/audit/?target_type=game&target_id=${game.id}`,
      { token: operator.token },
    );
    expect(audit.data.entries.map((entry) => [entry.action, entry.detail.reason])).toEqual([['build.rollback', 'Version 2 crashes on start']]);

    // In Chinese too.
    await page.goto('/zh-CN/console/games');
    await page.getByTestId('console-games-search').fill(game.slug);
    await expect(page.locator(`[data-testid="console-game"][data-slug="${game.slug}"]`)).toContainText('线上：版本 1');
  });
});
