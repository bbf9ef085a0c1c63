import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from '@playwright/test';
import sharp from 'sharp';
import { verifyWebhook } from '../../../docs/examples/verify-webhook.ts';
import { makeZip } from '../../../server/testing/developer-games.ts';
import { call, newMember, uniqueUsername } from '../../support/accounts.ts';
import { grantOperator } from '../../support/operators.ts';
import { startWebhookBackend } from '../../support/studio.ts';
import { settledUser } from '../accounts/helpers.ts';
import { useSession } from '../browser-session.ts';
import { expect as baseExpect, test } from '../fixtures.ts';
import { hydrated } from '../shell/helpers.ts';

// Uploads, frames, checkouts and webhook deliveries: each step waits on a round trip.
const expect = baseExpect.configure({ timeout: 20_000 });
const PASSWORD = 'Harbour-Lantern-Tricky-9';
const GAME_FILES = join(import.meta.dirname, '../../fixtures/platform-game');

/** The game's zip, made from its files at test time. */
const gameZip = () => makeZip(['index.html', 'game.js'].map((name) => ({ name, content: readFileSync(join(GAME_FILES, name)) })));

/** A browser of its own for one person, signed in with their token. */
async function personPage(browser: Browser, baseURL: string, token?: string): Promise<Page> {
  const context = await browser.newContext({ baseURL });
  if (token) await useSession(context, baseURL, token);
  return context.newPage();
}

/** The framed game (the play page's and the QA page's frame alike). */
const game = (page: Page) => page.frameLocator('[data-testid="game-frame"]');

/** Buys the game's lamp oil in the sandbox checkout the game's button opens, with the test card that pays. */
async function payInSandbox(page: Page, secureAs?: string): Promise<void> {
  const opened = page.waitForEvent('popup');
  if (secureAs) {
    // A guest secures the account first; the purchase goes on once it is done.
    const secure = page.getByTestId('purchase-secure');
    await secure.getByLabel('Username').fill(secureAs);
    await secure.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await secure.getByTestId('create-account-submit').click();
  }
  const checkout = await opened;
  await expect(checkout.getByTestId('sandbox-checkout')).toContainText('Lamp oil · Lamp Lighter · $1.99');
  // The pay button answers once the checkout is hydrated.
  await hydrated(checkout);
  await checkout.getByLabel('Card number').fill('4242 4242 4242 4242');
  const closed = checkout.waitForEvent('close');
  await checkout.getByTestId('sandbox-pay').click();
  await closed;
  await expect(game(page).locator('body')).toHaveAttribute('data-oil', '1');
}

/*
 * Issue 27's "done means": a new member becomes a developer, uploads a zip of a game that uses the
 * SDK, previews it with a sandbox purchase, submits it; an operator approves it; a guest plays it
 * and buys an item; the developer's backend receives the signed webhook; the statistics show the
 * play and the sale; the operator refunds the order and the developer sees the refund.
 */
test.describe('the platform, end to end (issue 27)', { tag: '@db' }, () => {
  test('a developer ships a game that sells an item, a guest buys it, an operator refunds it, and the developer sees each step', async ({
    browser,
    request,
    baseURL,
  }) => {
    // Five parties and about sixty steps: over 90 s on a busy two-core runner (test.slow()'s budget).
    test.setTimeout(180_000);
    // The developer's backend: a receiver on this machine that keeps what arrives, as it arrives.
    const { received, url: webhookUrl, close: closeBackend } = await startWebhookBackend();
    const events = () =>
      received.map((delivery) => ({
        ...delivery,
        event: JSON.parse(delivery.body) as { type: string; data: { order?: { id: string; status: string; player: number } } },
      }));

    try {
      // A new member opens a studio in the Studio.
      const developer = await newMember(request, uniqueUsername('ship'), PASSWORD);
      const studio = await personPage(browser, baseURL!, developer.token);
      await studio.goto('/studio');
      await hydrated(studio);
      const profile = studio.getByTestId('studio-profile-form');
      await profile.getByLabel('Studio name').fill('Lamplight Games');
      await profile.getByLabel('Contact e-mail').fill('team@lamplight.test');
      await profile.getByLabel('Contact e-mail').press('Enter');
      await expect(studio.getByRole('heading', { name: 'Your games' })).toBeVisible();

      // The game and its item: the Studio's game form is its own journey (studio-games.spec.ts).
      const slug = `lamp-${randomBytes(3).toString('hex')}`;
      const created = await call<{ id: number }>(request, 'POST', '/studio/games/', {
        token: developer.token,
        body: { slug, i18n: { en: { title: 'Lamp Lighter' }, 'zh-CN': { title: '点灯人' } } },
      });
      expect(created.status, created.message).toBe(201);
      const gameId = created.data.id;
      const {
        id: _id,
        slug: _slug,
        published: _published,
        entryUrl: _entry,
        updatedAt: _updated,
        missing: _missing,
        ...metadata
      } = (await call<Record<string, unknown>>(request, 'GET', `/studio/games/${gameId}/`, { token: developer.token })).data;
      // Its thumbnail, through the image upload the Details page uses: a build cannot be sent for review without one.
      const picture = await sharp({ create: { width: 320, height: 240, channels: 3, background: '#b45309' } })
        .png()
        .toBuffer();
      const setCookie = (await request.get('/serve/api/csrf')).headers()['set-cookie'] ?? '';
      const csrf = setCookie
        .split('\n')
        .find((c) => c.startsWith('XSRF-TOKEN='))!
        .split(';')[0]!;
      const uploaded = await request.post(`/serve/api/studio/games/${gameId}/images/`, {
        headers: { authorization: `Bearer ${developer.token}`, cookie: csrf, 'x-xsrf-token': decodeURIComponent(csrf.slice('XSRF-TOKEN='.length)) },
        multipart: { image: { name: 'lamp.png', mimeType: 'image/png', buffer: picture } },
      });
      expect(uploaded.status(), await uploaded.text()).toBe(201);
      const thumbnail = ((await uploaded.json()) as { data: { url: string } }).data.url;
      const saved = await call(request, 'PUT', `/studio/games/${gameId}/`, {
        token: developer.token,
        body: {
          ...metadata,
          thumbnail,
          categories: ['puzzle'],
          i18n: {
            en: { title: 'Lamp Lighter', summary: 'Light the lamps.', description: 'Light every lamp before dawn.' },
            'zh-CN': { title: '点灯人', summary: '点亮灯。', description: '天亮前点亮每一盏灯。' },
          },
          items: [{ sku: 'lamp-oil', price: 199, currency: 'USD', kind: 'consumable', i18n: { en: { name: 'Lamp oil' }, 'zh-CN': { name: '灯油' } } }],
        },
      });
      expect(saved.status, saved.message).toBe(200);

      // The backend's URL on the Studio's webhooks page; its secret is shown once.
      await studio.goto(`/studio/games/${gameId}/webhooks`);
      await hydrated(studio);
      await studio.getByLabel('Webhook URL').fill(webhookUrl);
      await studio.getByTestId('webhook-save').click();
      const secret = (await studio.getByTestId('webhook-secret').textContent())!;
      expect(secret).toMatch(/^whsec_/);

      // The zip of the game, uploaded in the browser.
      await studio.goto(`/studio/games/${gameId}/builds`);
      await hydrated(studio);
      await studio.getByLabel('Zip file').setInputFiles({ name: 'lamp-lighter.zip', mimeType: 'application/zip', buffer: await gameZip() });
      await studio.getByRole('button', { name: 'Upload' }).click();
      await expect(studio.getByText('Version 1 uploaded.')).toBeVisible();
      const build = studio.getByTestId('build-1');

      // The private preview: the draft game signs the developer in, saves, and sells with the sandbox.
      const preview = await studio.context().newPage();
      await preview.goto((await build.getByTestId('preview-link').getAttribute('href'))!);
      await hydrated(preview);
      await expect(preview.getByTestId('qa-payments')).toHaveAttribute('data-provider', 'sandbox');
      await expect(game(preview).locator('#label')).toHaveAttribute('data-ready', 'yes');
      await expect(game(preview).locator('body')).toHaveAttribute('data-player', String(developer.userInfo.uid));
      await expect(game(preview).locator('#saved')).toHaveText('Saved progress');
      const previewBuy = game(preview).locator('#buy');
      await expect(previewBuy).toHaveText('Lamp oil · $1.99');
      await previewBuy.click();
      await payInSandbox(preview);
      await preview.close();
      // Nobody else reaches the draft: no play page, and the SDK's calls are refused without the preview.
      expect((await request.get(`/play/${slug}`)).status()).toBe(404);
      expect((await call(request, 'POST', `/game/login/${gameId}`, { token: (await newMember(request, uniqueUsername('peek'), PASSWORD)).token })).status).toBe(
        404,
      );

      await build.getByRole('button', { name: 'Send for review' }).click();
      await expect(build.getByTestId('build-status')).toHaveText('In review');

      // An operator, made by the operators command, approves it in the Console's review queue.
      const operator = await newMember(request, uniqueUsername('oper'), PASSWORD);
      await grantOperator(operator.userInfo.uid);
      const consolePage = await personPage(browser, baseURL!, operator.token);
      await consolePage.goto('/console/reviews');
      await hydrated(consolePage);
      const review = consolePage.getByTestId(`review-${slug}`);
      await expect(review).toContainText('Lamp Lighter, version 1');
      await expect(review).toContainText('Studio: Lamplight Games');
      await review.getByRole('button', { name: 'Approve and publish' }).click();
      await consolePage.getByRole('alertdialog').getByRole('button', { name: 'Approve and publish' }).click();
      await expect(consolePage.getByText('Lamp Lighter version 1 is live.')).toBeVisible();

      // A guest plays it and buys lamp oil in the sandbox checkout, securing the account on the way.
      const player = await personPage(browser, baseURL!);
      await player.goto(`/play/${slug}`);
      await hydrated(player);
      const guest = await settledUser(player, request);
      expect(guest.userInfo.isGuest).toBe(true);
      const buy = game(player).locator('#buy');
      await expect(buy).toHaveText('Lamp oil · $1.99');
      await buy.click();
      await payInSandbox(player, uniqueUsername('buyer'));

      // The developer's backend got the signed "paid" webhook for the guest's order.
      await expect.poll(() => events().filter(({ event }) => event.type === 'order.paid' && event.data.order?.player === guest.userInfo.uid).length).toBe(1);
      const paid = events().find(({ event }) => event.type === 'order.paid' && event.data.order?.player === guest.userInfo.uid)!;
      expect(verifyWebhook(secret, paid.signature, paid.body)).toBe(true);
      expect(paid.event).toMatchObject({ game: { id: gameId }, data: { order: { sku: 'lamp-oil', amount: 199, currency: 'USD', status: 'paid' } } });
      const orderId = paid.event.data.order!.id;

      // The statistics show the play and the sale.
      const stats = studio;
      await stats.goto(`/studio/games/${gameId}/stats?days=7`);
      await hydrated(stats);
      const figure = (label: string) =>
        stats
          .getByRole('term')
          .filter({ hasText: new RegExp(`^${label}$`) })
          .locator('xpath=..');
      expect(Number((await figure('Plays').getByRole('definition').first().textContent())!.replaceAll(',', ''))).toBeGreaterThan(0);
      await expect(figure('Revenue')).toContainText('$');
      const sales = stats.getByRole('table', { name: 'Sales and refunds per day and item' });
      await expect(sales.getByRole('row').filter({ hasText: 'Lamp oil' })).toBeVisible();
      await expect(figure('Refunds')).toContainText('0 refunds');

      // The operator finds the order and refunds it with a reason.
      await consolePage.goto('/console/orders');
      await hydrated(consolePage);
      await consolePage.getByLabel('Search orders').fill(orderId);
      await consolePage.getByLabel('Search orders').press('Enter');
      await consolePage.getByRole('button', { name: orderId }).click();
      const detail = consolePage.getByTestId('order-detail');
      await expect(detail.getByTestId('order-status')).toHaveAttribute('data-status', 'paid');
      await detail.getByTestId('refund-open').click();
      const dialog = consolePage.getByTestId('refund-dialog');
      await dialog.getByLabel('Reason').fill('Bought twice by mistake');
      await dialog.getByLabel('Reason').press('Enter');
      await expect(detail.getByTestId('order-status')).toHaveAttribute('data-status', 'refunded');

      // The developer sees the refund: in the statistics, and as a delivered "refunded" webhook.
      await expect.poll(() => events().filter(({ event }) => event.type === 'order.refunded' && event.data.order?.id === orderId).length).toBe(1);
      const refunded = events().find(({ event }) => event.type === 'order.refunded')!;
      expect(verifyWebhook(secret, refunded.signature, refunded.body)).toBe(true);
      await stats.reload();
      await hydrated(stats);
      await expect(figure('Refunds')).toContainText('1 refund');
      await expect(figure('Refunds')).toContainText('$1.99');
      await stats.goto(`/studio/games/${gameId}/webhooks`);
      await hydrated(stats);
      const delivery = stats.getByTestId('webhook-delivery').filter({ hasText: 'order.refunded' });
      await expect(delivery.getByTestId('webhook-delivery-status')).toHaveText('Delivered');
      await expect(delivery).toContainText('200');
    } finally {
      await closeBackend();
    }
  });
});
