import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertUser, openTestApi, type TestApi } from '#server/testing/test-api.ts';
import type { GuestMergeService } from './guest-merge.service.ts';

/*
 * The merge rule itself (decision 063), on rows written with chosen times; each way of signing in
 * has its own test through the API beside its feature (password, device, passkey, social, WhatsApp).
 */
describe('guest merge', () => {
  let api: TestApi;
  let merges: GuestMergeService;
  const db = () => api.services.database.db;

  beforeAll(async () => {
    api = await openTestApi();
    merges = api.services.guestMerge;
  });
  afterAll(() => api.close());

  async function member(): Promise<number> {
    const id = await insertUser(api.services);
    await db().updateTable('users').set({ is_guest: 0 }).where('id', '=', id).execute();
    return id;
  }

  const play = (userId: number, appId: number, count: number, first: string, last: string) =>
    db().insertInto('played_games').values({ user_id: userId, app_id: appId, play_count: count, first_played_at: first, last_played_at: last }).execute();

  async function save(userId: number, key: string, value: string, updatedAt: string) {
    await db().insertInto('game_saves').values({ user_id: userId, app_id: 1, key, value, size: value.length, updated_at: updatedAt }).execute();
    const total = await db()
      .selectFrom('game_saves')
      .select((eb) => eb.fn.sum<number>('size').as('total'))
      .where('user_id', '=', userId)
      .where('app_id', '=', 1)
      .executeTakeFirstOrThrow();
    await db()
      .insertInto('game_save_totals')
      .values({ user_id: userId, app_id: 1, total: Number(total.total) })
      .onConflict((oc) => oc.columns(['user_id', 'app_id']).doUpdateSet({ total: Number(total.total) }))
      .execute();
  }

  async function order(userId: number, itemId: number, idempotencyKey: string) {
    const now = '2026-01-01T00:00:00.000Z';
    return (
      await db()
        .insertInto('orders')
        .values({
          public_id: `ord_${userId}_${idempotencyKey}`,
          user_id: userId,
          app_id: 1,
          item_id: itemId,
          sku: 'merge-gem',
          amount_minor: 100,
          currency: 'USD',
          status: 'paid',
          provider: 'sandbox',
          idempotency_key: idempotencyKey,
          created_at: now,
          updated_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  }

  it('adds plays up, keeps favourites once, keeps the newer save of a key, moves orders and deletes the guest', async () => {
    const account = await member();
    const guest = await insertUser(api.services);
    await play(account, 1, 2, '2026-01-05T00:00:00.000Z', '2026-01-10T00:00:00.000Z');
    await play(guest, 1, 3, '2026-01-01T00:00:00.000Z', '2026-01-08T00:00:00.000Z');
    await play(guest, 2, 1, '2026-01-02T00:00:00.000Z', '2026-01-02T00:00:00.000Z');
    await db().insertInto('favourites').values({ user_id: account, app_id: 1, created_at: '2026-01-05T00:00:00.000Z' }).execute();
    await db()
      .insertInto('favourites')
      .values([
        { user_id: guest, app_id: 1, created_at: '2026-01-01T00:00:00.000Z' },
        { user_id: guest, app_id: 2, created_at: '2026-01-01T00:00:00.000Z' },
      ])
      .execute();
    await save(account, 'mine-newer', '"account"', '2026-01-09T00:00:00.000Z');
    await save(guest, 'mine-newer', '"guest"', '2026-01-08T00:00:00.000Z');
    await save(account, 'theirs-newer', '"account"', '2026-01-03T00:00:00.000Z');
    await save(guest, 'theirs-newer', '"guest!"', '2026-01-04T00:00:00.000Z');
    await save(guest, 'theirs-only', '"new"', '2026-01-04T00:00:00.000Z');
    const now = '2026-01-01T00:00:00.000Z';
    const item = (
      await db()
        .insertInto('app_items')
        .values({ app_id: 1, sku: 'merge-gem', price_minor: 100, currency: 'USD', names: '{}', active: 1, created_at: now, updated_at: now })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    await order(account, item, 'same-key');
    const clashing = await order(guest, item, 'same-key');
    const plain = await order(guest, item, 'other-key');

    expect(await merges.mergeGuestInto(guest, account)).toEqual({ merged: true, droppedSaves: 0 });

    expect(
      await db()
        .selectFrom('played_games')
        .select(['app_id', 'play_count', 'first_played_at', 'last_played_at'])
        .where('user_id', '=', account)
        .orderBy('app_id')
        .execute(),
    ).toEqual([
      { app_id: 1, play_count: 5, first_played_at: '2026-01-01T00:00:00.000Z', last_played_at: '2026-01-10T00:00:00.000Z' },
      { app_id: 2, play_count: 1, first_played_at: '2026-01-02T00:00:00.000Z', last_played_at: '2026-01-02T00:00:00.000Z' },
    ]);
    // A favourite both had stays the account's, from when it added it.
    expect(await db().selectFrom('favourites').select(['app_id', 'created_at']).where('user_id', '=', account).orderBy('app_id').execute()).toEqual([
      { app_id: 1, created_at: '2026-01-05T00:00:00.000Z' },
      { app_id: 2, created_at: '2026-01-01T00:00:00.000Z' },
    ]);
    const saves = await db().selectFrom('game_saves').select(['key', 'value']).where('user_id', '=', account).orderBy('key').execute();
    expect(saves).toEqual([
      { key: 'mine-newer', value: '"account"' },
      { key: 'theirs-newer', value: '"guest!"' },
      { key: 'theirs-only', value: '"new"' },
    ]);
    const total = await db().selectFrom('game_save_totals').select('total').where('user_id', '=', account).where('app_id', '=', 1).executeTakeFirstOrThrow();
    expect(Number(total.total)).toBe('"account"'.length + '"guest!"'.length + '"new"'.length);
    const orders = await db().selectFrom('orders').select(['id', 'user_id', 'idempotency_key']).where('id', 'in', [clashing, plain]).orderBy('id').execute();
    expect(orders).toEqual([
      { id: clashing, user_id: account, idempotency_key: `same-key:${clashing}` },
      { id: plain, user_id: account, idempotency_key: 'other-key' },
    ]);
    expect(await db().selectFrom('users').select('id').where('id', '=', guest).executeTakeFirst()).toBeUndefined();
  });

  it('adds a guest’s consumables to the account’s, also when two guests and repeated merges run at once (decision 091)', async () => {
    const account = await member();
    const guest = await insertUser(api.services);
    const another = await insertUser(api.services);
    const now = '2026-01-01T00:00:00.000Z';
    const [hint, bomb] = await db()
      .insertInto('app_items')
      .values([
        { app_id: 1, sku: 'merge-hint', price_minor: 10, currency: 'USD', names: '{}', kind: 'consumable', active: 1, created_at: now, updated_at: now },
        { app_id: 1, sku: 'merge-bomb', price_minor: 10, currency: 'USD', names: '{}', kind: 'consumable', active: 1, created_at: now, updated_at: now },
      ])
      .returning('id')
      .execute();
    const hold = (userId: number, itemId: number, quantity: number) =>
      db().insertInto('inventory').values({ user_id: userId, item_id: itemId, app_id: 1, quantity, updated_at: now }).execute();
    await hold(account, hint!.id, 2);
    await hold(guest, hint!.id, 3);
    await hold(guest, bomb!.id, 1);
    await hold(another, hint!.id, 4);
    // A consumption the guest made stays answerable by its key in the account.
    await db()
      .insertInto('item_consumptions')
      .values({ user_id: guest, item_id: hint!.id, idempotency_key: 'guest-used-one', quantity: 1, remaining: 3, created_at: now })
      .execute();

    const results = await Promise.all([guest, guest, another, guest].map((id) => merges.mergeGuestInto(id, account)));
    expect(results.filter((r) => r.merged)).toHaveLength(2);
    const held = await db().selectFrom('inventory').select(['item_id', 'quantity']).where('user_id', '=', account).orderBy('item_id').execute();
    expect(held).toEqual([
      { item_id: hint!.id, quantity: 2 + 3 + 4 },
      { item_id: bomb!.id, quantity: 1 },
    ]);
    expect(await db().selectFrom('inventory').select('user_id').where('user_id', 'in', [guest, another]).execute()).toEqual([]);
    const kept = await db().selectFrom('item_consumptions').select('user_id').where('idempotency_key', '=', 'guest-used-one').executeTakeFirstOrThrow();
    expect(kept.user_id).toBe(account);
  });

  it('merges nothing that is not a guest, nor an account into itself', async () => {
    const account = await member();
    const other = await member();
    await play(other, 1, 1, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z');
    expect(await merges.mergeGuestInto(other, account)).toEqual({ merged: false, droppedSaves: 0 });
    const guest = await insertUser(api.services);
    expect(await merges.mergeGuestInto(guest, guest)).toEqual({ merged: false, droppedSaves: 0 });
    expect(await db().selectFrom('users').select('id').where('id', 'in', [other, guest]).execute()).toHaveLength(2);
    expect(await db().selectFrom('played_games').select('user_id').where('user_id', '=', account).execute()).toEqual([]);
  });

  it('merges a guest once however many sign-ins merge it at once, and merges two guests into one account side by side', async () => {
    const account = await member();
    const guest = await insertUser(api.services);
    const another = await insertUser(api.services);
    await play(guest, 1, 4, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z');
    await play(guest, 2, 1, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z');
    await play(another, 2, 2, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z');
    await play(another, 1, 1, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z');
    await save(guest, 'slot', '"guest"', '2026-01-02T00:00:00.000Z');
    await save(another, 'slot', '"another"', '2026-01-01T00:00:00.000Z');

    const results = await Promise.all([...Array.from({ length: 4 }, () => guest), another].map((id) => merges.mergeGuestInto(id, account)));
    expect(results.filter((r) => r.merged)).toHaveLength(2);

    expect(await db().selectFrom('played_games').select(['app_id', 'play_count']).where('user_id', '=', account).orderBy('app_id').execute()).toEqual([
      { app_id: 1, play_count: 5 },
      { app_id: 2, play_count: 3 },
    ]);
    expect((await db().selectFrom('game_saves').select('value').where('user_id', '=', account).executeTakeFirstOrThrow()).value).toBe('"guest"');
    const total = await db().selectFrom('game_save_totals').select('total').where('user_id', '=', account).where('app_id', '=', 1).executeTakeFirstOrThrow();
    expect(Number(total.total)).toBe('"guest"'.length);
  });
});
