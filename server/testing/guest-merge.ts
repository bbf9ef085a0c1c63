import { expect } from 'vitest';
import type { TestApi } from './test-api.ts';

/*
 * What a guest holds before a sign-in merges it (decision 063), and the check that all of it
 * reached the account signed in to: the same for every way of signing in.
 */

/** The account signed in to already holds this: the guest's holdings join it. */
export async function giveAccountHoldings(api: TestApi, token: string): Promise<void> {
  await expectOk(api.call('POST', '/member/played/', { token, body: { app_id: 1 } }));
  await expectOk(api.call('PUT', '/member/favourite/3', { token }));
  await expectOk(api.call('PUT', '/game/saves/1/settings', { token, body: { value: { sound: false } } }));
  await holdHints(api, token, 2);
}

/**
 * Consumables in an inventory, and (for a guest) a paid order: only a paid consumable order or
 * another merge fills an inventory, and a guest cannot buy, so the rows are written as a merge
 * would have left them.
 */
async function holdHints(api: TestApi, token: string, quantity: number, withOrder = false): Promise<void> {
  const { db } = api.services.database;
  const uid = (await api.call('GET', '/member/info/', { token })).json().data.userInfo.uid as number;
  const item = await db.selectFrom('app_items').select(['id', 'app_id']).where('sku', '=', 'alpha-hints').executeTakeFirstOrThrow();
  const now = new Date().toISOString();
  await db.insertInto('inventory').values({ user_id: uid, item_id: item.id, app_id: item.app_id, quantity, updated_at: now }).execute();
  if (!withOrder) return;
  const theme = await db.selectFrom('app_items').select(['id', 'app_id']).where('sku', '=', 'alpha-night-theme').executeTakeFirstOrThrow();
  await db
    .insertInto('orders')
    .values({
      public_id: `ord_guest${uid}`,
      user_id: uid,
      app_id: theme.app_id,
      item_id: theme.id,
      sku: 'alpha-night-theme',
      amount_minor: 99,
      currency: 'USD',
      status: 'paid',
      provider: 'sandbox',
      provider_order_id: null,
      provider_transaction_id: null,
      idempotency_key: `guest-order-${uid}`,
      campaign: null,
      created_at: now,
      updated_at: now,
      paid_at: now,
      delivered_at: null,
    })
    .execute();
}

/** The guest's plays (game 1 twice, game 2 once), favourites (games 2 and 3), saves (a new key, and a newer value of the account's key), three hints and a paid order. */
export async function giveGuestHoldings(api: TestApi, token: string): Promise<void> {
  await expectOk(api.call('POST', '/member/played/', { token, body: { app_id: 1 } }));
  await expectOk(api.call('POST', '/member/played/', { token, body: { app_id: 1 } }));
  await expectOk(api.call('POST', '/member/played/', { token, body: { app_id: 2 } }));
  await expectOk(api.call('PUT', '/member/favourite/2', { token }));
  await expectOk(api.call('PUT', '/member/favourite/3', { token }));
  await expectOk(api.call('PUT', '/game/saves/1/progress', { token, body: { value: { level: 7 } } }));
  // Written after the account's value of the key, so newer: it wins.
  await expectOk(api.call('PUT', '/game/saves/1/settings', { token, body: { value: { sound: true } } }));
  await holdHints(api, token, 3, true);
}

/**
 * The guest's holdings are the account's (plays added up, favourites once, the newer save),
 * the guest account is gone and its token answers 401, and the account's session works.
 */
export async function expectGuestMerged(
  api: TestApi,
  merged: { guestToken: string; guestId: number; accountToken: string; accountId: number; hints?: number },
): Promise<void> {
  const { db } = api.services.database;
  const plays = await db.selectFrom('played_games').select(['app_id', 'play_count']).where('user_id', '=', merged.accountId).orderBy('app_id').execute();
  expect(plays).toEqual([
    { app_id: 1, play_count: 3 },
    { app_id: 2, play_count: 1 },
  ]);
  const favourites = (await api.call('GET', '/member/favourite/', { token: merged.accountToken })).json().data.items as { id: number }[];
  expect(favourites.map((f) => f.id).sort()).toEqual([2, 3]);
  expect((await api.call('GET', '/game/saves/1/progress', { token: merged.accountToken })).json().data.value).toEqual({ level: 7 });
  expect((await api.call('GET', '/game/saves/1/settings', { token: merged.accountToken })).json().data.value).toEqual({ sound: true });
  // Consumables add up (the account's 2 + the guest's 3, decision 091); the guest's purchase is the account's.
  const inventory = await api.call('GET', '/game/inventory/1', { token: merged.accountToken });
  expect(inventory.json().data.items).toEqual([{ sku: 'alpha-hints', name: 'Hint', quantity: merged.hints ?? 5 }]);
  const orders = (await api.call('GET', '/member/orders/', { token: merged.accountToken })).json().data.items as { sku: string; status: string }[];
  expect(orders).toEqual([expect.objectContaining({ sku: 'alpha-night-theme', status: 'paid' })]);
  expect((await api.call('GET', '/member/info/', { token: merged.guestToken })).statusCode).toBe(401);
  expect(await db.selectFrom('users').select('id').where('id', '=', merged.guestId).executeTakeFirst()).toBeUndefined();
  expect((await api.call('GET', '/member/info/', { token: merged.accountToken })).json().data.userInfo.uid).toBe(merged.accountId);
}

async function expectOk(call: ReturnType<TestApi['call']>): Promise<void> {
  const response = await call;
  expect(response.statusCode, response.body).toBe(200);
}
