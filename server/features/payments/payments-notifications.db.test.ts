import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { solvedChallenge } from '#server/testing/guest-challenge.ts';
import { closeTestApiWithXsolla, openTestApiWithXsolla, TEST_XSOLLA, type XsollaStandIn } from '#server/testing/test-orders.ts';
import { appIdOf, type TestApi } from '#server/testing/test-api.ts';
import { paidNotifications } from '#server/adapters/payments/sandbox-payments.ts';
import { PaymentsRepository } from './payments.repository.ts';
import { payableOf } from './order-views.ts';
import { webhookSignature } from '#server/adapters/payments/xsolla-notifications.ts';

const payment = (o: { id: string }, uid: number, transaction: number, total?: object) => ({
  notification_type: 'payment',
  ...(total ? { purchase: { total } } : {}),
  user: { id: String(uid) },
  transaction: { id: transaction, external_id: o.id },
  custom_parameters: { order_id: o.id },
});
const orderPaid = (o: { id: string }, uid: number, stated: object) => ({
  notification_type: 'order_paid',
  order: { id: 1, status: 'paid', ...stated },
  user: { external_id: String(uid) },
  custom_parameters: { order_id: o.id },
});

/*
 * What a notification must say before it changes an order (docs/payments.md): a paying one its
 * amount and currency, in the currency's own minor units; a declined payment is recorded; and a
 * checkout opened while a payment commits never writes over it.
 */
describe('payment notifications', () => {
  let api: TestApi;
  let xsolla: XsollaStandIn;
  let appId: number;

  beforeAll(async () => {
    ({ api, xsolla } = await openTestApiWithXsolla());
    appId = await appIdOf(api.database, 'alpha');
    const now = new Date().toISOString();
    await api.services.database.db
      .insertInto('app_items')
      .values({
        app_id: appId,
        sku: 'alpha-yen-pack',
        price_minor: 120,
        currency: 'JPY',
        names: JSON.stringify({ en: 'Yen pack' }),
        active: 1,
        created_at: now,
        updated_at: now,
      })
      .execute();
  });
  afterAll(() => closeTestApiWithXsolla({ api, xsolla }));

  let address = 0;
  async function newMember() {
    address += 1;
    const guest = (await api.call('POST', '/guest/login/', { body: await solvedChallenge(api.app), address: `10.6.${address >> 8}.${address & 255}` })).json()
      .data as { token: string };
    const response = await api.call('PATCH', '/member/password/', {
      token: guest.token,
      body: { username: `payer${randomBytes(4).toString('hex')}`, password: 'Harbour-Lantern-Tricky-9' },
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data as { token: string; userInfo: { uid: number } };
  }

  async function order(token: string, sku = 'alpha-gold-tiles') {
    const response = await api.call('POST', `/game/pay/${appId}`, { token, body: { sku, idempotencyKey: randomBytes(12).toString('base64url') } });
    expect(response.statusCode, response.body).toBe(201);
    return response.json().data as { id: string; amount: number; currency: string };
  }

  function notify(body: object | string) {
    const payload = typeof body === 'string' ? body : JSON.stringify(body);
    return api.app.inject({
      method: 'POST',
      url: '/serve/api/payment/xsolla/webhook/',
      headers: { 'content-type': 'application/json', authorization: `Signature ${webhookSignature(payload, TEST_XSOLLA.secret)}` },
      payload,
    });
  }

  const status = async (token: string, id: string) => (await api.call('GET', `/game/orders/${id}`, { token })).json().data.status as string;
  const rowOf = (id: string) => api.services.database.db.selectFrom('orders').selectAll().where('public_id', '=', id).executeTakeFirstOrThrow();
  const events = async (id: string) =>
    (
      await api.services.database.db
        .selectFrom('order_events')
        .select(['type', 'to_status'])
        .where('order_id', '=', (await rowOf(id)).id)
        .orderBy('id')
        .execute()
    ).map((e) => `${e.type}:${e.to_status}`);

  it('refuses a signed payment or order_paid that does not state its amount and currency, and pays nothing', async () => {
    const member = await newMember();
    const o = await order(member.token);
    const uid = member.userInfo.uid;
    for (const notification of [
      payment(o, uid, 81001),
      payment(o, uid, 81002, { currency: 'USD' }),
      payment(o, uid, 81003, { amount: 1.99 }),
      payment(o, uid, 81004, { amount: 'lots', currency: 'USD' }),
      orderPaid(o, uid, {}),
      orderPaid(o, uid, { currency: 'USD' }),
      orderPaid(o, uid, { amount: '1.99' }),
    ]) {
      const answer = await notify(notification);
      expect(answer.statusCode, JSON.stringify(notification)).toBe(400);
      expect(answer.json().error.code).toBe('INVALID_PARAMETER');
    }
    expect(await status(member.token, o.id)).toBe('created');
    expect(await events(o.id)).toEqual(['created:created']);
    expect((await notify(payment(o, uid, 81005, { amount: 1.99, currency: 'usd' }))).statusCode).toBe(204);
    expect(await status(member.token, o.id)).toBe('paid');
  });

  it('records a declined payment: the unpaid order fails and may be paid again, a paid one stays paid', async () => {
    const member = await newMember();
    const uid = member.userInfo.uid;
    const o = await order(member.token);
    expect((await api.call('POST', '/payment/xsolla/create/', { token: member.token, body: { order_id: o.id }, address: '203.0.113.7' })).statusCode).toBe(200);
    expect(await status(member.token, o.id)).toBe('pending');
    const declined = {
      notification_type: 'ps_declined',
      user: { id: String(uid) },
      transaction: { id: 82001, external_id: o.id },
      custom_parameters: { order_id: o.id },
    };
    expect((await notify(declined)).statusCode).toBe(204);
    expect(await status(member.token, o.id)).toBe('failed');
    // Sent again: one event.
    expect((await notify(declined)).statusCode).toBe(204);
    expect((await notify(payment(o, uid, 82002, { amount: 1.99, currency: 'USD' }))).statusCode).toBe(204);
    const rejected = {
      notification_type: 'afs_reject',
      user: { id: String(uid) },
      transaction: { id: 82003, external_id: o.id },
      refund_details: { code: 4, reason: 'Potential fraud' },
      custom_parameters: { order_id: o.id },
    };
    expect((await notify(rejected)).statusCode).toBe(204);
    expect(await status(member.token, o.id)).toBe('paid');
    expect(await events(o.id)).toEqual(['created:created', 'checkout:pending', 'ps_declined:failed', 'payment:paid', 'afs_reject:paid']);
  });

  it('pays an order priced in yen, whose amounts have no decimals, and refuses one read as cents', async () => {
    const member = await newMember();
    const uid = member.userInfo.uid;
    const o = await order(member.token, 'alpha-yen-pack');
    expect(o).toMatchObject({ amount: 120, currency: 'JPY' });
    expect((await notify(payment(o, uid, 83001, { amount: 1.2, currency: 'JPY' }))).json().error.code).toBe('INVALID_PARAMETER');
    expect((await notify(payment(o, uid, 83002, { amount: 12_000, currency: 'JPY' }))).json().error.code).toBe('INCORRECT_AMOUNT');
    // The sandbox tells the webhook what Xsolla would: ¥120, written without decimals.
    const [paying, paid] = paidNotifications(payableOf(await rowOf(o.id)), 83003) as [
      { purchase: { total: { amount: number } } },
      { order: { amount: string } },
    ];
    expect(paying.purchase.total.amount).toBe(120);
    expect(paid.order.amount).toBe('120');
    expect((await notify(paying)).statusCode).toBe(204);
    expect((await notify(paid)).statusCode).toBe(204);
    expect(await status(member.token, o.id)).toBe('paid');
  });

  it('refuses a signed notification nested thousands deep with INVALID_PARAMETER, not a 500', async () => {
    const member = await newMember();
    const o = await order(member.token);
    const deep = JSON.stringify(payment(o, member.userInfo.uid, 84001, { amount: 1.99, currency: 'USD' })).replace(
      /\}$/,
      `,"extra":${'['.repeat(20_000)}${']'.repeat(20_000)}}`,
    );
    const answer = await notify(deep);
    expect(answer.statusCode).toBe(400);
    expect(answer.json().error.code).toBe('INVALID_PARAMETER');
    expect(await status(member.token, o.id)).toBe('created');
  });

  // SQLite runs one writer at a time, so only PostgreSQL can interleave the two transactions.
  it.runIf(process.env.DATABASE_URL?.startsWith('postgres'))(
    'never writes a checkout’s pending over a payment that commits while the checkout is noted',
    async () => {
      const member = await newMember();
      const o = await order(member.token);
      const row = await rowOf(o.id);
      const repository = new PaymentsRepository(api.services.database.db, api.services.database.kind);
      const other = await api.database.reopen();
      try {
        let release!: () => void;
        let holder!: string;
        const locked = new Promise<void>((ready) => {
          void other.db
            .transaction()
            .execute(async (trx) => {
              await trx.updateTable('orders').set({ status: 'paid', paid_at: new Date().toISOString() }).where('id', '=', row.id).execute();
              holder = (await sql<{ x: string }>`select pg_current_xact_id()::text as x`.execute(trx)).rows[0]!.x;
              ready();
              await new Promise<void>((done) => (release = done));
            })
            .catch(() => undefined);
        });
        await locked;
        const pending = repository.markPending(row.id, 'xs-race-1', new Date().toISOString());
        // Wait until the checkout's update waits for the payment's row lock, then let the payment commit.
        for (let i = 0; i < 200; i++) {
          const waiting = await sql<{
            n: number;
          }>`select count(*)::int as n from pg_locks where locktype = 'transactionid' and transactionid::text = ${holder} and not granted`.execute(other.db);
          if (waiting.rows[0]!.n > 0) break;
          await new Promise((r) => setTimeout(r, 20));
        }
        release();
        await pending;
        expect((await rowOf(o.id)).status).toBe('paid');
      } finally {
        await other.close();
      }
    },
  );
});
