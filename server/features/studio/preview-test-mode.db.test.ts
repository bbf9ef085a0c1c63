import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyWebhook } from '../../../docs/examples/verify-webhook.ts';
import { signedHeaders } from '../../../docs/examples/record-from-backend.ts';
import { PREVIEW_HEADER } from '#common/constants.ts';
import { insertDeveloperGame, insertReviewedBuild } from '#server/testing/developer-games.ts';
import { appIdOf, type TestApi } from '#server/testing/test-api.ts';
import {
  closeTestApiWithXsolla,
  idempotencyKey as key,
  openTestApiWithXsolla,
  paymentOf,
  testOrders,
  type XsollaStandIn,
} from '#server/testing/test-orders.ts';
import { type TestPlayer, testPlayers } from '#server/testing/test-players.ts';

/** The headers of a call made through a build's preview, or of one made without. */
const withPreview = (preview?: string): Record<string, string> => (preview === undefined ? {} : { [PREVIEW_HEADER]: preview });

/** The scores a leaderboard answer lists, in order. */
const scoresOf = (answer: { json(): { data: { entries: { score: number }[] } } }) => answer.json().data.entries.map((e) => e.score);

interface Received {
  signature: string | undefined;
  body: string;
}

/** A game's webhook receiver on 127.0.0.1 that keeps every request's signature header and raw body. */
async function startReceiver() {
  const received: Received[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const signature = request.headers['playport-signature'];
      received.push({ signature: typeof signature === 'string' ? signature : undefined, body: Buffer.concat(chunks).toString('utf8') });
      response.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/playport/webhook`;
  return { url, received, stop: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/*
 * Test mode (decision 111): what a build's preview buys and records is marked `livemode: false`
 * wherever a studio or an operator sees it and is kept apart from the live game; a preview label
 * counts only when it is a signed preview of that same game; the game's backend reaches a preview
 * in test mode with the label in its signed body, and records only for players of the game.
 */
describe('test mode', () => {
  let api: TestApi;
  let xsolla: XsollaStandIn;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  const players = testPlayers(() => api, 173);
  let alpha: number;
  let beta: number;
  let developer: TestPlayer;
  let buyer: TestPlayer;
  let label: string;
  let betaLabel: string;
  let webhookSecret: string;
  let gameSecret: string;
  const { notify, nextTransaction } = testOrders(() => api, { appId: () => alpha, firstTransaction: 730_000 });

  beforeAll(async () => {
    receiver = await startReceiver();
    ({ api, xsolla } = await openTestApiWithXsolla());
    const { db } = api.database;
    alpha = await appIdOf(api.database, 'alpha');
    beta = await appIdOf(api.database, 'beta');
    [developer, buyer] = await Promise.all([players.newMember(), players.newMember()]);
    await api.services.developers.saveProfile(developer.userInfo.uid, { studioName: 'Testmode', contactEmail: 'dev@testmode.test' });
    // The published fixture game is given to the developer, with an approved build whose preview it tests.
    await db.updateTable('apps').set({ developer_user_id: developer.userInfo.uid }).where('id', '=', alpha).execute();
    const build = await insertReviewedBuild(db, {
      appId: alpha,
      version: 1,
      status: 'approved',
      uploadedBy: developer.userInfo.uid,
      reviewedBy: developer.userInfo.uid,
    });
    label = api.services.builds.previewLabel(build.id);
    const betaBuild = await insertReviewedBuild(db, {
      appId: beta,
      version: 1,
      status: 'approved',
      uploadedBy: buyer.userInfo.uid,
      reviewedBy: buyer.userInfo.uid,
    });
    betaLabel = api.services.builds.previewLabel(betaBuild.id);
    const saved = await api.call('PUT', `/studio/games/${alpha}/webhook`, { token: developer.token, body: { url: receiver.url } });
    expect(saved.statusCode, saved.body).toBe(200);
    webhookSecret = saved.json().data.secret as string;
    gameSecret = (await api.services.records.newBackendSecret(alpha)).secret;
  });
  afterAll(async () => {
    await closeTestApiWithXsolla({ api, xsolla });
    await receiver?.stop();
  });

  /** An order of alpha's made as the play page or a preview page makes it, its checkout opened and its payment notified. */
  async function buy(player: TestPlayer, sku: string, preview?: string): Promise<{ id: string; sku: string; livemode: boolean }> {
    const made = await api.call('POST', `/game/pay/${alpha}`, { token: player.token, headers: withPreview(preview), body: { sku, idempotencyKey: key() } });
    expect(made.statusCode, made.body).toBe(201);
    const order = { id: made.json().data.id as string, sku, livemode: made.json().data.livemode as boolean };
    expect((await api.call('POST', '/payment/xsolla/create/', { token: player.token, body: { order_id: order.id } })).statusCode).toBe(200);
    expect((await notify(paymentOf(order, player.userInfo.uid, nextTransaction()))).statusCode).toBe(204);
    return order;
  }

  /** A signed call of the game's backend, signed as docs/examples/record-from-backend.ts signs one. */
  function backend(path: string, body: object, app = alpha, secret = gameSecret) {
    const raw = JSON.stringify(body);
    return api.app.inject({ method: 'POST', url: `/serve/api/game/backend/${app}/${path}`, headers: signedHeaders(secret, raw), payload: raw });
  }

  it('marks a preview order livemode false in its webhook, verified by the signature as a studio does, and a live one true', async () => {
    const start = receiver.received.length;
    const test = await buy(developer, 'alpha-night-theme', label);
    const live = await buy(buyer, 'alpha-night-theme');
    expect([test.livemode, live.livemode]).toEqual([false, true]);
    await api.services.webhooks.deliverDue();
    const events = receiver.received.slice(start).map((r) => {
      expect(verifyWebhook(webhookSecret, r.signature, r.body)).toBe(true);
      return JSON.parse(r.body) as { type: string; livemode: boolean; data: { order: { id: string } } };
    });
    // Deliveries due together go out in any order.
    expect(events.map((e) => [e.type, e.data.order.id, e.livemode]).sort((a, b) => Number(a[2]) - Number(b[2]))).toEqual([
      ['order.paid', test.id, false],
      ['order.paid', live.id, true],
    ]);
  });

  it('answers livemode in the purchase verification, and the item look-up of each mode shows only its own orders', async () => {
    const test = await buy(developer, 'alpha-gold-tiles', label);
    await buy(developer, 'alpha-hints', label);
    const verified = await backend('purchases/verify', { orderId: test.id });
    expect(verified.statusCode, verified.body).toBe(200);
    expect(verified.json().data).toMatchObject({ orderId: test.id, status: 'paid', livemode: false });

    // The developer bought in the preview only, and never played the live game: not a player of it.
    const live = await backend('items', { uid: developer.userInfo.uid });
    expect(live.statusCode, live.body).toBe(404);
    const inTest = await backend('items', { uid: developer.userInfo.uid, preview: label });
    expect(inTest.statusCode, inTest.body).toBe(200);
    expect(inTest.json().data).toMatchObject({
      uid: developer.userInfo.uid,
      livemode: false,
      permanent: [
        { sku: 'alpha-night-theme', orderId: expect.any(String) },
        { sku: 'alpha-gold-tiles', orderId: test.id },
      ],
      consumables: [{ sku: 'alpha-hints', quantity: 1 }],
    });
    // A live buyer's look-up is live, and holds none of the preview's orders; in test mode it holds none of the live ones.
    const buyerLive = (await backend('items', { uid: buyer.userInfo.uid })).json().data;
    expect(buyerLive).toMatchObject({ livemode: true, permanent: [{ sku: 'alpha-night-theme' }], consumables: [] });
    // A label of another game's preview is the 404 of a game that does not exist.
    expect((await backend('items', { uid: developer.userInfo.uid, preview: betaLabel })).statusCode).toBe(404);
  });

  it('keeps what a preview bought out of the live game: the live inventory and ownership show none of it, the preview shows it', async () => {
    const options = (preview?: string) => ({ token: developer.token, headers: withPreview(preview) });
    const liveInventory = await api.call('GET', `/game/inventory/${alpha}`, options());
    expect(liveInventory.json().data.items).toEqual([]);
    const liveConfig = await api.call('GET', `/game/config/${alpha}`, options());
    expect(liveConfig.json().data.items.filter((item: { owned: boolean }) => item.owned)).toEqual([]);
    expect((await api.call('GET', `/game/inventory/${alpha}`, options(label))).json().data.items).toMatchObject([{ sku: 'alpha-hints', quantity: 1 }]);
    const testConfig = await api.call('GET', `/game/config/${alpha}`, options(label));
    expect(
      testConfig
        .json()
        .data.items.filter((item: { owned: boolean }) => item.owned)
        .map((item: { sku: string }) => item.sku)
        .toSorted(),
    ).toEqual(['alpha-gold-tiles', 'alpha-night-theme']);
    // Owned in the preview, the permanent item can still be bought live (and the other way round for the buyer).
    const liveOrder = await api.call('POST', `/game/pay/${alpha}`, { token: developer.token, body: { sku: 'alpha-night-theme', idempotencyKey: key() } });
    expect(liveOrder.statusCode, liveOrder.body).toBe(201);
    expect(liveOrder.json().data.livemode).toBe(true);
    // A live consume cannot use up the preview's item; the preview's consume can.
    const consume = (preview?: string) =>
      api.call('POST', `/game/inventory/${alpha}/consume`, { ...options(preview), body: { sku: 'alpha-hints', quantity: 1, idempotencyKey: key() } });
    expect((await consume()).json().error).toBe('not_enough_items');
    const used = await consume(label);
    expect(used.statusCode, used.body).toBe(200);
    expect(used.json().data).toMatchObject({ consumed: 1, remaining: 0 });
  });

  it('makes a test order on a published game only through a signed preview of that game its caller may use; any other label is refused and orders nothing', async () => {
    const before = await api.database.db.selectFrom('orders').select('id').where('app_id', '=', alpha).execute();
    const forged = label.replace(/-[0-9a-f]{32}$/, `-${'0'.repeat(32)}`);
    for (const bad of [forged, betaLabel, 'b1-', 'anything']) {
      const refused = await api.call('POST', `/game/pay/${alpha}`, {
        token: buyer.token,
        headers: withPreview(bad),
        body: { sku: 'alpha-hints', idempotencyKey: key() },
      });
      expect(refused.statusCode, `${bad}: ${refused.body}`).toBe(403);
      expect(refused.json().message).toMatch(/preview/i);
    }
    // The right label, by a member who is neither the developer nor a QA test member: refused too.
    const stranger = await api.call('POST', `/game/pay/${alpha}`, {
      token: buyer.token,
      headers: withPreview(label),
      body: { sku: 'alpha-hints', idempotencyKey: key() },
    });
    expect(stranger.statusCode).toBe(403);
    expect(await api.database.db.selectFrom('orders').select('id').where('app_id', '=', alpha).execute()).toEqual(before);
  });

  it('lists a test order as such for the operator and for the member', async () => {
    const operator = await players.newMember();
    await api.services.operators.grant(String(operator.userInfo.uid));
    const test = await buy(developer, 'alpha-hints', label);
    const found = await api.call('GET', `/console/orders/?q=${test.id}`, { token: operator.token });
    expect(found.json().data.items).toMatchObject([{ id: test.id, livemode: false }]);
    expect((await api.call('GET', `/console/orders/${test.id}`, { token: operator.token })).json().data.order).toMatchObject({ livemode: false });
    const mine = (await api.call('GET', '/member/orders/', { token: developer.token })).json().data.items as { id: string; livemode: boolean }[];
    expect(mine.find((o) => o.id === test.id)?.livemode).toBe(false);
  });

  describe("the game's backend", () => {
    let draft: { id: number; slug: string };
    let draftLabel: string;
    let draftSecret: string;
    let player: TestPlayer;
    let qaMember: TestPlayer;

    beforeAll(async () => {
      const { db } = api.database;
      draft = await insertDeveloperGame(db, developer.userInfo.uid);
      const declarations = await db.selectFrom('apps').select(['leaderboards', 'achievements']).where('id', '=', alpha).executeTakeFirstOrThrow();
      await db.updateTable('apps').set(declarations).where('id', '=', draft.id).execute();
      const build = await insertReviewedBuild(db, {
        appId: draft.id,
        version: 1,
        status: 'rejected',
        uploadedBy: developer.userInfo.uid,
        reviewedBy: developer.userInfo.uid,
      });
      draftLabel = api.services.builds.previewLabel(build.id);
      draftSecret = (await api.services.records.newBackendSecret(draft.id)).secret;
      player = await players.newGuest();
      expect((await api.call('POST', '/member/played/', { token: player.token, body: { app_id: alpha } })).statusCode).toBe(200);
      const fresh = await players.newGuest();
      const made = await api.call('PATCH', '/member/password/', {
        token: fresh.token,
        body: { username: `qa_${fresh.userInfo.uid}x`, password: 'Harbour-Lantern-Tricky-9' },
      });
      expect(made.statusCode, made.body).toBe(200);
      qaMember = made.json().data;
    });

    it('records for a draft game in test mode, with the preview named in the signed body, and answers 404 without it', async () => {
      const score = { uid: developer.userInfo.uid, board: 'verified', score: 640 };
      const live = await backend('scores', score, draft.id, draftSecret);
      expect(live.statusCode, live.body).toBe(404);
      const test = await backend('scores', { ...score, preview: draftLabel }, draft.id, draftSecret);
      expect(test.statusCode, test.body).toBe(200);
      expect(test.json().data.periods[0]).toMatchObject({ period: 'all-time', best: 640, improved: true });
      const unlocked = await backend('achievements', { uid: qaMember.userInfo.uid, achievement: 'audited', preview: draftLabel }, draft.id, draftSecret);
      expect(unlocked.statusCode, unlocked.body).toBe(200);
      expect(unlocked.json().data).toMatchObject({ id: 'audited', newlyUnlocked: true });
      // Another game's preview, or this one's with another game's secret, does not reach it.
      expect((await backend('scores', { ...score, preview: betaLabel }, draft.id, draftSecret)).statusCode).toBe(404);
      expect((await backend('scores', { ...score, preview: draftLabel }, draft.id, gameSecret)).json().error).toBe('signature_invalid');
      // The preview's own page reads its test board.
      const board = await api.call('GET', `/game/leaderboards/${draft.id}/verified?period=all-time`, {
        token: developer.token,
        headers: withPreview(draftLabel),
      });
      expect(board.json().data.entries).toMatchObject([{ score: 640, isCaller: true }]);
    });

    it('keeps the boards apart: test scores never show on live reads, live scores never on test reads', async () => {
      const liveScore = await backend('scores', { uid: player.userInfo.uid, board: 'verified', score: 300 });
      expect(liveScore.statusCode, liveScore.body).toBe(200);
      const testScore = await backend('scores', { uid: developer.userInfo.uid, board: 'verified', score: 900, preview: label });
      expect(testScore.statusCode, testScore.body).toBe(200);
      const testUnlock = await backend('achievements', { uid: developer.userInfo.uid, achievement: 'audited', preview: label });
      expect(testUnlock.json().data.newlyUnlocked).toBe(true);

      const liveTop = await api.call('GET', `/game/leaderboards/${alpha}/verified?period=all-time`, { token: developer.token });
      expect(scoresOf(liveTop)).toEqual([300]);
      const testTop = await api.call('GET', `/game/leaderboards/${alpha}/verified?period=all-time`, { token: developer.token, headers: withPreview(label) });
      expect(scoresOf(testTop)).toEqual([900]);
      const page = (await api.call('GET', `/game/records/${alpha}`)).json().data;
      const verified = page.boards.find((b: { id: string }) => b.id === 'verified');
      expect(verified.tops[0].entries.map((e: { score: number }) => e.score)).toEqual([300]);
      expect(page.achievements.find((a: { id: string }) => a.id === 'audited').players).toBe(0);
      // The developer's own achievements: unlocked in the preview, not in the live game.
      const mine = (preview?: string) =>
        api.call('GET', `/game/achievements/${alpha}`, { token: developer.token, headers: withPreview(preview) }).then((r) => r.json().data);
      expect((await mine()).find((a: { id: string }) => a.id === 'audited').unlockedAt).toBeNull();
      expect((await mine(label)).find((a: { id: string }) => a.id === 'audited').unlockedAt).not.toBeNull();
      expect((await api.call('GET', '/user/achievements', { token: developer.token })).json().data).toEqual([]);
    });

    it('records only for players of the game, and answers an unrelated account exactly as one that does not exist', async () => {
      const stranger = await players.newMember();
      const answers = [];
      for (const uid of [stranger.userInfo.uid, 987_654_321]) {
        const answer = await backend('scores', { uid, board: 'verified', score: 50 });
        expect(answer.statusCode).toBe(404);
        const { message, ...rest } = answer.json();
        answers.push({ ...rest, message: message.replace(String(uid), '{uid}') });
      }
      expect(answers[0]).toEqual(answers[1]);
      const unlocks = [];
      for (const uid of [stranger.userInfo.uid, 987_654_321]) {
        const answer = await backend('achievements', { uid, achievement: 'audited' });
        unlocks.push([answer.statusCode, answer.json().error]);
      }
      expect(unlocks).toEqual([
        [404, 'not_found'],
        [404, 'not_found'],
      ]);
      // The same for the item look-up.
      const items = [];
      for (const uid of [stranger.userInfo.uid, 987_654_321]) items.push((await backend('items', { uid })).statusCode);
      expect(items).toEqual([404, 404]);
      // In test mode, only the preview's testers (the developer, QA test members) are players.
      expect((await backend('scores', { uid: player.userInfo.uid, board: 'verified', score: 50, preview: label })).statusCode).toBe(404);
      expect((await backend('scores', { uid: qaMember.userInfo.uid, board: 'verified', score: 50, preview: label })).statusCode).toBe(200);
      // Once the stranger plays the game, the backend records for them.
      expect((await api.call('POST', '/member/played/', { token: stranger.token, body: { app_id: alpha } })).statusCode).toBe(200);
      const played = await backend('scores', { uid: stranger.userInfo.uid, board: 'verified', score: 51 });
      expect(played.statusCode, played.body).toBe(200);
      const stored = await api.database.db
        .selectFrom('leaderboard_scores')
        .select('user_id')
        .where('app_id', '=', alpha)
        .where('period', '=', 'all-time')
        .execute();
      expect(stored.map((r) => r.user_id).toSorted()).toEqual([player.userInfo.uid, stranger.userInfo.uid].toSorted());
    });
  });
});
