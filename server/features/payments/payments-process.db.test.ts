import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiProcess, startApiProcess } from '#server/testing/api-process-start.ts';
import { freePort } from '#server/testing/free-port.ts';
import { solvedChallenge } from '#server/testing/guest-challenge.ts';
import { appIdOf, openTestApi, type TestApi } from '#server/testing/test-api.ts';
import { sendNotification } from '#server/testing/xsolla-stand-in.ts';

/*
 * Payments across real processes: the server killed while it handles a notification loses no
 * paid order (Xsolla sends it again; the result is one paid order), and the built-in sandbox
 * checkout pays through the webhook over HTTP, as Xsolla would.
 */

const SECRET = 'xsolla-webhook-secret';
const XSOLLA_ENV = { XSOLLA_PROJECT_ID: '301234', XSOLLA_API_KEY: 'xsolla-test-key', XSOLLA_WEBHOOK_SECRET: SECRET };

async function memberWithOrder(api: TestApi, address: string) {
  const guest = (await api.call('POST', '/guest/login/', { body: await solvedChallenge(api.app), address })).json().data as { token: string };
  const member = (
    await api.call('PATCH', '/member/password/', {
      token: guest.token,
      body: { username: `crash${randomBytes(4).toString('hex')}`, password: 'Harbour-Lantern-Tricky-9' },
    })
  ).json().data as { token: string; userInfo: { uid: number } };
  const appId = await appIdOf(api.database, 'alpha');
  const order = (
    await api.call('POST', `/game/pay/${appId}`, {
      token: member.token,
      body: { sku: 'alpha-gold-tiles', idempotencyKey: randomBytes(12).toString('base64url') },
    })
  ).json().data as { id: string };
  return { member, order };
}

/** The API alone in its own process on the test database, and its Xsolla webhook's address. */
async function startServer(env: Record<string, string>): Promise<ApiProcess & { url: string }> {
  const server = await startApiProcess(env);
  return { ...server, url: `${server.origin}/serve/api/payment/xsolla/webhook/` };
}

const paymentOf = (order: { id: string }, uid: number) => ({
  notification_type: 'payment',
  purchase: { total: { currency: 'USD', amount: 1.99 } },
  user: { id: String(uid) },
  transaction: { id: 880011, external_id: order.id },
  custom_parameters: { order_id: order.id },
});

// Each test starts the API in a process of its own (a second Node.js with the TypeScript sources):
// seconds on a quiet machine, many more on a busy one, so these tests have a minute each rather
// than the db project's 20 s.
describe('payments across processes', { timeout: 60_000 }, () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await openTestApi(XSOLLA_ENV);
  });
  afterAll(() => api?.close());

  for (const fault of ['webhook-before-commit', 'webhook-after-commit'] as const) {
    it(`keeps one paid order when the server dies ${fault === 'webhook-before-commit' ? 'before' : 'after'} the change commits, before it answers`, async () => {
      const { member, order } = await memberWithOrder(api, `10.8.0.${fault.length}`);
      const dying = await startServer({ ...api.database.env, ...XSOLLA_ENV, FAULT_INJECTION: fault });
      // The connection drops without an answer: to Xsolla, a notification to send again.
      await expect(sendNotification(dying.url, SECRET, paymentOf(order, member.userInfo.uid))).rejects.toThrow();
      expect(await dying.exited).toBe('SIGKILL');

      const status = async () => (await api.call('GET', `/game/orders/${order.id}`, { token: member.token })).json().data.status;
      expect(await status()).toBe(fault === 'webhook-before-commit' ? 'created' : 'paid');

      const restarted = await startServer({ ...api.database.env, ...XSOLLA_ENV });
      try {
        const retry = await sendNotification(restarted.url, SECRET, paymentOf(order, member.userInfo.uid));
        expect(retry.status).toBe(204);
      } finally {
        await restarted.stop();
      }
      expect(await status()).toBe('paid');
      const row = await api.services.database.db.selectFrom('orders').select('id').where('public_id', '=', order.id).executeTakeFirstOrThrow();
      const paidEvents = await api.services.database.db
        .selectFrom('order_events')
        .select('type')
        .where('order_id', '=', row.id)
        .where('to_status', '=', 'paid')
        .execute();
      expect(paidEvents).toHaveLength(1);
    });
  }
});

describe('the sandbox checkout (no Xsolla credentials)', () => {
  let api: TestApi;
  beforeAll(async () => {
    const port = await freePort();
    api = await openTestApi({ PAYMENT_WEBHOOK_URL: `http://127.0.0.1:${port}/serve/api/payment/xsolla/webhook/` });
    await api.app.listen({ port, host: '127.0.0.1' });
  });
  afterAll(() => api?.close());

  it('declines, challenges and pays with the test cards, the payment arriving through the signed webhook', async () => {
    const { member, order } = await memberWithOrder(api, '10.8.1.1');
    const opened = await api.call('POST', '/payment/xsolla/create/', { token: member.token, body: { order_id: order.id } });
    expect(opened.statusCode, opened.body).toBe(200);
    const { url, token, provider, sandbox } = opened.json().data as { url: string; token: string; provider: string; sandbox: boolean };
    expect({ provider, sandbox }).toEqual({ provider: 'sandbox', sandbox: true });
    expect(url).toBe(`/payment/sandbox?token=${token}`);
    expect((await api.call('GET', `/payment/sandbox/checkout/${token}`)).json().data).toMatchObject({
      orderId: order.id,
      itemName: 'Gold tiles',
      amount: 199,
      currency: 'USD',
      status: 'pending',
    });

    const pay = async (card: string, challenge?: string) =>
      (await api.call('POST', '/payment/sandbox/pay/', { body: { token, card, challenge } })).json().data.outcome;
    // No card number is a slip, refused at the field, not a declined card: the order is unchanged.
    const empty = await api.call('POST', '/payment/sandbox/pay/', { body: { token, card: ' - ' } });
    expect(empty.statusCode).toBe(422);
    expect(empty.json()).toMatchObject({ code: 422, data: { errors: { card: ['Enter the card number.'] } } });
    expect(await pay('4000 0000 0000 0002')).toBe('declined');
    const status = async () => (await api.call('GET', `/game/orders/${order.id}`, { token: member.token })).json().data.status;
    expect(await status()).toBe('failed');
    expect(await pay('4000 0000 0000 3220')).toBe('challenge');
    expect(await pay('4000 0000 0000 3220', '0000')).toBe('declined');
    expect(await pay('4000 0000 0000 3220', '1234')).toBe('paid');
    expect(await status()).toBe('paid');
    // Paying again changes nothing.
    expect(await pay('4242 4242 4242 4242')).toBe('paid');
    const row = await api.services.database.db.selectFrom('orders').select('id').where('public_id', '=', order.id).executeTakeFirstOrThrow();
    const kinds = (await api.services.database.db.selectFrom('order_events').select('type').where('order_id', '=', row.id).orderBy('id').execute()).map(
      (e) => e.type,
    );
    expect(kinds).toEqual(['created', 'checkout', 'declined', 'declined', 'payment', 'order_paid']);
    expect((await api.call('GET', '/payment/sandbox/checkout/unknown-token-0123456789')).statusCode).toBe(404);
  });
});
