import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webhookSignature } from '#server/adapters/payments/xsolla-notifications.ts';
import type { DatabaseHandle } from '#server/db/client.ts';
import { openApiInstance, type ApiInstance } from '#server/testing/api-instance.ts';
import { fixtureGameIds, insertUser, type TestApi } from '#server/testing/test-api.ts';
import { closeTestApiWithXsolla, openTestApiWithXsolla, TEST_XSOLLA, testOrders, xsollaTestEnv, type XsollaStandIn } from '#server/testing/test-orders.ts';
import { testPlayers, type TestPlayer } from '#server/testing/test-players.ts';
import { LedgerRepository } from './ledger.repository.ts';
import { feePosting, paymentPosting, refundPosting } from './ledger.ts';

/** Consumable items of alpha's and their prices in cents (one buyer buys each many times): the fixture's hints and two more. */
const SKUS = { 'alpha-hints': 49, 'ledger-gems': 1234, 'ledger-chest': 99_999 } as const;
type Sku = keyof typeof SKUS;

/** One notification Xsolla might send about an order, in any order, any number of times. */
type Step =
  { type: 'payment'; feeCents: number } | { type: 'order_paid' } | { type: 'partial_refund'; cents: number; tag: number } | { type: 'refund'; code: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ type: fc.constant('payment' as const), feeCents: fc.integer({ min: 0, max: 30 }) }),
  fc.record({ type: fc.constant('order_paid' as const) }),
  fc.record({ type: fc.constant('partial_refund' as const), cents: fc.integer({ min: 1, max: 120 }), tag: fc.integer({ min: 0, max: 3 }) }),
  fc.record({ type: fc.constant('refund' as const), code: fc.constantFrom(1, 2, 9) }),
);
const orderScript = fc.record({
  sku: fc.constantFrom(...(Object.keys(SKUS) as Sku[])),
  steps: fc.array(step, { minLength: 1, maxLength: 6 }),
  twice: fc.boolean(),
});

const usd = (cents: number) => ({ currency: 'USD', amount: cents / 100 });

/** Xsolla's notification for a step of an order of `uid`'s paid in `transaction`. */
function notificationOf(s: Step, o: { id: string; sku: Sku }, uid: number, transaction: number): object {
  const common = {
    user: { id: String(uid), external_id: String(uid) },
    transaction: { id: transaction, external_id: o.id },
    custom_parameters: { order_id: o.id },
  };
  switch (s.type) {
    case 'payment':
      return {
        ...common,
        notification_type: 'payment',
        purchase: { total: usd(SKUS[o.sku]) },
        payment_details: { payment: usd(SKUS[o.sku]), xsolla_fee: usd(s.feeCents), vat: usd(0), payout: usd(SKUS[o.sku] - s.feeCents) },
      };
    case 'order_paid':
      return {
        ...common,
        notification_type: 'order_paid',
        order: { id: transaction, currency: 'USD', amount: (SKUS[o.sku] / 100).toFixed(2), status: 'paid' },
      };
    case 'partial_refund':
      return { ...common, notification_type: 'partial_refund', refund_details: { code: 1, reason: `piece ${s.tag}`, amount: s.cents / 100 } };
    case 'refund':
      return { ...common, notification_type: 'refund', purchase: { total: usd(SKUS[o.sku]) }, refund_details: { code: s.code, reason: 'asked' } };
  }
}

function sendTo(app: FastifyInstance, notification: object) {
  const payload = JSON.stringify(notification);
  return app.inject({
    method: 'POST',
    url: '/serve/api/payment/xsolla/webhook/',
    headers: { 'content-type': 'application/json', authorization: `Signature ${webhookSignature(payload, TEST_XSOLLA.secret)}` },
    payload,
  });
}

/*
 * The ledger's invariants over generated notification sequences (decision 149), through the
 * webhook as Xsolla calls it, on the test's database: duplicated and reordered notifications,
 * partial refunds, chargebacks, replays, and two instances at once.
 */
describe('the ledger under generated notifications', () => {
  let api: TestApi;
  let xsolla: XsollaStandIn;
  let appId: number;
  let studio: number;
  let buyer: TestPlayer;
  let nextTransaction = 700_000;

  beforeAll(async () => {
    ({ api, xsolla } = await openTestApiWithXsolla());
    ({ appId } = await fixtureGameIds(api.database));
    studio = await insertUser(api.services, { nickname: 'Ledger Studio' });
    await api.database.db.updateTable('apps').set({ developer_user_id: studio }).where('id', '=', appId).execute();
    buyer = await newMember();
    const now = new Date().toISOString();
    for (const [sku, price] of [
      ['ledger-gems', 1234],
      ['ledger-chest', 99_999],
    ] as const)
      await api.database.db
        .insertInto('app_items')
        .values({
          app_id: appId,
          sku,
          price_minor: price,
          currency: 'USD',
          kind: 'consumable',
          names: JSON.stringify({ en: sku }),
          active: 1,
          created_at: now,
          updated_at: now,
        })
        .execute();
  });
  afterAll(() => closeTestApiWithXsolla({ api, xsolla }));

  const { newMember } = testPlayers(() => api, 149);
  const { order } = testOrders(() => api, { appId: () => appId, firstTransaction: 690_000 });

  const ledgerOf = (orderId: number) => new LedgerRepository(api.database.db).entries({ orderId });
  const orderRow = (publicId: string) => api.database.db.selectFrom('orders').selectAll().where('public_id', '=', publicId).executeTakeFirstOrThrow();

  it('every entry sums to zero, refunds never exceed the payment and match the order, and a replay changes nothing', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(orderScript, { minLength: 1, maxLength: 3 }), async (scripts) => {
        const sent: { o: { id: string; sku: Sku }; notifications: object[] }[] = [];
        for (const script of scripts) {
          const player = buyer;
          const o = { ...(await order(player, script.sku)), sku: script.sku };
          const transaction = ++nextTransaction;
          const notifications = script.steps.map((s) => notificationOf(s, o, player.userInfo.uid, transaction));
          for (const n of script.twice ? [...notifications, ...notifications] : notifications) expect((await sendTo(api.app, n)).statusCode).toBe(204);
          sent.push({ o, notifications });
        }
        for (const { o, notifications } of sent) {
          const row = await orderRow(o.id);
          const entries = await ledgerOf(row.id);
          for (const entry of entries) {
            expect(entry.lines.reduce((sum, l) => sum + l.amount_minor, 0)).toBe(0);
            expect(entry.lines.every((l) => l.currency === entry.currency)).toBe(true);
          }
          const payment = entries.filter((e) => e.kind === 'payment');
          expect(payment).toHaveLength(row.paid_at === null ? 0 : 1);
          const refunded = entries.filter((e) => e.kind === 'refund' || e.kind === 'chargeback').reduce((sum, e) => sum - e.gross_minor, 0);
          expect(refunded).toBeLessThanOrEqual(payment[0]?.gross_minor ?? 0);
          // The order's own account of what went back, kept by payments, is the ledger's.
          if (payment.length) expect(refunded).toBe(row.refunded_minor);
          expect(entries.filter((e) => e.kind === 'provider-fee').length).toBeLessThanOrEqual(1);
          // The same notifications once more: the provider sending everything again changes nothing.
          for (const n of notifications) expect((await sendTo(api.app, n)).statusCode).toBe(204);
          expect(await ledgerOf(row.id)).toEqual(entries);
        }
      }),
      { numRuns: 25 },
    );
    // A studio's balance is the sum of its lines, whatever the sequences were.
    const lines = await api.database.db.selectFrom('ledger_lines').select(['account', 'amount_minor']).where('studio_user_id', '=', studio).execute();
    const sum = (account: string) => lines.filter((l) => l.account === account).reduce((s, l) => s + l.amount_minor, 0);
    const [balance] = await api.services.ledger.balances(studio);
    expect(balance!.available + balance!.pending).toBe(sum('studio'));
    expect(balance!.pending).toBeGreaterThan(0);
    expect(balance!.available).toBeLessThanOrEqual(0);
  }, 120_000);

  it('the same notifications sent at once to two instances give the ledger the order-free model gives', async () => {
    const handle: DatabaseHandle = await api.database.reopen();
    let second: ApiInstance | undefined;
    try {
      second = await openApiInstance(handle, { env: xsollaTestEnv(xsolla.url) });
      const apps = [api.app, second.app];
      const share = await api.services.ledger.shareAt(studio, new Date().toISOString());
      for (let round = 0; round < 6; round += 1) {
        const o = { ...(await order(buyer, 'alpha-hints')), sku: 'alpha-hints' as const };
        const transaction = ++nextTransaction;
        const pieces = [10, 15, 20];
        const notifications = [
          notificationOf({ type: 'payment', feeCents: 3 }, o, buyer.userInfo.uid, transaction),
          ...pieces.map((cents, tag) => notificationOf({ type: 'partial_refund', cents, tag }, o, buyer.userInfo.uid, transaction)),
        ];
        // Each notification goes to both instances at the same moment; the payment goes first, as refunds of an unpaid order change nothing.
        for (const r of await Promise.all(apps.map((app) => sendTo(app, notifications[0]!)))) expect(r.statusCode).toBe(204);
        const answers = await Promise.all(notifications.slice(1).flatMap((n, i) => [sendTo(apps[i % 2]!, n), sendTo(apps[(i + 1) % 2]!, n)]));
        for (const r of answers) expect(r.statusCode).toBe(204);
        const row = await orderRow(o.id);
        const entries = await ledgerOf(row.id);
        const total = (account: string) =>
          entries
            .flatMap((e) => e.lines)
            .filter((l) => l.account === account)
            .reduce((s, l) => s + l.amount_minor, 0);
        // In order, the model posts payment, fee, then the pieces one after another: the totals do not depend on which piece came first.
        const model = [paymentPosting(49, share), feePosting(3, share)];
        let before = 0;
        for (const cents of pieces) {
          model.push(refundPosting('refund', cents, before, 49, share));
          before += cents;
        }
        const modelTotal = (account: string) =>
          model
            .flatMap((p) => p.lines)
            .filter((l) => l.account === account)
            .reduce((s, l) => s + l.amount, 0);
        for (const account of ['buyers', 'provider-deductions', 'platform', 'studio'])
          expect([account, total(account)]).toEqual([account, modelTotal(account)]);
        expect(entries.map((e) => e.kind).sort()).toEqual(['payment', 'provider-fee', 'refund', 'refund', 'refund']);
      }
    } finally {
      await second?.close();
      await handle.close();
    }
  }, 60_000);
});
