import type { APIRequestContext, Page } from '@playwright/test';
import { type Locale, localePath } from '../../../common/locales.ts';
import { SERVER_STORAGE_ENV } from '../../../playwright.config.ts';
import { loadConfig } from '../../../server/config.ts';
import { fileStoragesFor } from '../../../server/services/outside-systems.ts';
import { insertDeveloperGame, insertReviewedBuild, sdkGameEntries } from '../../../server/testing/developer-games.ts';
import { call, newMember, uniqueUsername } from '../../support/accounts.ts';
import { openRunDatabase } from '../../support/run-database.ts';
import { expect as baseExpect, hostedGameFrame, test } from '../fixtures.ts';
import { hydrated } from '../shell/helpers.ts';

// Each preview loads a build in a frame from a host of its own.
const expect = baseExpect.configure({ timeout: 20_000 });

/** The builds' storage as the server has it: its folder, or the S3 stand-in's bucket with E2E_STORAGE=s3. */
const buildFiles = fileStoragesFor(loadConfig({ APP_ENV: 'test', ...SERVER_STORAGE_ENV })).buildFiles;

/** A build's files where the games origin serves builds from. */
async function writeBuildFiles(gameId: number, buildId: number, label: string): Promise<void> {
  for (const entry of sdkGameEntries(label)) await buildFiles.put(`${gameId}/${buildId}/${entry.name}`, Buffer.from(entry.content ?? ''));
}

/**
 * A studio's game with a build just uploaded, not yet sent for review, and the studio's developer
 * signed in on `page`: the Studio's builds page then lists its preview. A draft (never published)
 * unless `live`: then version 1 is approved and what players get, and the new build is version 2.
 */
async function gameWithNewBuild(request: APIRequestContext, page: Page, baseURL: string, { live = false } = {}) {
  const developer = await newMember(request, uniqueUsername('dev'), 'Harbour-Lantern-Tricky-9');
  const uid = developer.userInfo.uid;
  const database = await openRunDatabase();
  const now = new Date().toISOString();
  await database.db
    .insertInto('developer_profiles')
    .values({ user_id: uid, studio_name: 'Draft Works', contact_email: 'dev@draft.test', created_at: now, updated_at: now })
    .execute();
  // A demo game's image: a live one is listed on every page of the run, whose journeys load every tile.
  const game = await insertDeveloperGame(database.db, uid, { title: 'Draft Run', thumbnail: '/games/snake/thumbnail.svg' });
  if (live) {
    const approved = await insertReviewedBuild(database.db, { appId: game.id, version: 1, status: 'approved', uploadedBy: uid, reviewedBy: uid });
    await writeBuildFiles(game.id, approved.id, 'Live build');
    await database.db.updateTable('apps').set({ published: 1, live_build_id: approved.id }).where('id', '=', game.id).execute();
  }
  const version = live ? 2 : 1;
  const build = await database.db
    .insertInto('game_builds')
    .values({
      app_id: game.id,
      version,
      status: 'uploaded',
      reason: null,
      uploaded_by: uid,
      reviewed_by: null,
      entry_path: 'index.html',
      file_count: 3,
      total_bytes: 200,
      archive_bytes: 200,
      created_at: now,
      submitted_at: null,
      reviewed_at: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await database.close();
  await writeBuildFiles(game.id, build.id, 'Draft build');
  await page.context().addCookies([{ name: 'token', value: encodeURIComponent(developer.token), url: baseURL }]);
  return { developer, game, version };
}

/** The preview link of the Studio's builds page in a locale, as the page gives it. */
async function previewLinkOfStudio(page: Page, locale: Locale, gameId: number, version = 1): Promise<URL> {
  await page.goto(localePath(locale, `/studio/games/${gameId}/builds`));
  await hydrated(page);
  const href = await page.getByTestId(`build-${version}`).getByTestId('preview-link').getAttribute('href');
  return new URL(href!, page.url());
}

/** Waits until the framed build has started: the SDK loaded and the game's script ran. */
async function buildStarted(page: Page): Promise<void> {
  await expect
    .poll(
      () =>
        page
          .frames()
          .find((frame) => frame.url().includes('.previews.localhost:'))
          ?.url() ?? '',
    )
    .toContain('/index.html');
  const frame = page.frames().find((candidate) => candidate.url().includes('.previews.localhost:'))!;
  await expect(frame.locator('#label[data-ready="yes"]')).toHaveText('Draft build');
}

test.describe("a build's preview (decision 119)", () => {
  test('the preview logs no failed request and no console error: nothing of the unpublished game is prefetched, no play is recorded @db', async ({
    page,
    request,
    baseURL,
  }) => {
    test.setTimeout(90_000);
    const { developer, game } = await gameWithNewBuild(request, page, baseURL!);
    const link = await previewLinkOfStudio(page, 'en', game.id);
    const payloads: string[] = [];
    const plays: string[] = [];
    // From the moment the preview's document replaces the Studio's: the Studio's own prefetches,
    // sent while it was still the page, are not the preview's.
    await page.goto(link.href, { waitUntil: 'commit' });
    page.on('request', (sent) => {
      const url = new URL(sent.url());
      if (url.pathname.endsWith('.data')) payloads.push(url.pathname);
      if (url.pathname.startsWith('/serve/api/member/played')) plays.push(`${sent.method()} ${url.pathname}`);
    });
    await expect(page.getByTestId('qa-label')).toHaveText('QA mode');
    await buildStarted(page);
    // The time a link in view takes to be prefetched (a second in view, then an idle moment).
    await page.waitForTimeout(2500);
    expect(payloads).toEqual([]);
    expect(plays).toEqual([]);
    // Unchanged: a play of a game players cannot open is still not counted, whoever sends it.
    expect((await call(request, 'POST', '/member/played/', { token: developer.token, body: { app_id: game.id } })).status).toBe(404);
  });

  for (const locale of ['en', 'zh-CN'] as const) {
    const words = {
      en: {
        qa: 'QA mode',
        notLive: 'Not published yet: players can open its play page once a version is approved.',
        play: 'Open the play page',
        back: 'Back to Draft Run in the Studio',
        title: 'Draft Run',
      },
      'zh-CN': {
        qa: 'QA 模式',
        notLive: '尚未发布：版本通过审核后，玩家才能打开它的游玩页面。',
        play: '打开游玩页面',
        back: '返回开发者工作室中的Draft Run（中文）',
        title: 'Draft Run（中文）',
      },
    }[locale];

    test(`${locale}: on a draft's preview, Back leads to the game's builds in the Studio, and no play page is offered before a version is approved @db @mobile`, async ({
      page,
      request,
      baseURL,
    }) => {
      test.setTimeout(90_000);
      const { game } = await gameWithNewBuild(request, page, baseURL!);
      const label = (await previewLinkOfStudio(page, locale, game.id)).searchParams.get('preview')!;
      await page.goto(`${localePath(locale, `/qa/${game.slug}`)}?preview=${label}`);
      await expect(page.getByTestId('qa-label')).toHaveText(words.qa);
      await buildStarted(page);
      // Players cannot open the game yet: the panel says so instead of linking to a page that is not there.
      await expect(page.getByTestId('qa-not-live')).toHaveText(words.notLive);
      await expect(page.getByRole('link', { name: words.play })).toHaveCount(0);
      const back = page.getByTestId('play-back');
      await expect(back).toHaveAccessibleName(words.back);
      await expect(back).toHaveAttribute('href', localePath(locale, `/studio/games/${game.id}/builds`));
      await back.click();
      await expect(page).toHaveURL(new RegExp(`${localePath(locale, `/studio/games/${game.id}/builds`)}$`));
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(words.title);
      await expect(page.getByTestId('build-1')).toBeVisible();
    });
  }

  test("on a preview of a live game's new build, the play page is still offered and opens the live version @db", async ({ page, request, baseURL }) => {
    test.setTimeout(90_000);
    const { game, version } = await gameWithNewBuild(request, page, baseURL!, { live: true });
    const link = await previewLinkOfStudio(page, 'en', game.id, version);
    await page.goto(link.href);
    await buildStarted(page);
    await expect(page.getByTestId('qa-not-live')).toHaveCount(0);
    await expect(page.getByTestId('play-back')).toHaveAttribute('href', `/studio/games/${game.id}/builds`);
    await page.getByRole('link', { name: 'Open the play page' }).click();
    await expect(page).toHaveURL(new RegExp(`/play/${game.slug}$`));
    const played = await hostedGameFrame(page, game.slug);
    await expect(played.locator('#label[data-ready="yes"]')).toHaveText('Live build');
  });

  for (const locale of ['en', 'zh-CN'] as const) {
    const words = {
      en: { lang: 'en-US', qa: 'QA mode', copy: 'Copy preview link', review: 'Play in QA mode' },
      'zh-CN': { lang: 'zh-CN', qa: 'QA 模式', copy: '复制预览链接', review: '在 QA 模式中试玩' },
    }[locale];

    test(`${locale}: the Studio's preview link, and the link it copies, open the QA page in the Studio's language @db`, async ({ page, request, baseURL }) => {
      test.setTimeout(90_000);
      const { game } = await gameWithNewBuild(request, page, baseURL!);
      await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
      const link = await previewLinkOfStudio(page, locale, game.id);
      expect(link.pathname).toBe(localePath(locale, `/qa/${game.slug}`));
      await page.getByTestId('build-1').getByRole('button', { name: words.copy }).click();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link.href);
      await page.goto(link.href);
      await expect(page.locator('html')).toHaveAttribute('lang', words.lang);
      await expect(page.getByTestId('qa-label')).toHaveText(words.qa);
      await buildStarted(page);
    });

    test(`${locale}: the Console's review queue links to the QA page in the Console's language @db`, async ({ page, request, baseURL }) => {
      test.setTimeout(90_000);
      const { game } = await gameWithNewBuild(request, page, baseURL!);
      const operator = await newMember(request, uniqueUsername('op'), 'Harbour-Lantern-Tricky-9');
      const database = await openRunDatabase();
      const now = new Date().toISOString();
      await database.db.updateTable('game_builds').set({ status: 'submitted', submitted_at: now }).where('app_id', '=', game.id).execute();
      await database.db.insertInto('operators').values({ user_id: operator.userInfo.uid, granted_at: now }).execute();
      await database.close();
      await page.context().addCookies([{ name: 'token', value: encodeURIComponent(operator.token), url: baseURL! }]);
      await page.goto(localePath(locale, '/console/reviews'));
      await hydrated(page);
      const href = await page.getByTestId(`review-${game.slug}`).getByRole('link', { name: words.review }).getAttribute('href');
      const link = new URL(href!);
      expect(link.pathname).toBe(localePath(locale, `/qa/${game.slug}`));
      await page.goto(link.href);
      await expect(page.getByTestId('qa-label')).toHaveText(words.qa);
      await buildStarted(page);
    });
  }
});
