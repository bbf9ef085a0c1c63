import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyWebhook, webhookReceiver } from '../../../docs/examples/verify-webhook.ts';
import { inUnitOfWork } from '#server/db/unit-of-work.ts';
import { backendSignature } from '#server/lib/backend-signatures.ts';
import { type ApiInstance, openApiInstance, openSecondInstance } from '#server/testing/api-instance.ts';
import { appIdOf, fixtureGameIds, type TestApi } from '#server/testing/test-api.ts';
import {
  closeTestApiWithXsolla,
  idempotencyKey as key,
  openTestApiWithXsolla,
  partialRefundOf,
  refundOf,
  paymentOf,
  testOrders,
  type XsollaStandIn,
} from '#server/testing/test-orders.ts';
import { type TestPlayer, testPlayers } from '#server/testing/test-players.ts';
import { HttpWebhookSender } from '../../adapters/webhooks/http-webhook-sender.ts';
import { GIVE_UP_AFTER_SECONDS } from './webhooks.service.ts';

interface Received {
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A game's backend on 127.0.0.1: records every request and answers with `status` after `delayMs`. */
async function startReceiver() {
  const received: Received[] = [];
  const state = { status: 200, answer: 'ok', delayMs: 0 };
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      setTimeout(() => response.writeHead(state.status, { 'content-type': 'text/plain' }).end(state.answer), state.delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/playport/webhook`;
  return { url, received, state, stop: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/*
 * Server-to-server for a game's backend (decision 100): the signed webhook on paid, refunded and
 * consumed orders, queued in the order change's transaction and retried with backoff; the Studio's
 * calls for its developer only; the backend's signed look-ups.
 */
describe('game webhooks', () => {
  let api: TestApi;
  let xsolla: XsollaStandIn;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let appId: number;
  let otherAppId: number;
  let owner: TestPlayer;
  let secret: string;
  const { newGuest, newMember } = testPlayers(() => api, 100);
  const { notify, buy, consumeOne, nextTransaction } = testOrders(() => api, { appId: () => appId, firstTransaction: 100_000 });

  beforeAll(async () => {
    receiver = await startReceiver();
    ({ api, xsolla } = await openTestApiWithXsolla());
    const { db } = api.services.database;
    ({ appId, otherAppId } = await fixtureGameIds(api.database));
    owner = await newMember();
    await api.services.developers.saveProfile(owner.userInfo.uid, { studioName: 'Hook Studio', contactEmail: 'dev@hook.test' });
    // Studio game creation is its own work: the fixture game is given to the developer directly.
    await db.updateTable('apps').set({ developer_user_id: owner.userInfo.uid }).where('id', '=', appId).execute();
    const saved = await api.call('PUT', `/studio/games/${appId}/webhook`, { token: owner.token, body: { url: receiver.url } });
    expect(saved.statusCode, saved.body).toBe(200);
    secret = saved.json().data.secret as string;
    expect(secret).toMatch(/^whsec_[\w-]{43}$/);
  });
  afterAll(async () => {
    await closeTestApiWithXsolla({ api, xsolla });
    await receiver?.stop();
  });

  const deliveriesOf = (source: string) =>
    api.services.database.db.selectFrom('webhook_deliveries').selectAll().where('payload', 'like', `%${source}%`).orderBy('id').execute();
  const bodies = () => receiver.received.map((r) => JSON.parse(r.body) as { id: string; type: string; data: Record<string, any> });

  it('sends a signed webhook for a paid, a refunded and a consumed order, which node:crypto verifies', async () => {
    const member = await newMember();
    const gold = await buy(member, 'alpha-gold-tiles');
    // Queued with the payment itself, before any worker ran.
    expect(await deliveriesOf(gold.id)).toMatchObject([{ event_type: 'order.paid', status: 'pending', attempts: 0 }]);
    expect((await notify(refundOf(gold, member.userInfo.uid, nextTransaction()))).statusCode).toBe(204);
    await buy(member, 'alpha-hints');
    await consumeOne(member, 'alpha-hints');

    const before = receiver.received.length;
    expect(await api.services.webhooks.deliverDue()).toBeGreaterThanOrEqual(4);
    // One round sends its deliveries at once, so they may arrive in any order: put them in the order the events were queued.
    const queued = new Map(
      (await api.services.database.db.selectFrom('webhook_deliveries').select(['id', 'event_id']).execute()).map((d) => [d.event_id, d.id]),
    );
    const mine = receiver.received
      .slice(before)
      .filter((r) => r.body.includes(String(member.userInfo.uid)))
      .sort((a, b) => queued.get(JSON.parse(a.body).id)! - queued.get(JSON.parse(b.body).id)!);
    expect(mine.map((r) => JSON.parse(r.body).type)).toEqual(['order.paid', 'order.refunded', 'order.paid', 'items.consumed']);
    const now = Math.floor(Date.now() / 1000);
    for (const request of mine) {
      expect(verifyWebhook(secret, String(request.headers['playport-signature']), request.body, now)).toBe(true);
      expect(verifyWebhook('whsec_another', String(request.headers['playport-signature']), request.body, now)).toBe(false);
      expect(verifyWebhook(secret, String(request.headers['playport-signature']), `${request.body} `, now)).toBe(false);
      const body = JSON.parse(request.body);
      expect(request.headers['playport-event-id']).toBe(body.id);
      expect(body).toMatchObject({ id: expect.stringMatching(/^evt_/), livemode: true, game: { id: appId } });
    }
    const [paid, refunded, , consumed] = mine.map((r) => JSON.parse(r.body));
    expect(paid.data.order).toMatchObject({ id: gold.id, status: 'paid', sku: 'alpha-gold-tiles', amount: 199, currency: 'USD', player: member.userInfo.uid });
    expect(refunded.data.order).toMatchObject({ id: gold.id, status: 'refunded' });
    expect(consumed.data.consumption).toMatchObject({ player: member.userInfo.uid, sku: 'alpha-hints', quantity: 1, remaining: 0 });

    // The Studio's log shows them delivered, with the answer.
    const log = await api.call('GET', `/studio/games/${appId}/webhook`, { token: owner.token });
    expect(log.statusCode).toBe(200);
    const ids = new Set(mine.map((r) => JSON.parse(r.body).id));
    const shown = (log.json().data.deliveries as { eventId: string }[]).filter((d) => ids.has(d.eventId));
    expect(shown).toHaveLength(4);
    for (const d of shown) expect(d).toMatchObject({ status: 'delivered', attempts: 1, lastStatusCode: 200, lastResponse: 'ok' });
  });

  it('tells the game a partial refund, then the full refund with the reason, the time, what was given back and the consumable taken back (decision 124)', async () => {
    const member = await newMember();
    const inventory = async () =>
      (await api.call('GET', `/game/inventory/${appId}`, { token: member.token })).json().data.items.find((i: { sku: string }) => i.sku === 'alpha-hints')
        ?.quantity ?? 0;
    const hints = await buy(member, 'alpha-hints');
    expect(await inventory()).toBe(1);
    const partial = partialRefundOf(hints, member.userInfo.uid, hints.transaction, 0.2, 'Hints did not show on level 3');
    expect((await notify(partial)).statusCode).toBe(204);
    // The same notification again changes nothing; a second partial refund of the same amount counts.
    expect((await notify(partial)).statusCode).toBe(204);
    expect((await notify(partialRefundOf(hints, member.userInfo.uid, hints.transaction, 0.2, 'Still missing'))).statusCode).toBe(204);
    let row = await api.services.database.db.selectFrom('orders').selectAll().where('public_id', '=', hints.id).executeTakeFirstOrThrow();
    expect({ status: row.status, refunded: row.refunded_minor }).toEqual({ status: 'paid', refunded: 40 });
    expect(await inventory()).toBe(1);
    expect((await notify(refundOf(hints, member.userInfo.uid, nextTransaction()))).statusCode).toBe(204);
    row = await api.services.database.db.selectFrom('orders').selectAll().where('public_id', '=', hints.id).executeTakeFirstOrThrow();
    expect({ status: row.status, refunded: row.refunded_minor }).toEqual({ status: 'refunded', refunded: row.amount_minor });
    // The unit the refund paid for is taken back from the inventory.
    expect(await inventory()).toBe(0);

    // A used consumable cannot be taken back: the inventory stays at zero and the game is told.
    const used = await buy(member, 'alpha-hints');
    expect(
      (await api.call('POST', `/game/inventory/${appId}/consume`, { token: member.token, body: { sku: 'alpha-hints', quantity: 1, idempotencyKey: key() } }))
        .statusCode,
    ).toBe(200);
    expect((await notify(refundOf(used, member.userInfo.uid, nextTransaction()))).statusCode).toBe(204);
    expect(await inventory()).toBe(0);

    await api.services.webhooks.deliverDue();
    const mine = bodies().filter((b) => b.data.order?.id === hints.id || b.data.order?.id === used.id);
    const ofHints = mine.filter((b) => b.data.order.id === hints.id);
    expect(ofHints.map((b) => b.type).sort()).toEqual(['order.paid', 'order.partially_refunded', 'order.partially_refunded', 'order.refunded']);
    const partials = ofHints.filter((b) => b.type === 'order.partially_refunded');
    expect(partials.map((b) => b.data.refund.reason).sort()).toEqual(['Hints did not show on level 3', 'Still missing']);
    for (const b of partials) {
      expect(b.data.refund).toMatchObject({ amount: 20, at: expect.any(String) });
      expect(b.data.order).toMatchObject({ status: 'paid', refundedAt: b.data.refund.at });
    }
    const whole = ofHints.find((b) => b.type === 'order.refunded')!;
    expect(whole.data.order).toMatchObject({ status: 'refunded', refunded: row.amount_minor, refundedAt: whole.data.refund.at });
    expect(whole.data.refund).toEqual({ amount: row.amount_minor - 40, reason: 'Requested by the player', at: expect.any(String), itemsTakenBack: 1 });
    expect(Date.parse(whole.data.refund.at)).toBeGreaterThanOrEqual(Date.parse(partials[0]!.data.refund.at));
    const usedRefund = mine.find((b) => b.data.order.id === used.id && b.type === 'order.refunded')!;
    expect(usedRefund.data.refund).toMatchObject({ amount: usedRefund.data.order.amount, itemsTakenBack: 0 });
  });

  it('sends one webhook for a provider notification that comes twice, and none for a game without a URL', async () => {
    const member = await newMember();
    const gold = await buy(member, 'alpha-gold-tiles');
    expect((await notify(paymentOf(gold, member.userInfo.uid, gold.transaction))).statusCode).toBe(204);
    expect(await deliveriesOf(gold.id)).toHaveLength(1);
    await api.services.webhooks.deliverDue();
    expect(bodies().filter((b) => b.data.order?.id === gold.id)).toHaveLength(1);

    // Beta has no webhook: its orders queue nothing.
    const other = await newMember();
    const made = await api.call('POST', `/game/pay/${otherAppId}`, { token: other.token, body: { sku: 'beta-coins', idempotencyKey: key() } });
    if (made.statusCode === 201) expect(await deliveriesOf(made.json().data.id)).toHaveLength(0);
    expect(await api.services.database.db.selectFrom('webhook_deliveries').select('id').where('app_id', '=', otherAppId).execute()).toHaveLength(0);
  });

  it('retries a failing receiver with exponential backoff, and gives up after a day', async () => {
    receiver.state.status = 503;
    receiver.state.answer = 'x'.repeat(2000);
    try {
      const member = await newMember();
      const gold = await buy(member, 'alpha-gold-tiles');
      const [queued] = await deliveriesOf(gold.id);
      const start = new Date(queued!.created_at).getTime();
      let at = start;
      const waits: number[] = [];
      for (let round = 0; round < 40; round += 1) {
        await api.services.webhooks.deliverDue(new Date(at));
        const [row] = await deliveriesOf(gold.id);
        if (row!.status !== 'pending') break;
        const next = new Date(row!.next_attempt_at).getTime();
        // Not sooner than due: a moment before, nothing is sent.
        const sent = receiver.received.length;
        await api.services.webhooks.deliverDue(new Date(next - 1000));
        expect(receiver.received.length).toBe(sent);
        waits.push((next - at) / 1000);
        at = next;
      }
      const [row] = await deliveriesOf(gold.id);
      expect(row).toMatchObject({ status: 'failed', last_status_code: 503 });
      expect(row!.last_response).toHaveLength(512);
      expect(waits.slice(0, 5)).toEqual([30, 60, 120, 240, 480]);
      expect(waits.every((w, i) => i === 0 || w >= waits[i - 1]!)).toBe(true);
      expect(new Date(row!.last_attempt_at!).getTime() - start).toBeLessThanOrEqual(GIVE_UP_AFTER_SECONDS * 1000);
      expect(row!.attempts).toBe(waits.length + 1);
      expect(receiver.received.filter((r) => r.body.includes(gold.id))).toHaveLength(row!.attempts);
      // Given up: a receiver that answers again gets nothing more.
      receiver.state.status = 200;
      await api.services.webhooks.deliverDue(new Date(at + 2 * GIVE_UP_AFTER_SECONDS * 1000));
      expect(receiver.received.filter((r) => r.body.includes(gold.id))).toHaveLength(row!.attempts);
    } finally {
      receiver.state.status = 200;
      receiver.state.answer = 'ok';
    }
  });

  it("prunes finished deliveries older than the retention in the worker, keeping each game's log and every pending one", async () => {
    const { db } = api.services.database;
    const gamma = (await db.selectFrom('apps').select('id').where('slug', '=', 'gamma').executeTakeFirstOrThrow()).id;
    await db.updateTable('apps').set({ developer_user_id: owner.userInfo.uid }).where('id', '=', gamma).execute();
    const ownerCaller = { userId: owner.userInfo.uid, tokenId: 0 };
    const now = new Date();
    const daysAgo = (days: number) => new Date(now.getTime() - days * 24 * 3600 * 1000).toISOString();
    let n = 0;
    const row = (status: 'pending' | 'delivered' | 'failed', at: string) => {
      n += 1;
      return {
        app_id: gamma,
        event_id: `evt_prune_${n}`,
        event_type: 'order.paid',
        source_key: `prune:${n}`,
        payload: '{}',
        status,
        attempts: status === 'pending' ? 0 : 1,
        // Pending ones are not due, so the worker's sending leaves them as they are.
        next_attempt_at: status === 'pending' ? daysAgo(-1) : at,
        lease_until: null,
        leased_by: null,
        last_attempt_at: status === 'pending' ? null : at,
        last_status_code: status === 'delivered' ? 200 : 503,
        last_response: null,
        last_error: null,
        delivered_at: status === 'delivered' ? at : null,
        created_at: at,
      };
    };
    // Oldest first: 2 pending and 5 given up 40 days ago, 60 delivered 40 days ago, 3 delivered yesterday.
    await db
      .insertInto('webhook_deliveries')
      .values([
        ...Array.from({ length: 2 }, () => row('pending', daysAgo(40))),
        ...Array.from({ length: 5 }, () => row('failed', daysAgo(40))),
        ...Array.from({ length: 60 }, () => row('delivered', daysAgo(40))),
        ...Array.from({ length: 3 }, () => row('delivered', daysAgo(1))),
      ])
      .execute();
    const idsOf = async (app: number) =>
      (await db.selectFrom('webhook_deliveries').select('id').where('app_id', '=', app).orderBy('id').execute()).map((r) => r.id);
    const before = await idsOf(gamma);
    const alphaBefore = await idsOf(appId);
    const logBefore = (await api.services.webhooks.settings(ownerCaller, gamma)).deliveries.map((d) => d.id);
    expect(logBefore).toHaveLength(50);

    await api.services.webhooks.work(now);
    const after = await idsOf(gamma);
    // Kept: the 2 pending ones and the newest 50 (the Studio's log); gone: the 18 older finished ones.
    expect(after).toEqual([...before.slice(0, 2), ...before.slice(-50)]);
    expect((await api.services.webhooks.settings(ownerCaller, gamma)).deliveries.map((d) => d.id)).toEqual(logBefore);
    // Another game's recent deliveries stay.
    expect(await idsOf(appId)).toEqual(expect.arrayContaining(alphaBefore));
    await db.deleteFrom('webhook_deliveries').where('app_id', '=', gamma).execute();
  });

  describe('two instances on one database', () => {
    let second: ApiInstance;
    beforeAll(async () => {
      second = await openSecondInstance(api.database);
    });
    afterAll(async () => {
      await second?.close();
    });

    it('never sends one delivery twice when both workers run at once', async () => {
      await api.services.webhooks.deliverDue();
      const before = receiver.received.length;
      const run = randomBytes(4).toString('hex');
      const { db } = api.services.database;
      for (let i = 0; i < 40; i += 1)
        await inUnitOfWork(db, (trx) =>
          api.services.webhooks.itemsConsumed(trx, {
            id: 1_000_000 + i,
            appId,
            userId: owner.userInfo.uid,
            sku: 'alpha-hints',
            quantity: 1,
            remaining: i,
            idempotencyKey: `${run}-${i}`,
            livemode: true,
          }),
        );
      receiver.state.delayMs = 15;
      try {
        await Promise.all([
          api.services.webhooks.deliverDue(),
          second.services.webhooks.deliverDue(),
          api.services.webhooks.deliverDue(),
          second.services.webhooks.deliverDue(),
        ]);
      } finally {
        receiver.state.delayMs = 0;
      }
      const sent = receiver.received.slice(before).map((r) => JSON.parse(r.body).id as string);
      expect(sent).toHaveLength(40);
      expect(new Set(sent).size).toBe(40);
      const rows = await deliveriesOf(run);
      expect(rows).toHaveLength(40);
      for (const row of rows) expect(row).toMatchObject({ status: 'delivered', attempts: 1 });
    });
  });

  it('sends a test event from the Studio and logs it; after a rotation it signs with both secrets until the overlap ends', async () => {
    const sent = await api.call('POST', `/studio/games/${appId}/webhook/test`, { token: owner.token });
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json().data).toMatchObject({ eventType: 'test', status: 'delivered', attempts: 1, lastStatusCode: 200 });
    const last = receiver.received.at(-1)!;
    expect(verifyWebhook(secret, String(last.headers['playport-signature']), last.body, Math.floor(Date.now() / 1000))).toBe(true);

    const rotated = await api.call('POST', `/studio/games/${appId}/webhook/secret`, { token: owner.token });
    expect(rotated.statusCode).toBe(200);
    const fresh = rotated.json().data.secret as string;
    const overlapEnd = rotated.json().data.previousExpiresAt as string;
    expect(fresh).not.toBe(secret);
    expect(new Date(overlapEnd).getTime() - Date.now()).toBeGreaterThan(23.9 * 3600 * 1000);
    await api.call('POST', `/studio/games/${appId}/webhook/test`, { token: owner.token });
    const after = receiver.received.at(-1)!;
    const header = String(after.headers['playport-signature']);
    // Both signatures during the overlap, the new one first: the guide's receiver accepts either secret.
    expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64},v1=[0-9a-f]{64}$/);
    expect(verifyWebhook(fresh, header, after.body, Math.floor(Date.now() / 1000))).toBe(true);
    expect(verifyWebhook(secret, header, after.body, Math.floor(Date.now() / 1000))).toBe(true);
    expect(verifyWebhook('whsec_another', header, after.body, Math.floor(Date.now() / 1000))).toBe(false);
    secret = fresh;
    // The secret is shown only when made: the settings never carry it, but say until when the old one signs too.
    const settings = await api.call('GET', `/studio/games/${appId}/webhook`, { token: owner.token });
    expect(settings.body).not.toContain(fresh);
    expect(settings.json().data).toMatchObject({ url: receiver.url, hasSecret: true, previousSecretExpiresAt: overlapEnd });
  });

  it("works with the guide's receiver (docs/examples/verify-webhook.ts), which refuses old or forged signatures", async () => {
    const handled: string[] = [];
    const guide = webhookReceiver(secret, (event) => handled.push(event.id));
    await new Promise<void>((resolve) => guide.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(guide.address() as AddressInfo).port}/playport/webhook`;
      expect((await api.call('PUT', `/studio/games/${appId}/webhook`, { token: owner.token, body: { url } })).statusCode).toBe(200);
      const sent = await api.call('POST', `/studio/games/${appId}/webhook/test`, { token: owner.token });
      expect(sent.json().data).toMatchObject({ status: 'delivered', lastStatusCode: 200, lastResponse: 'ok' });
      expect(handled).toEqual([sent.json().data.eventId]);
      // After a rotation the receiver still holds the old secret: the overlap's second signature keeps it working.
      const rotated = await api.call('POST', `/studio/games/${appId}/webhook/secret`, { token: owner.token });
      const during = await api.call('POST', `/studio/games/${appId}/webhook/test`, { token: owner.token });
      expect(during.json().data).toMatchObject({ status: 'delivered', lastStatusCode: 200 });
      expect(handled).toHaveLength(2);
      secret = rotated.json().data.secret;
    } finally {
      await new Promise<void>((resolve) => guide.close(() => resolve()));
      await api.call('PUT', `/studio/games/${appId}/webhook`, { token: owner.token, body: { url: receiver.url } });
    }
    const body = '{"id":"evt_x"}';
    const now = Math.floor(Date.now() / 1000);
    const header = `t=${now - 600},v1=${backendSignature(secret, String(now - 600), body)}`;
    expect(verifyWebhook(secret, header, body, now)).toBe(false);
    expect(verifyWebhook(secret, header, body, now - 600)).toBe(true);
    expect(verifyWebhook(secret, undefined, body, now)).toBe(false);
  });

  it('refuses webhook URLs that are not https or point inside the network, outside development', async () => {
    for (const [url, reason] of [
      ['ftp://example.com/hook', 'scheme'],
      ['not a url', 'invalid'],
      ['https://user:pw@example.com/hook', 'credentials'],
      ['http://example.com/hook', 'scheme'],
    ] as const) {
      const refused = await api.call('PUT', `/studio/games/${appId}/webhook`, { token: owner.token, body: { url } });
      expect(refused.statusCode, url).toBe(422);
      expect(refused.json()).toMatchObject({ error: 'validation', data: { reason } });
    }
    // Refusals changed nothing.
    expect((await api.call('GET', `/studio/games/${appId}/webhook`, { token: owner.token })).json().data.url).toBe(receiver.url);

    // A server reachable by others refuses loopback, private and link-local targets, by name or address.
    const production = await openApiInstance(api.database, { env: { HOST: '0.0.0.0', APP_SECRET: 'p'.repeat(40) } });
    try {
      for (const url of [
        'https://127.0.0.1/hook',
        'https://localhost/hook',
        'https://10.1.2.3/hook',
        'https://169.254.169.254/latest',
        'https://[::1]/hook',
        'https://[::ffff:192.168.0.1]/hook',
        'http://127.0.0.1:9/hook',
      ]) {
        await expect(production.services.webhooks.setUrl({ userId: owner.userInfo.uid, tokenId: 0 }, appId, url), url).rejects.toMatchObject({
          code: 'validation',
        });
      }
    } finally {
      await production.close();
    }
    // And the sender refuses to connect where a name resolves inward, even when the URL was saved before.
    const answer = await new HttpWebhookSender({ allowPrivate: false }).post(`http://localhost:${new URL(receiver.url).port}/`, {}, '{}');
    expect(answer).toMatchObject({ statusCode: null, error: expect.stringContaining('not a public address') });
  });

  it('checks the address rule in force before every delivery: a loopback URL saved earlier is not sent by a production-like server', async () => {
    const { db } = api.services.database;
    const gamma = await appIdOf(api.database, 'gamma');
    await db.updateTable('apps').set({ developer_user_id: owner.userInfo.uid }).where('id', '=', gamma).execute();
    const production = await openApiInstance(api.database, {
      env: { HOST: '0.0.0.0', APP_SECRET: 'p'.repeat(40), APP_SECRET_PREVIOUS: api.config.appSecret },
    });
    const queue = async (url: string) => {
      // Saved under a development configuration (a copied database, a changed APP_ENV), then set directly as it was stored.
      expect((await api.call('PUT', `/studio/games/${gamma}/webhook`, { token: owner.token, body: { url: receiver.url } })).statusCode).toBe(200);
      await db.updateTable('game_webhooks').set({ url }).where('app_id', '=', gamma).execute();
      const now = new Date().toISOString();
      const eventId = `evt_rule_${randomBytes(6).toString('hex')}`;
      await db
        .insertInto('webhook_deliveries')
        .values({
          app_id: gamma,
          event_id: eventId,
          event_type: 'test',
          source_key: `rule:${eventId}`,
          payload: JSON.stringify({ id: eventId, type: 'test' }),
          status: 'pending',
          next_attempt_at: now,
          lease_until: null,
          leased_by: null,
          last_attempt_at: null,
          last_status_code: null,
          last_response: null,
          last_error: null,
          delivered_at: null,
          created_at: now,
        })
        .execute();
      return eventId;
    };
    const logged = async (instance: { services: TestApi['services'] }, eventId: string) =>
      (await instance.services.webhooks.settings({ userId: owner.userInfo.uid, tokenId: 0 }, gamma)).deliveries.find((d) => d.eventId === eventId)!;
    const port = new URL(receiver.url).port;
    try {
      for (const [url, reason] of [
        [`http://127.0.0.1:${port}/playport/webhook`, 'scheme'],
        [`https://127.0.0.1:${port}/playport/webhook`, 'private_address'],
        [`https://[::127.0.0.1]:${port}/playport/webhook`, 'private_address'],
        [`https://[::7f00:1]:${port}/playport/webhook`, 'private_address'],
        [`https://[::ffff:0:127.0.0.1]:${port}/playport/webhook`, 'private_address'],
      ] as const) {
        const eventId = await queue(url);
        const before = receiver.received.length;
        await production.services.webhooks.deliverDue();
        expect(receiver.received.length, url).toBe(before);
        // Given up at once, with the reason the Studio shows.
        expect(await logged(production, eventId), url).toMatchObject({ status: 'failed', attempts: 1, lastStatusCode: null, refused: reason });
      }
      // The same URL on a development server (loopback allowed, as before) is delivered.
      const eventId = await queue(`http://127.0.0.1:${port}/playport/webhook`);
      await api.services.webhooks.deliverDue();
      expect(await logged(api, eventId)).toMatchObject({ status: 'delivered', lastStatusCode: 200, refused: null });
      expect(receiver.received.at(-1)!.body).toContain(eventId);
    } finally {
      await production.close();
      await db.deleteFrom('game_webhooks').where('app_id', '=', gamma).execute();
      await db.deleteFrom('webhook_deliveries').where('app_id', '=', gamma).execute();
    }
  });

  it('lets only the game’s developer use its webhook calls', async () => {
    const guest = await newGuest();
    const member = await newMember();
    const otherDeveloper = await newMember();
    await api.services.developers.saveProfile(otherDeveloper.userInfo.uid, { studioName: 'Other', contactEmail: 'o@other.test' });
    await api.services.database.db.updateTable('apps').set({ developer_user_id: otherDeveloper.userInfo.uid }).where('id', '=', otherAppId).execute();
    const calls = [
      { method: 'GET', path: `/studio/games/${appId}/webhook` },
      { method: 'PUT', path: `/studio/games/${appId}/webhook`, body: { url: receiver.url } },
      { method: 'POST', path: `/studio/games/${appId}/webhook/secret` },
      { method: 'POST', path: `/studio/games/${appId}/webhook/test` },
    ] as const;
    const generation = async () => [
      await api.services.database.db.selectFrom('game_webhooks').select('url').where('app_id', '=', appId).executeTakeFirstOrThrow(),
      await api.services.database.db.selectFrom('game_credentials').selectAll().where('app_id', '=', appId).execute(),
    ];
    const deliveries = async () => (await api.services.database.db.selectFrom('webhook_deliveries').select('id').execute()).length;
    for (const call of calls) {
      const unchanged = [await generation(), await deliveries()];
      for (const [who, token, status] of [
        ['no token', undefined, 401],
        // Without a studio, refused before the game is looked at (decision 107).
        ['guest', guest.token, 403],
        ['member', member.token, 403],
        ['other developer', otherDeveloper.token, 404],
      ] as const) {
        const answer = await api.call(call.method, call.path, { token, ...('body' in call ? { body: call.body } : {}) });
        expect(answer.statusCode, `${call.method} ${call.path} as ${who}`).toBe(status);
        expect(answer.body).not.toContain('whsec_');
      }
      expect([await generation(), await deliveries()]).toEqual(unchanged);
      const asOwner = await api.call(call.method, call.path, { token: owner.token, ...('body' in call ? { body: call.body } : {}) });
      expect(asOwner.statusCode, `${call.method} ${call.path} as owner`).toBe(200);
      if (call.path.endsWith('/secret')) secret = asOwner.json().data.secret;
    }
    // The other developer's own game is theirs; a game that does not exist is not found.
    expect((await api.call('GET', `/studio/games/${otherAppId}/webhook`, { token: otherDeveloper.token })).statusCode).toBe(200);
    expect((await api.call('GET', `/studio/games/${otherAppId}/webhook`, { token: owner.token })).statusCode).toBe(404);
    expect((await api.call('GET', `/studio/games/999999/webhook`, { token: owner.token })).statusCode).toBe(404);
  });

  it('checks in the service itself that the caller is the game’s developer: another studio’s member is refused and nothing changes', async () => {
    const other = await newMember();
    await api.services.developers.saveProfile(other.userInfo.uid, { studioName: 'Elsewhere', contactEmail: 'e@elsewhere.test' });
    const stranger = { userId: other.userInfo.uid, tokenId: 0 };
    const { db } = api.services.database;
    const before = async () => [
      await db.selectFrom('game_webhooks').selectAll().where('app_id', '=', appId).execute(),
      await db.selectFrom('game_credentials').selectAll().where('app_id', '=', appId).execute(),
      (await db.selectFrom('webhook_deliveries').select('id').execute()).length,
    ];
    const unchanged = await before();
    const webhooks = api.services.webhooks;
    for (const [name, call] of [
      ['settings', () => webhooks.settings(stranger, appId)],
      ['setUrl', () => webhooks.setUrl(stranger, appId, 'https://elsewhere.test/hook')],
      ['rotateSecret', () => webhooks.rotateSecret(stranger, appId)],
      ['sendTest', () => webhooks.sendTest(stranger, appId)],
    ] as const) {
      await expect(call(), name).rejects.toMatchObject({ code: 'not_found' });
    }
    await expect(webhooks.settings(null, appId)).rejects.toMatchObject({ code: 'unauthenticated' });
    expect(await before()).toEqual(unchanged);
    // The developer of the game is let through.
    expect((await webhooks.settings({ userId: owner.userInfo.uid, tokenId: 0 }, appId)).url).not.toBeNull();
  });

  describe("the game backend's signed calls", () => {
    let gameSecret: string;
    let otherSecret: string;
    beforeAll(async () => {
      gameSecret = (await api.services.records.newBackendSecret(appId)).secret;
      otherSecret = (await api.services.records.newBackendSecret(otherAppId)).secret;
    });
    function signed(path: string, body: object, options: { secret?: string; timestamp?: number; app?: number } = {}) {
      const raw = JSON.stringify(body);
      const timestamp = String(options.timestamp ?? Math.floor(Date.now() / 1000));
      const signature = `v1=${backendSignature(options.secret ?? gameSecret, timestamp, raw)}`;
      const request = () =>
        api.app.inject({
          method: 'POST',
          url: `/serve/api/game/backend/${options.app ?? appId}/${path}`,
          headers: { 'content-type': 'application/json', 'playport-timestamp': timestamp, 'playport-signature': signature },
          payload: raw,
        });
      return { request, raw, timestamp, signature };
    }

    it("looks up a player's items and verifies a purchase", async () => {
      const member = await newMember();
      const theme = await buy(member, 'alpha-night-theme');
      await buy(member, 'alpha-hints');
      await buy(member, 'alpha-hints');
      const items = await signed('items', { uid: member.userInfo.uid }).request();
      expect(items.statusCode, items.body).toBe(200);
      expect(items.json().data).toEqual({
        uid: member.userInfo.uid,
        livemode: true,
        permanent: [{ sku: 'alpha-night-theme', orderId: theme.id, paidAt: expect.any(String) }],
        consumables: [{ sku: 'alpha-hints', quantity: 2 }],
      });
      const verified = await signed('purchases/verify', { orderId: theme.id }).request();
      expect(verified.statusCode, verified.body).toBe(200);
      expect(verified.json().data).toMatchObject({
        orderId: theme.id,
        livemode: true,
        status: 'paid',
        sku: 'alpha-night-theme',
        uid: member.userInfo.uid,
        amount: 99,
        currency: 'USD',
      });
      await notify(refundOf(theme, member.userInfo.uid, nextTransaction()));
      // The same call again within the second: a nonce makes it another signature.
      expect((await signed('purchases/verify', { orderId: theme.id, nonce: '2' }).request()).json().data.status).toBe('refunded');
      expect((await signed('items', { uid: member.userInfo.uid, nonce: '2' }).request()).json().data.permanent).toEqual([]);
      expect((await signed('items', { uid: 999_999_999 }).request()).statusCode).toBe(404);
    });

    it('refuses a bad signature, a replay, an old timestamp and another game’s order', async () => {
      const member = await newMember();
      const theme = await buy(member, 'alpha-night-theme');
      const reasonOf = async (answer: Awaited<ReturnType<ReturnType<typeof signed>['request']>>) => {
        expect(answer.statusCode, answer.body).toBe(401);
        return answer.json().data.reason as string;
      };
      expect(await reasonOf(await signed('purchases/verify', { orderId: theme.id }, { secret: otherSecret }).request())).toBe('mismatch');
      expect(await reasonOf(await signed('items', { uid: member.userInfo.uid }, { timestamp: Math.floor(Date.now() / 1000) - 3600 }).request())).toBe(
        'expired',
      );
      const tampered = signed('items', { uid: member.userInfo.uid });
      const changed = await api.app.inject({
        method: 'POST',
        url: `/serve/api/game/backend/${appId}/items`,
        headers: { 'content-type': 'application/json', 'playport-timestamp': tampered.timestamp, 'playport-signature': tampered.signature },
        payload: JSON.stringify({ uid: owner.userInfo.uid }),
      });
      expect(await reasonOf(changed)).toBe('mismatch');
      const missing = await api.app.inject({
        method: 'POST',
        url: `/serve/api/game/backend/${appId}/items`,
        headers: { 'content-type': 'application/json' },
        payload: '{"uid":1}',
      });
      expect(await reasonOf(missing)).toBe('missing');
      const once = signed('purchases/verify', { orderId: theme.id });
      expect((await once.request()).statusCode).toBe(200);
      expect(await reasonOf(await once.request())).toBe('replayed');
      // Another game's backend, with its own valid secret, cannot see this game's order.
      const foreign = await signed('purchases/verify', { orderId: theme.id }, { secret: otherSecret, app: otherAppId }).request();
      expect(foreign.statusCode, foreign.body).toBe(404);
      expect(foreign.body).not.toContain(String(member.userInfo.uid));
      // Bad input is a clear refusal, not a 500.
      const bad = await signed('purchases/verify', { orderId: '../../x' }).request();
      expect(bad.statusCode).toBe(422);
    });
  });
});
