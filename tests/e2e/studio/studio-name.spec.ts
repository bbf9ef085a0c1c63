import { insertReviewedBuild } from '../../../server/testing/developer-games.ts';
import { call, newMember, uniqueUsername } from '../../support/accounts.ts';
import { openRunDatabase } from '../../support/run-database.ts';
import { studioForm } from '../../support/studio.ts';
import { expect, test } from '../fixtures.ts';
import { hydrated } from '../shell/helpers.ts';

// The studio's name, "shown to players as the maker of your games" (decision 120): a game shipped
// through the Studio has a developer row on its app page, in both languages, and a renamed studio
// shows its new name.

const PASSWORD = 'Harbour-Lantern-Tricky-9';

test('a Studio game’s app page names its studio as the developer, and follows a new name', async ({ page, request }) => {
  test.slow();
  const developer = await newMember(request, uniqueUsername('maker'), PASSWORD);
  const reviewer = await newMember(request, uniqueUsername('reviewer'), PASSWORD);
  const profile = (studioName: string) =>
    call(request, 'PUT', '/studio/profile/', { token: developer.token, body: { studioName, contactEmail: 'team@tidepool.test' } });
  expect((await profile('Tidepool Games')).status).toBe(200);
  const slug = `tidepool-${Date.now().toString(36)}`;
  const created = await call<{ id: number }>(request, 'POST', '/studio/games/', {
    token: developer.token,
    body: { slug, i18n: { en: { title: 'Tidepool Run' } } },
  });
  expect(created.status).toBe(201);
  const saved = await call(request, 'PUT', `/studio/games/${created.data.id}/`, {
    token: developer.token,
    body: studioForm({
      i18n: {
        en: { title: 'Tidepool Run', summary: 'Run the rock pools before the tide.', description: 'Run the rock pools before the tide comes back.' },
        'zh-CN': { title: '潮池快跑', summary: '在涨潮前跑过礁石池。', description: '在潮水回来之前跑过礁石池。' },
      },
    }),
  });
  expect(saved.status).toBe(200);
  // Published as an operator's approval of a build publishes it.
  const database = await openRunDatabase();
  const build = await insertReviewedBuild(database.db, {
    appId: created.data.id,
    version: 1,
    status: 'approved',
    uploadedBy: developer.userInfo.uid,
    reviewedBy: reviewer.userInfo.uid,
  });
  // With a demo game's image: a live game is listed on every page of the run, whose journeys load every tile.
  await database.db
    .updateTable('apps')
    .set({ published: 1, live_build_id: build.id, thumbnail: '/games/snake/thumbnail.svg' })
    .where('id', '=', created.data.id)
    .execute();
  await database.close();

  await page.goto(`/app/${slug}`);
  await hydrated(page);
  await expect(page.getByTestId('app-developer')).toHaveText('Tidepool Games');
  await expect(page.getByRole('term').filter({ hasText: /^Developer$/ })).toBeVisible();
  await page.goto(`/zh-CN/app/${slug}`);
  await expect(page.getByTestId('app-developer')).toHaveText('Tidepool Games');
  await expect(page.getByRole('term').filter({ hasText: /^开发者$/ })).toBeVisible();

  // A new name is the one players see.
  expect((await profile('Tidepool Studio')).status).toBe(200);
  await expect
    .poll(async () => {
      await page.goto(`/app/${slug}`);
      return page.getByTestId('app-developer').textContent();
    })
    .toBe('Tidepool Studio');
});
