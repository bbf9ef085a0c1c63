import { mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { APIRequestContext, Browser, Page } from '@playwright/test';
import sharp from 'sharp';
import { openDatabase } from '../../../server/db/client.ts';
import { insertReviewedBuild } from '../../../server/testing/developer-games.ts';
import { call, newMember, uniqueUsername } from '../../support/accounts.ts';
import { studioForm } from '../../support/studio.ts';
import { expect as baseExpect, hostedGameFrame, test } from '../fixtures.ts';
import { hydrated } from '../shell/helpers.ts';

// Each play page loads a game in a frame and a checkout in a window of its own; three browsers on a
// busy two-core runner take over two minutes.
const expect = baseExpect.configure({ timeout: 20_000 });
const PASSWORD = 'Harbour-Lantern-Tricky-9';
const runId = () => process.env.E2E_RUN_ID!;

/** The run's database, as the server under test has it (playwright.config.ts). */
async function runDatabase() {
  const url = process.env.DATABASE_URL?.startsWith('postgres') ? process.env.DATABASE_URL : `file:${join(tmpdir(), `playport-e2e-${runId()}.sqlite`)}`;
  return openDatabase(url, { schema: `e2e_${runId()}` });
}

/** A page of its own signed in with a member's token, as after a sign-in. */
async function signedIn(browser: Browser, baseURL: string, token: string): Promise<Page> {
  const context = await browser.newContext({ baseURL });
  await context.addCookies([{ name: 'token', value: encodeURIComponent(token), url: baseURL }]);
  return context.newPage();
}

/** Uploads a thumbnail through the Studio's image call, as the details page does. */
async function uploadThumbnail(request: APIRequestContext, token: string, gameId: number): Promise<string> {
  const cookies = (await request.get('/serve/api/csrf')).headers()['set-cookie'] ?? '';
  const csrf = cookies.split('\n').find((c) => c.startsWith('XSRF-TOKEN='))!;
  const value = csrf.split(';')[0]!.slice('XSRF-TOKEN='.length);
  const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#1d4ed8' } })
    .png()
    .toBuffer();
  const response = await request.fetch(`/serve/api/studio/games/${gameId}/images/`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, cookie: `XSRF-TOKEN=${value}`, 'x-xsrf-token': decodeURIComponent(value) },
    multipart: { image: { name: 'thumbnail.png', mimeType: 'image/png', buffer: png } },
  });
  expect(response.status()).toBe(201);
  return ((await response.json()) as { data: { url: string } }).data.url;
}

/** A small game that shows its item's price from the SDK and buys it on a click. */
const GAME_FILES: Record<string, string> = {
  'index.html':
    '<!doctype html><html><head><meta charset="utf-8"><title>Harbour Lights</title><script src="/sdk/v1/playport.js"></script></head>' +
    '<body><button id="buy" type="button">…</button><script src="shop.js"></script></body></html>',
  'shop.js': `const buy = document.getElementById('buy');
Playport.getConfig().then((config) => {
  const item = config.items.find((i) => i.sku === 'fog-lamp');
  buy.textContent = item.name + ' · ' + new Intl.NumberFormat('en', { style: 'currency', currency: item.currency }).format(item.amount / 100);
  buy.dataset.ready = 'yes';
});
buy.addEventListener('click', () => Playport.pay({ sku: 'fog-lamp' }).catch(() => undefined));
`,
};

test.describe("a live game's price goes through review", () => {
  test('the studio changes a price and sees it waiting; players keep the old price until an operator approves; then the buy dialog asks the new one @db', async ({
    page,
    request,
    browser,
    baseURL,
  }) => {
    test.setTimeout(240_000);
    const [developer, operator, buyer] = [
      await newMember(request, uniqueUsername('dev'), PASSWORD),
      await newMember(request, uniqueUsername('op'), PASSWORD),
      await newMember(request, uniqueUsername('buyer'), PASSWORD),
    ];
    expect(
      (await call(request, 'PUT', '/studio/profile/', { token: developer.token, body: { studioName: 'Harbour Works', contactEmail: 'team@harbour.test' } }))
        .status,
    ).toBe(200);
    const slug = `harbour-${Date.now().toString(36)}`;
    const created = await call<{ id: number }>(request, 'POST', '/studio/games/', {
      token: developer.token,
      body: { slug, i18n: { en: { title: 'Harbour Lights' } } },
    });
    expect(created.status).toBe(201);
    const gameId = created.data.id;
    const thumbnail = await uploadThumbnail(request, developer.token, gameId);
    const draft = await call(request, 'PUT', `/studio/games/${gameId}/`, {
      token: developer.token,
      body: studioForm({
        i18n: { en: { title: 'Harbour Lights', summary: 'Guide the boats home.', description: 'Guide the boats home before the fog.' } },
        thumbnail,
        items: [{ sku: 'fog-lamp', price: 199, currency: 'USD', kind: 'consumable', i18n: { en: { name: 'Fog lamp' } } }],
      }),
    });
    expect(draft.status).toBe(200);

    // Published as an operator's approval of a build publishes it: the build's files in the builds folder, the game live.
    const database = await runDatabase();
    await database.db.insertInto('operators').values({ user_id: operator.userInfo.uid, granted_at: new Date().toISOString() }).execute();
    const build = await insertReviewedBuild(database.db, {
      appId: gameId,
      version: 1,
      status: 'approved',
      uploadedBy: developer.userInfo.uid,
      reviewedBy: operator.userInfo.uid,
    });
    const folder = join(tmpdir(), `playport-e2e-builds-${runId()}`, String(gameId), String(build.id));
    await mkdir(folder, { recursive: true });
    for (const [name, content] of Object.entries(GAME_FILES)) await writeFile(join(folder, name), content);
    await database.db.updateTable('apps').set({ published: 1, live_build_id: build.id }).where('id', '=', gameId).execute();
    await database.close();

    // The developer raises the price on the details page: it waits for review, with what changed.
    const studio = await signedIn(browser, baseURL!, developer.token);
    await studio.goto(`/studio/games/${gameId}`);
    await hydrated(studio);
    await expect(studio.getByText('This game is live: saving sends your changes to review')).toBeVisible();
    await studio.locator('input[name="item-0-price"]').fill('249');
    await studio.getByTestId('studio-game-save').click();
    const status = studio.getByTestId('studio-review-status');
    await expect(status).toHaveAttribute('data-status', 'pending');
    await expect(status).toContainText('Waiting for review: players still see the live game.');
    await expect(status.getByTestId('change-item-fog-lamp')).toHaveText('Item fog-lamp: $1.99 → $2.49');
    await studio.goto(`/zh-CN/studio/games/${gameId}`);
    await expect(studio.getByTestId('studio-review-status')).toContainText('等待审核');
    await expect(studio.locator('input[name="item-0-price"]')).toHaveValue('249');

    // Players still get the live price.
    await page.context().addCookies([{ name: 'token', value: encodeURIComponent(buyer.token), url: baseURL! }]);
    await page.goto(`/play/${slug}`);
    await hydrated(page);
    const frame = await hostedGameFrame(page, slug);
    await expect(frame.locator('#buy[data-ready="yes"]')).toHaveText('Fog lamp · $1.99');

    // An operator approves the change in the Console, next to the builds.
    const consolePage = await signedIn(browser, baseURL!, operator.token);
    await consolePage.goto('/console/reviews');
    await hydrated(consolePage);
    const change = consolePage.getByTestId(`change-${slug}`);
    await expect(change.getByTestId('change-item-fog-lamp')).toHaveText('Item fog-lamp: $1.99 → $2.49');
    await change.getByRole('button', { name: 'Approve and apply' }).click();
    const approval = consolePage.getByRole('alertdialog');
    await expect(approval).toContainText('Apply the changes of Harbour Lights?');
    await approval.getByRole('button', { name: 'Approve and apply' }).click();
    await expect(consolePage.getByText('Changes of Harbour Lights are live.')).toBeVisible();
    await expect(consolePage.getByTestId(`change-${slug}`)).toHaveCount(0);

    // The studio sees it approved and in its price history.
    await studio.goto(`/studio/games/${gameId}`);
    await expect(studio.getByTestId('studio-review-status')).toHaveAttribute('data-status', 'approved');
    await expect(studio.getByTestId('studio-price-history')).toContainText('$2.49');

    // The play page now shows the new price, and the checkout of a purchase asks it.
    await page.reload();
    await hydrated(page);
    const reloaded = await hostedGameFrame(page, slug);
    await expect(reloaded.locator('#buy[data-ready="yes"]')).toHaveText('Fog lamp · $2.49');
    const checkoutOpened = page.waitForEvent('popup');
    await reloaded.locator('#buy').click();
    const checkout = await checkoutOpened;
    await expect(checkout.getByTestId('sandbox-checkout')).toContainText('$2.49');
    await checkout.close();
    await studio.context().close();
    await consolePage.context().close();
  });
});
