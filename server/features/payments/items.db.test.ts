import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { csrfHeadersFor, openSecondInstance, type ApiInstance } from '#server/testing/api-instance.ts';
import { fixtureGameIds, type TestApi } from '#server/testing/test-api.ts';
import {
  ALPHA_PRICES,
  idempotencyKey as key,
  paymentOf as payment,
  closeTestApiWithXsolla,
  openTestApiWithXsolla,
  testOrders,
  type XsollaStandIn,
} from '#server/testing/test-orders.ts';
import { testPlayers, type TestPlayer } from '#server/testing/test-players.ts';

const orderPaid = (o: { id: string; sku: string }, uid: number) => ({
  notification_type: 'order_paid',
  items: [{ sku: o.sku, type: 'virtual_good', quantity: 1, amount: String(ALPHA_PRICES[o.sku]) }],
  order: { id: 1, currency: 'USD', amount: String(ALPHA_PRICES[o.sku]), status: 'paid' },
  user: { external_id: String(uid) },
  custom_parameters: { order_id: o.id },
});

/*
 * Permanent and consumable items (SDK 1.1, decision 091): a permanent item is bought once, a paid
 * consumable is credited once, and a consume happens once per idempotency key under retries, at
 * once, and from two sessions on two server instances.
 */
describe('items: permanent once, consumables in an inventory', () => {
  let api: TestApi;
  let xsolla: XsollaStandIn;
  let appId: number;
  let otherAppId: number;

  beforeAll(async () => {
    ({ api, xsolla } = await openTestApiWithXsolla());
    ({ appId, otherAppId } = await fixtureGameIds(api.database));
  });
  afterAll(() => closeTestApiWithXsolla({ api, xsolla }));

  const { newGuest, newMember } = testPlayers(() => api, 13);
  const { notify, buy, nextTransaction } = testOrders(() => api, { appId: () => appId, firstTransaction: 91000 });

  const pay = (token: string, sku: string, idempotencyKey = key()) => api.call('POST', `/game/pay/${appId}`, { token, body: { sku, idempotencyKey } });
  const inventory = async (token: string, app = appId) => {
    const response = await api.call('GET', `/game/inventory/${app}`, { token });
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data.items as { sku: string; name: string; quantity: number }[];
  };
  const consume = (token: string, body: Record<string, unknown>, app = appId) => api.call('POST', `/game/inventory/${app}/consume`, { token, body });

  /** Hints a member holds, credited by paid orders as a player would buy them. */
  async function memberWithHints(count: number): Promise<TestPlayer> {
    const member = await newMember();
    for (let i = 0; i < count; i += 1) await buy(member, 'alpha-hints');
    expect(await inventory(member.token)).toEqual([{ sku: 'alpha-hints', name: 'Hint', quantity: count }]);
    return member;
  }

  describe('permanent items', () => {
    it('answers already_owned, without an order or a checkout, when the buyer owns the item', async () => {
      const member = await newMember();
      await buy(member, 'alpha-night-theme');
      const orders = await api.services.database.db.selectFrom('orders').select('id').where('user_id', '=', member.userInfo.uid).execute();
      const checkouts = xsolla.requests.length;
      const again = await pay(member.token, 'alpha-night-theme');
      expect(again.statusCode).toBe(409);
      expect(again.json()).toMatchObject({ code: 409, error: 'already_owned', message: 'You already own “Night theme”: nothing was charged.' });
      expect(await api.services.database.db.selectFrom('orders').select('id').where('user_id', '=', member.userInfo.uid).execute()).toHaveLength(orders.length);
      expect(xsolla.requests).toHaveLength(checkouts);
      // Another permanent item is still for sale.
      expect((await pay(member.token, 'alpha-gold-tiles')).statusCode).toBe(201);
    });

    it('gives two tabs buying at once one order, so only one can be paid; then already_owned', async () => {
      const member = await newMember();
      const tabs = await Promise.all([1, 2, 3, 4].map(() => pay(member.token, 'alpha-gold-tiles')));
      for (const tab of tabs) expect(tab.statusCode, tab.body).toBe(201);
      const ids = new Set(tabs.map((tab) => tab.json().data.id as string));
      expect(ids.size).toBe(1);
      const o = { id: [...ids][0]!, sku: 'alpha-gold-tiles' };
      await api.call('POST', '/payment/xsolla/create/', { token: member.token, body: { order_id: o.id } });
      await notify(payment(o, member.userInfo.uid, nextTransaction()));
      // A tab that opens the checkout now finds the order paid.
      const late = await api.call('POST', '/payment/xsolla/create/', { token: member.token, body: { order_id: o.id } });
      expect(late.json().error).toBe('order_not_payable');
      expect((await pay(member.token, 'alpha-gold-tiles')).json().error).toBe('already_owned');
      const paid = await api.services.database.db
        .selectFrom('orders')
        .select('id')
        .where('user_id', '=', member.userInfo.uid)
        .where('status', '=', 'paid')
        .execute();
      expect(paid).toHaveLength(1);
    });

    it('refuses already_owned to a guest who signed in to an account that owns the item, as the purchase dialog then asks', async () => {
      const guest = await newGuest();
      const username = `owner${randomBytes(4).toString('hex')}`;
      const secured = await api.call('PATCH', '/member/password/', { token: guest.token, body: { username, password: 'Harbour-Lantern-Tricky-9' } });
      const owner = secured.json().data as TestPlayer;
      await buy(owner, 'alpha-gold-tiles');
      const buyer = await newGuest();
      expect((await pay(buyer.token, 'alpha-gold-tiles')).json().error).toBe('account_not_secured');
      const signedIn = await api.call('POST', '/username/login/', { token: buyer.token, body: { username, password: 'Harbour-Lantern-Tricky-9' } });
      expect(signedIn.statusCode, signedIn.body).toBe(200);
      const refused = await pay(signedIn.json().data.token as string, 'alpha-gold-tiles');
      expect(refused.statusCode).toBe(409);
      expect(refused.json().error).toBe('already_owned');
      const orders = await api.services.database.db.selectFrom('orders').select('status').where('user_id', '=', owner.userInfo.uid).execute();
      expect(orders).toEqual([{ status: 'paid' }]);
    });

    it('refuses the checkout of an older open order once another order of the item is paid', async () => {
      const member = await newMember();
      const first = await buy(member, 'alpha-gold-tiles');
      // An open order from before the rule (two orders of one permanent item).
      const { db } = api.services.database;
      const row = await db.selectFrom('orders').selectAll().where('public_id', '=', first.id).executeTakeFirstOrThrow();
      await db
        .insertInto('orders')
        .values({ ...row, id: undefined, public_id: 'ord_olderopenorder1', status: 'created', idempotency_key: key(), paid_at: null, credited_at: null })
        .execute();
      const refused = await api.call('POST', '/payment/xsolla/create/', { token: member.token, body: { order_id: 'ord_olderopenorder1' } });
      expect(refused.statusCode).toBe(409);
      expect(refused.json().error).toBe('already_owned');
    });
  });

  describe('consumables', () => {
    it('credits a paid consumable order once, whatever notifications arrive twice', async () => {
      const member = await newMember();
      const made = await pay(member.token, 'alpha-hints');
      const o = { id: made.json().data.id as string, sku: 'alpha-hints' };
      await api.call('POST', '/payment/xsolla/create/', { token: member.token, body: { order_id: o.id } });
      const t = nextTransaction();
      const answers = await Promise.all([notify(payment(o, member.userInfo.uid, t)), notify(payment(o, member.userInfo.uid, t))]);
      for (const answer of answers) expect(answer.statusCode).toBe(204);
      expect((await notify(orderPaid(o, member.userInfo.uid))).statusCode).toBe(204);
      expect((await notify(payment(o, member.userInfo.uid, t))).statusCode).toBe(204);
      expect(await inventory(member.token)).toEqual([{ sku: 'alpha-hints', name: 'Hint', quantity: 1 }]);
      // A consumable is never "owned", and may be bought again.
      const config = await api.call('GET', `/game/config/${appId}`, { token: member.token });
      expect(config.json().data.items.find((i: { sku: string }) => i.sku === 'alpha-hints')).toMatchObject({ owned: false, kind: 'consumable' });
      await buy(member, 'alpha-hints');
      expect(await inventory(member.token)).toEqual([{ sku: 'alpha-hints', name: 'Hint', quantity: 2 }]);
    });

    it('consumes once under retries with the same key, all at once', async () => {
      const member = await memberWithHints(3);
      const idempotencyKey = key();
      const answers = await Promise.all([1, 2, 3, 4, 5].map(() => consume(member.token, { sku: 'alpha-hints', quantity: 2, idempotencyKey })));
      for (const answer of answers) {
        expect(answer.statusCode, answer.body).toBe(200);
        expect(answer.json().data).toEqual({ sku: 'alpha-hints', consumed: 2, remaining: 1 });
      }
      expect(await inventory(member.token)).toEqual([{ sku: 'alpha-hints', name: 'Hint', quantity: 1 }]);
      // Later, once more: the same answer, nothing taken.
      expect((await consume(member.token, { sku: 'alpha-hints', quantity: 2, idempotencyKey })).json().data.remaining).toBe(1);
      expect(await inventory(member.token)).toEqual([{ sku: 'alpha-hints', name: 'Hint', quantity: 1 }]);
    });

    it('never takes more than is held when different keys race', async () => {
      const member = await memberWithHints(3);
      const answers = await Promise.all([1, 2, 3, 4, 5].map(() => consume(member.token, { sku: 'alpha-hints', quantity: 1, idempotencyKey: key() })));
      expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(3);
      const refused = answers.filter((a) => a.statusCode !== 200);
      expect(refused).toHaveLength(2);
      for (const answer of refused) expect(answer.json()).toMatchObject({ code: 409, error: 'not_enough_items' });
      expect(await inventory(member.token)).toEqual([]);
    });

    describe('from two sessions on two server instances', () => {
      let second: ApiInstance;
      beforeAll(async () => {
        second = await openSecondInstance(api.database);
      });
      afterAll(async () => {
        await second?.close();
      });

      it('consumes once with the same key from both', async () => {
        const guest = await newGuest();
        const username = `hints${randomBytes(4).toString('hex')}`;
        const secured = await api.call('PATCH', '/member/password/', { token: guest.token, body: { username, password: 'Harbour-Lantern-Tricky-9' } });
        expect(secured.statusCode, secured.body).toBe(200);
        const member = secured.json().data as TestPlayer;
        for (const _ of [1, 2]) await buy(member, 'alpha-hints');
        const first = member.token;
        const headers = await csrfHeadersFor(second.app);
        const login = await second.app.inject({
          method: 'POST',
          url: '/serve/api/username/login/',
          headers,
          payload: { username, password: 'Harbour-Lantern-Tricky-9' },
        });
        expect(login.statusCode, login.body).toBe(200);
        const other = login.json().data.token as string;
        expect(other).not.toBe(first);
        const idempotencyKey = key();
        const body = { sku: 'alpha-hints', quantity: 1, idempotencyKey };
        const fromSecond = () =>
          second.app.inject({
            method: 'POST',
            url: `/serve/api/game/inventory/${appId}/consume`,
            headers: { ...headers, authorization: `Bearer ${other}` },
            payload: body,
          });
        const answers = await Promise.all([consume(first, body), fromSecond(), consume(first, body), fromSecond()]);
        for (const answer of answers) expect(answer.json().data, answer.body).toEqual({ sku: 'alpha-hints', consumed: 1, remaining: 1 });
        expect(await inventory(first)).toEqual([{ sku: 'alpha-hints', name: 'Hint', quantity: 1 }]);
      });
    });

    it('refuses misuse with clear codes and takes nothing', async () => {
      const member = await memberWithHints(2);
      const other = await newMember();
      const idempotencyKey = key();
      // Another player holds none of them, and cannot reach the member's.
      expect(await inventory(other.token)).toEqual([]);
      const theirs = await consume(other.token, { sku: 'alpha-hints', quantity: 1, idempotencyKey: key() });
      expect(theirs.json()).toMatchObject({ code: 409, error: 'not_enough_items', data: { sku: 'alpha-hints', held: 0, asked: 1 } });
      // Another game's SKU, a permanent item, an unknown one: no such consumable here.
      for (const [sku, app] of [
        ['alpha-hints', otherAppId],
        ['alpha-night-theme', appId],
        ['no-such-sku', appId],
      ] as const) {
        const refused = await consume(member.token, { sku, quantity: 1, idempotencyKey: key() }, app);
        expect(refused.statusCode, `${sku} in ${app}`).toBe(404);
        expect(refused.json().error).toBe('not_found');
      }
      expect((await api.call('GET', '/game/inventory/999999', { token: member.token })).json().error).toBe('not_found');
      // Quantities out of bounds, and keys that are not keys.
      for (const quantity of [0, -1, 1001, 1.5, 1e12, '1', null]) {
        const refused = await consume(member.token, { sku: 'alpha-hints', quantity, idempotencyKey: key() });
        expect(refused.statusCode, String(quantity)).toBe(422);
        expect(refused.json().error).toBe('validation');
      }
      for (const bad of ['short', 'x'.repeat(65), 'with space!', undefined]) {
        expect((await consume(member.token, { sku: 'alpha-hints', quantity: 1, idempotencyKey: bad })).statusCode, String(bad)).toBe(422);
      }
      // More than held: a clear code, nothing taken; the key is free for a later try.
      const tooMany = await consume(member.token, { sku: 'alpha-hints', quantity: 3, idempotencyKey });
      expect(tooMany.json()).toMatchObject({ code: 409, error: 'not_enough_items', message: 'Not enough “Hint”: 2 left, 3 asked for.' });
      expect((await consume(member.token, { sku: 'alpha-hints', quantity: 1, idempotencyKey })).json().data).toEqual({
        sku: 'alpha-hints',
        consumed: 1,
        remaining: 1,
      });
      // The key again with another quantity: refused, not a second consumption.
      const reused = await consume(member.token, { sku: 'alpha-hints', quantity: 2, idempotencyKey });
      expect(reused.json()).toMatchObject({ code: 409, error: 'idempotency_key_reused' });
      expect(await inventory(member.token)).toEqual([{ sku: 'alpha-hints', name: 'Hint', quantity: 1 }]);
      // No session: no inventory.
      expect((await api.call('GET', `/game/inventory/${appId}`)).statusCode).toBe(401);
    });

    it('does not let a guest buy a consumable either', async () => {
      const guest = await newGuest();
      expect((await pay(guest.token, 'alpha-hints')).json().error).toBe('account_not_secured');
      expect(await inventory(guest.token)).toEqual([]);
    });
  });
});
