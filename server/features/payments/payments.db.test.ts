import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeTestApiWithXsolla, openTestApiWithXsolla, TEST_XSOLLA, type XsollaStandIn } from '#server/testing/test-orders.ts';
import { appIdOf, type TestApi } from '#server/testing/test-api.ts';
import { testPlayers } from '#server/testing/test-players.ts';
import { webhookSignature } from '#server/adapters/payments/xsolla-notifications.ts';

const key = () => randomBytes(12).toString('base64url');

const payment = (o: { id: string }, uid: number, transaction: number, amount = 1.99) => ({
  notification_type: 'payment',
  purchase: { total: { currency: 'USD', amount } },
  user: { id: String(uid) },
  transaction: { id: transaction, external_id: o.id, dry_run: 1 },
  custom_parameters: { order_id: o.id },
});

const orderPaid = (o: { id: string }, uid: number) => ({
  notification_type: 'order_paid',
  items: [{ sku: 'alpha-gold-tiles', type: 'virtual_good', quantity: 1, amount: '1.99' }],
  order: { id: 1, currency: 'USD', amount: '1.99', status: 'paid' },
  user: { external_id: String(uid) },
  custom_parameters: { order_id: o.id },
});

const refund = (o: { id: string }, uid: number, transaction: number) => ({
  notification_type: 'refund',
  purchase: { total: { currency: 'USD', amount: 1.99 } },
  user: { id: String(uid) },
  transaction: { id: transaction, external_id: o.id },
  refund_details: { code: 1, reason: 'Requested by the player' },
  custom_parameters: { order_id: o.id },
});

/*
 * In-game purchases against a stand-in of Xsolla's server API on loopback; notifications reach the
 * webhook as Xsolla sends them (raw JSON, `Authorization: Signature sha1(body + secret)`).
 */
describe('payments API', () => {
  let api: TestApi;
  let xsolla: XsollaStandIn;
  let appId: number;

  beforeAll(async () => {
    ({ api, xsolla } = await openTestApiWithXsolla());
    appId = await appIdOf(api.database, 'alpha');
  });
  afterAll(() => closeTestApiWithXsolla({ api, xsolla }));

  const { newGuest, newMember } = testPlayers(() => api, 9);

  async function order(token: string, body: Record<string, unknown> = {}) {
    const response = await api.call('POST', `/game/pay/${appId}`, { token, body: { sku: 'alpha-gold-tiles', idempotencyKey: key(), ...body } });
    expect(response.statusCode, response.body).toBe(201);
    return response.json().data as { id: string; amount: number; currency: string; status: string };
  }

  async function checkout(token: string, orderId: string) {
    return api.call('POST', '/payment/xsolla/create/', { token, body: { order_id: orderId }, address: '203.0.113.7' });
  }

  function notify(notification: object, options: { signature?: string } = {}) {
    const payload = JSON.stringify(notification);
    return api.app.inject({
      method: 'POST',
      url: '/serve/api/payment/xsolla/webhook/',
      headers: { 'content-type': 'application/json', authorization: `Signature ${options.signature ?? webhookSignature(payload, TEST_XSOLLA.secret)}` },
      payload,
    });
  }

  const status = async (token: string, id: string) => (await api.call('GET', `/game/orders/${id}`, { token })).json().data.status as string;
  const events = async (id: string) => {
    const row = await api.services.database.db.selectFrom('orders').select('id').where('public_id', '=', id).executeTakeFirstOrThrow();
    return (await api.services.database.db.selectFrom('order_events').select(['type', 'to_status']).where('order_id', '=', row.id).orderBy('id').execute()).map(
      (e) => `${e.type}:${e.to_status}`,
    );
  };

  it('lists the game’s items with the server’s prices in the game config, and who owns them', async () => {
    const member = await newMember();
    const config = await api.call('GET', `/game/config/${appId}?locale=zh-CN`, { token: member.token });
    expect(config.json().data.items).toEqual([
      { sku: 'alpha-hints', name: '提示', amount: 49, currency: 'USD', owned: false, kind: 'consumable' },
      { sku: 'alpha-night-theme', name: 'Night theme', amount: 99, currency: 'USD', owned: false, kind: 'permanent' },
      { sku: 'alpha-gold-tiles', name: '金色方块', amount: 199, currency: 'USD', owned: false, kind: 'permanent' },
    ]);
  });

  it('asks a guest to secure the account before buying', async () => {
    const guest = await newGuest();
    const response = await api.call('POST', `/game/pay/${appId}`, { token: guest.token, body: { sku: 'alpha-gold-tiles', idempotencyKey: key() } });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({
      code: 403,
      error: 'account_not_secured',
      message: 'Secure your account first: set a password or link a sign-in method, so that what you buy stays yours.',
      data: null,
    });
  });

  it('takes the price from the server, never the client, and answers a retried request with the same order', async () => {
    const member = await newMember();
    const idempotencyKey = key();
    const first = await order(member.token, { idempotencyKey, amount: 1, price: 1, currency: 'EUR' });
    expect(first).toMatchObject({ amount: 199, currency: 'USD', status: 'created' });
    const again = await order(member.token, { idempotencyKey });
    expect(again.id).toBe(first.id);
    const unknown = await api.call('POST', `/game/pay/${appId}`, { token: member.token, body: { sku: 'no-such-item', idempotencyKey: key() } });
    expect(unknown.statusCode).toBe(404);
  });

  it('creates the Pay Station token through Xsolla’s server API and answers the sandbox Pay Station address', async () => {
    const member = await newMember();
    const o = await order(member.token);
    const response = await checkout(member.token, o.id);
    expect(response.statusCode, response.body).toBe(200);
    const data = response.json().data as { url: string; token: string; provider: string; sandbox: boolean };
    expect(data).toMatchObject({ provider: 'xsolla', sandbox: true });
    expect(data.url).toBe(`https://sandbox-secure.xsolla.com/paystation4/?token=${data.token}`);
    expect(xsolla.requests.at(-1)).toMatchObject({
      userIp: '203.0.113.7',
      body: {
        user: { id: { value: String(member.userInfo.uid) } },
        purchase: { items: [{ sku: 'alpha-gold-tiles', quantity: 1 }] },
        settings: { external_id: o.id, currency: 'USD', mode: 'sandbox', language: 'en' },
        custom_parameters: { order_id: o.id },
      },
    });
    expect(await status(member.token, o.id)).toBe('pending');
  });

  it('refuses to open another member’s order, and a notification that pays it for another user', async () => {
    const owner = await newMember();
    const other = await newMember();
    const o = await order(owner.token);
    expect((await checkout(other.token, o.id)).statusCode).toBe(404);
    expect((await api.call('GET', `/game/orders/${o.id}`, { token: other.token })).statusCode).toBe(404);
    const refused = await notify(payment(o, other.userInfo.uid, 70001));
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({ error: { code: 'INVALID_USER', message: 'The order belongs to another user' } });
    expect(await status(owner.token, o.id)).toBe('created');
  });

  it('refuses a bad signature before anything else, and changes nothing', async () => {
    const member = await newMember();
    const o = await order(member.token);
    const before = await events(o.id);
    const forged = await notify(payment(o, member.userInfo.uid, 70002), { signature: webhookSignature('{}', TEST_XSOLLA.secret) });
    expect(forged.statusCode).toBe(400);
    expect(forged.json().error.code).toBe('INVALID_SIGNATURE');
    const none = await api.app.inject({
      method: 'POST',
      url: '/serve/api/payment/xsolla/webhook/',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify(payment(o, member.userInfo.uid, 70002)),
    });
    expect(none.json().error.code).toBe('INVALID_SIGNATURE');
    expect(await status(member.token, o.id)).toBe('created');
    expect(await events(o.id)).toEqual(before);
  });

  it('refuses an amount or currency that is not the order’s', async () => {
    const member = await newMember();
    const o = await order(member.token);
    const cheap = await notify(payment(o, member.userInfo.uid, 70003, 0.01));
    expect(cheap.json().error.code).toBe('INCORRECT_AMOUNT');
    expect(await status(member.token, o.id)).toBe('created');
  });

  it('pays an order once whatever arrives twice or out of order, grants the item, delivers it once, and takes it back on refund', async () => {
    const member = await newMember();
    const o = await order(member.token);
    await checkout(member.token, o.id);
    // order_paid before payment: paid either way.
    expect((await notify(orderPaid(o, member.userInfo.uid))).statusCode).toBe(204);
    expect(await status(member.token, o.id)).toBe('paid');
    expect((await notify(payment(o, member.userInfo.uid, 70004))).statusCode).toBe(204);
    // The same notification again: acknowledged, nothing changes.
    expect((await notify(payment(o, member.userInfo.uid, 70004))).statusCode).toBe(204);
    expect((await notify(orderPaid(o, member.userInfo.uid))).statusCode).toBe(204);
    expect(await events(o.id)).toEqual(['created:created', 'checkout:pending', 'order_paid:paid', 'payment:paid']);

    const config = await api.call('GET', `/game/config/${appId}`, { token: member.token });
    expect(config.json().data.items.find((i: { sku: string }) => i.sku === 'alpha-gold-tiles').owned).toBe(true);

    const first = await api.call('POST', `/game/orders/${o.id}/deliver`, { token: member.token });
    const second = await api.call('POST', `/game/orders/${o.id}/deliver`, { token: member.token });
    expect(first.json().data).toMatchObject({ deliveredNow: true, order: { status: 'paid', delivered: true } });
    expect(second.json().data.deliveredNow).toBe(false);

    const orders = await api.call('GET', '/member/orders/', { token: member.token });
    expect(orders.json().data.items[0]).toMatchObject({
      id: o.id,
      appTitle: 'Alpha 2048',
      itemName: 'Gold tiles',
      amount: 199,
      currency: 'USD',
      status: 'paid',
      providerReference: '70004',
    });
    // In the page's locale: the app's title as the catalogue has it in that language.
    const zhOrders = await api.call('GET', '/member/orders/?locale=zh-CN', { token: member.token });
    expect(zhOrders.json().data.items[0]).toMatchObject({ id: o.id, appTitle: '阿尔法数字', itemName: '金色方块' });
    const zhOrder = await api.call('GET', `/game/orders/${o.id}?locale=zh-CN`, { token: member.token });
    expect(zhOrder.json().data).toMatchObject({ appTitle: '阿尔法数字', itemName: '金色方块' });

    expect((await notify(refund(o, member.userInfo.uid, 70004))).statusCode).toBe(204);
    expect(await status(member.token, o.id)).toBe('refunded');
    // A late payment notification does not bring a refunded order back.
    expect((await notify(payment(o, member.userInfo.uid, 70005))).statusCode).toBe(204);
    expect(await status(member.token, o.id)).toBe('refunded');
    const after = await api.call('GET', `/game/config/${appId}`, { token: member.token });
    expect(after.json().data.items.find((i: { sku: string }) => i.sku === 'alpha-gold-tiles').owned).toBe(false);
  });

  it('ends refunded when the refund arrives before the payment', async () => {
    const member = await newMember();
    const o = await order(member.token);
    expect((await notify(refund(o, member.userInfo.uid, 70006))).statusCode).toBe(204);
    expect((await notify(payment(o, member.userInfo.uid, 70006))).statusCode).toBe(204);
    expect(await status(member.token, o.id)).toBe('refunded');
    expect((await api.call('POST', `/game/orders/${o.id}/deliver`, { token: member.token })).json().data.deliveredNow).toBe(false);
  });

  it('answers user validation, and acknowledges notifications it does not act on', async () => {
    const member = await newMember();
    expect((await notify({ notification_type: 'user_validation', user: { id: String(member.userInfo.uid) } })).statusCode).toBe(204);
    const unknown = await notify({ notification_type: 'user_validation', user: { id: '999999999' } });
    expect(unknown.json().error.code).toBe('INVALID_USER');
    expect((await notify({ notification_type: 'user_search', user: { public_id: 'x' } })).statusCode).toBe(204);
    const orphan = await notify({
      notification_type: 'payment',
      user: { id: '1' },
      transaction: { id: 1, external_id: 'ord_nothing' },
      custom_parameters: { order_id: 'ord_nothing' },
    });
    expect(orphan.json().error.code).toBe('INVALID_PARAMETER');
  });
});
