import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from '@playwright/test';
import { openDatabase } from '../../../server/db/client.ts';
import { insertDeveloperGame, makeZip, sdkGameEntries } from '../../../server/testing/developer-games.ts';
import { call, newMember, uniqueUsername } from '../../support/accounts.ts';
import { expect as baseExpect, test } from '../fixtures.ts';
import { hydrated } from '../shell/helpers.ts';

// An upload, a review and each play page load a game in a frame.
const expect = baseExpect.configure({ timeout: 20_000 });
const PASSWORD = 'Harbour-Lantern-Tricky-9';

/** The run's database, as the server under test has it (playwright.config.ts). */
async function runDatabase() {
  const runId = process.env.E2E_RUN_ID!;
  const url = process.env.DATABASE_URL?.startsWith('postgres') ? process.env.DATABASE_URL : `file:${join(tmpdir(), `playport-e2e-${runId}.sqlite`)}`;
  return openDatabase(url, { schema: `e2e_${runId}` });
}

/** A page of its own signed in with a member's token, as after a sign-in. */
async function signedIn(browser: Browser, baseURL: string, token: string): Promise<Page> {
  const context = await browser.newContext({ baseURL });
  await context.addCookies([{ name: 'token', value: encodeURIComponent(token), url: baseURL }]);
  return context.newPage();
}

/** The text the framed build shows, from the frame on `hostPrefix`. */
async function framedLabel(page: Page, hostPrefix: string): Promise<string> {
  await expect
    .poll(
      () =>
        page
          .frames()
          .find((frame) => frame.url().startsWith(hostPrefix))
          ?.url() ?? '',
    )
    .toContain('/index.html');
  const frame = page.frames().find((candidate) => candidate.url().startsWith(hostPrefix))!;
  await expect(frame.locator('#label[data-ready="yes"]')).toBeVisible();
  return (await frame.locator('#label').textContent()) ?? '';
}

test.describe('a developer ships a build', () => {
  test('uploads a zip, previews it, submits it; an operator approves it; a guest plays it; a rollback brings the first build back @db', async ({
    page,
    request,
    browser,
    baseURL,
  }) => {
    test.setTimeout(180_000);
    const developer = await newMember(request, uniqueUsername('dev'), PASSWORD);
    const operator = await newMember(request, uniqueUsername('op'), PASSWORD);
    const database = await runDatabase();
    const now = new Date().toISOString();
    await database.db
      .insertInto('developer_profiles')
      .values({ user_id: developer.userInfo.uid, studio_name: 'Lantern Works', contact_email: 'dev@lantern.test', created_at: now, updated_at: now })
      .execute();
    await database.db.insertInto('operators').values({ user_id: operator.userInfo.uid, granted_at: now }).execute();
    const game = await insertDeveloperGame(database.db, developer.userInfo.uid, { title: 'Lantern Run', thumbnail: '/games/snake/thumbnail.svg' });
    await database.close();

    // The developer uploads a zip of a small game that loads the SDK.
    const studio = await signedIn(browser, baseURL!, developer.token);
    await studio.goto(`/studio/games/${game.id}/builds`);
    await hydrated(studio);
    await studio
      .getByLabel('Zip file')
      .setInputFiles({ name: 'lantern.zip', mimeType: 'application/zip', buffer: await makeZip(sdkGameEntries('First build')) });
    await studio.getByRole('button', { name: 'Upload' }).click();
    await expect(studio.getByText('Version 1 uploaded.')).toBeVisible();
    const first = studio.getByTestId('build-1');
    await expect(first.getByTestId('build-status')).toHaveText('Uploaded');

    // A zip that breaks several rules is answered with each problem at once.
    await studio.getByLabel('Zip file').setInputFiles({
      name: 'broken.zip',
      mimeType: 'application/zip',
      buffer: await makeZip([
        { name: 'main.html', content: '<p>' },
        { name: 'run.exe', content: 'MZ' },
      ]),
    });
    await studio.getByRole('button', { name: 'Upload' }).click();
    const problems = studio.getByTestId('build-problems');
    await expect(problems.getByRole('listitem')).toHaveCount(2);
    await expect(problems).toContainText('There is no index.html at the top of the zip.');
    await expect(problems).toContainText('run.exe: files of type .exe are not allowed in a build.');

    // The private preview runs the build in QA mode, from a host of its own, before anyone else sees it.
    const previewUrl = await first.getByTestId('preview-link').getAttribute('href');
    expect(previewUrl).toMatch(new RegExp(`/qa/${game.slug}\\?preview=b\\d+-[0-9a-f]{32}$`));
    const preview = await studio.context().newPage();
    await preview.goto(previewUrl!);
    await expect(preview.getByTestId('qa-label')).toHaveText('QA mode');
    expect(await framedLabel(preview, 'http://b')).toBe('First build');
    expect(preview.frames().some((frame) => frame.url().includes('.previews.localhost:'))).toBe(true);
    await preview.close();
    // Not published: players find nothing yet.
    expect((await request.get(`/play/${game.slug}`)).status()).toBe(404);

    await first.getByRole('button', { name: 'Send for review' }).click();
    await expect(first.getByTestId('build-status')).toHaveText('In review');

    // The operator sees it in the queue and approves it.
    const consolePage = await signedIn(browser, baseURL!, operator.token);
    await consolePage.goto('/console/reviews');
    await hydrated(consolePage);
    const review = consolePage.getByTestId(`review-${game.slug}`);
    await expect(review).toContainText('Lantern Run, version 1');
    await expect(review).toContainText('Studio: Lantern Works');
    // Approving publishes at once: it asks first (decision 124), and cancelling leaves the build waiting.
    await review.getByRole('button', { name: 'Approve and publish' }).click();
    const approval = consolePage.getByRole('alertdialog');
    await expect(approval).toContainText('Publish Lantern Run version 1?');
    await approval.getByRole('button', { name: 'Cancel' }).click();
    await expect(review).toBeVisible();
    await review.getByRole('button', { name: 'Approve and publish' }).click();
    await approval.getByRole('button', { name: 'Approve and publish' }).click();
    await expect(consolePage.getByText('Lantern Run version 1 is live.')).toBeVisible();
    await expect(review).toHaveCount(0);

    // A guest plays it on the play page.
    await page.goto(`/play/${game.slug}`);
    expect(await framedLabel(page, `http://${game.slug}.games.localhost:`)).toBe('First build');

    // A second build, approved, then rolled back from the Studio in one click.
    await studio.reload();
    await hydrated(studio);
    await studio
      .getByLabel('Zip file')
      .setInputFiles({ name: 'lantern-2.zip', mimeType: 'application/zip', buffer: await makeZip(sdkGameEntries('Second build')) });
    await studio.getByRole('button', { name: 'Upload' }).click();
    await expect(studio.getByText('Version 2 uploaded.')).toBeVisible();
    const second = studio.getByTestId('build-2');
    await second.getByRole('button', { name: 'Send for review' }).click();
    await expect(second.getByTestId('build-status')).toHaveText('In review');
    const builds = await call<{ builds: { id: number; version: number }[] }>(request, 'GET', `/studio/games/${game.id}/builds`, { token: developer.token });
    const secondId = builds.data.builds.find((build) => build.version === 2)!.id;
    expect((await call(request, 'POST', `/console/builds/${secondId}/approve`, { token: operator.token })).status).toBe(200);
    const replay = await browser.newPage({ baseURL: baseURL! });
    await replay.goto(`/play/${game.slug}`);
    expect(await framedLabel(replay, `http://${game.slug}.games.localhost:`)).toBe('Second build');

    // Any approved build can be made live (decision 122): back to version 1, after a confirmation…
    await studio.reload();
    await hydrated(studio);
    await expect(studio.getByTestId('build-2').getByTestId('make-live')).toHaveCount(0);
    await studio.getByTestId('build-1').getByRole('button', { name: 'Roll back to version 1' }).click();
    const dialog = studio.getByRole('alertdialog');
    await expect(dialog).toContainText('Make version 1 live?');
    await expect(dialog).toContainText('Players get version 1 instead of version 2 as soon as you confirm.');
    await dialog.getByRole('button', { name: 'Make it live' }).click();
    await expect(studio.getByText('Version 1 is live again.')).toBeVisible();
    await expect(studio.getByTestId('build-1').getByText('Live')).toBeVisible();
    const afterRollback = await browser.newPage({ baseURL: baseURL! });
    await afterRollback.goto(`/play/${game.slug}`);
    expect(await framedLabel(afterRollback, `http://${game.slug}.games.localhost:`)).toBe('First build');

    // …and forward again to version 2, in Chinese; cancelling changes nothing.
    await studio.goto(`/zh-CN/studio/games/${game.id}/builds`);
    await hydrated(studio);
    const forward = studio.getByTestId('build-2').getByRole('button', { name: '让版本 2 上线' });
    await forward.click();
    await studio.getByRole('alertdialog').getByRole('button', { name: '取消' }).click();
    await expect(studio.getByTestId('build-1').getByText('线上', { exact: true })).toBeVisible();
    await forward.click();
    await expect(studio.getByRole('alertdialog')).toContainText('确认后，玩家将立即玩到版本 2，而不是版本 1。');
    await studio.getByRole('alertdialog').getByRole('button', { name: '上线', exact: true }).click();
    await expect(studio.getByText('版本 2 已重新上线。')).toBeVisible();
    const afterForward = await browser.newPage({ baseURL: baseURL! });
    await afterForward.goto(`/play/${game.slug}`);
    expect(await framedLabel(afterForward, `http://${game.slug}.games.localhost:`)).toBe('Second build');
  });

  test('a studio with its unfinished uploads at the limit is told which limit, and offered no resume @db', async ({ request, browser, baseURL }) => {
    test.setTimeout(90_000);
    const developer = await newMember(request, uniqueUsername('dev'), PASSWORD);
    const database = await runDatabase();
    const now = new Date().toISOString();
    await database.db
      .insertInto('developer_profiles')
      .values({ user_id: developer.userInfo.uid, studio_name: 'Half Sent', contact_email: 'dev@half.test', created_at: now, updated_at: now })
      .execute();
    const game = await insertDeveloperGame(database.db, developer.userInfo.uid, { title: 'Half Sent' });
    // Three uploads the studio left unfinished (decision 109: three at once by default).
    await database.db
      .insertInto('build_uploads')
      .values(
        [1, 2, 3].map((n) => ({
          id: `${game.id}-${String(n).repeat(32)}`,
          user_id: developer.userInfo.uid,
          app_id: game.id,
          bytes: 1000,
          created_at: now,
          touched_at: now,
        })),
      )
      .execute();
    await database.close();

    const studio = await signedIn(browser, baseURL!, developer.token);
    await studio.goto(`/studio/games/${game.id}/builds`);
    await hydrated(studio);
    await studio.getByLabel('Zip file').setInputFiles({ name: 'fourth.zip', mimeType: 'application/zip', buffer: await makeZip(sdkGameEntries('Fourth')) });
    await studio.getByRole('button', { name: 'Upload' }).click();
    const alert = studio.getByTestId('build-upload').getByRole('alert');
    await expect(alert).toContainText('already has 3 unfinished uploads');
    await expect(studio.getByRole('button', { name: 'Resume upload' })).toHaveCount(0);
    await expect(studio.getByRole('button', { name: 'Upload' })).toBeEnabled();
  });
});
