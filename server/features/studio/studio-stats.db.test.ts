import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OrderStatus } from '#server/db/schema.ts';
import { openTestApi, type TestApi } from '#server/testing/test-api.ts';
import { type TestPlayer, testPlayers } from '#server/testing/test-players.ts';
import { rebuildGameStats } from '#server/db/migrations/0025-game-stats-rollup.ts';
import { MemberLibraryRepository } from '#server/features/catalogue/member-library.repository.ts';
import { GameSessionsRepository } from '#server/features/tracking/game-sessions.repository.ts';
import { insertDeveloperGame } from '#server/testing/developer-games.ts';
import { StudioStatsRepository } from './studio-stats.repository.ts';
import { csvField } from '#server/lib/csv.ts';
import { StudioStatsService } from './studio-stats.service.ts';
import { firstGamesOf, gameStatsRollupOf, type PlaySession } from './game-stats-rules.ts';

const at = (iso: string) => ({ created_at: iso, updated_at: iso });
/** Rows with PostgreSQL's bigint text as numbers. */
const plain = (rows: object[]) =>
  rows.map((row) => JSON.parse(JSON.stringify(row, (_key, value: unknown) => (typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value))));

/** A developer's statistics (decision 101): known data gives known figures, only to the game's developer. */
describe('studio statistics', () => {
  let api: TestApi;
  let gameId: number;
  let otherGameId: number;
  let owner: TestPlayer;
  const players = testPlayers(() => api, 101);
  const db = () => api.database.db;
  let sessionNumber = 0;

  async function account(isGuest: boolean): Promise<number> {
    const row = await db()
      .insertInto('users')
      .values({ is_guest: isGuest ? 1 : 0, ...at('2026-01-01T00:00:00.000Z') })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }
  async function session(appId: number, userId: number | null, startedAt: string, playMs: number, toGameplayMs: number | null) {
    sessionNumber += 1;
    await db()
      .insertInto('game_sessions')
      .values({
        session_key: `known-${sessionNumber}-${Date.now()}`,
        app_id: appId,
        user_id: userId,
        day: startedAt.slice(0, 10),
        loading_ms: 500,
        to_gameplay_ms: toGameplayMs,
        play_ms: playMs,
        reports: 1,
        ...at(startedAt),
      })
      .execute();
  }
  async function played(userId: number, appId: number, firstPlayedAt: string) {
    await db()
      .insertInto('played_games')
      .values({ user_id: userId, app_id: appId, play_count: 1, first_played_at: firstPlayedAt, last_played_at: firstPlayedAt })
      .execute();
  }
  async function item(appId: number, sku: string, priceMinor: number, currency: string, names: Record<string, string>) {
    const row = await db()
      .insertInto('app_items')
      .values({ app_id: appId, sku, price_minor: priceMinor, currency, names: JSON.stringify(names), active: 1, ...at('2026-01-01T00:00:00.000Z') })
      .returning(['id', 'sku', 'price_minor', 'currency'])
      .executeTakeFirstOrThrow();
    return { ...row, appId };
  }
  type Item = Awaited<ReturnType<typeof item>>;
  let orderNumber = 0;
  /** An order paid at `paidAt` (null: never paid), with its events; refunds at the instants given. */
  async function order(of: Item, userId: number, paidAt: string | null, refundedAt: string[] = []) {
    orderNumber += 1;
    const status: OrderStatus = refundedAt.length ? 'refunded' : paidAt ? 'paid' : 'pending';
    const row = await db()
      .insertInto('orders')
      .values({
        public_id: `known-order-${orderNumber}`,
        user_id: userId,
        app_id: of.appId,
        item_id: of.id,
        sku: of.sku,
        amount_minor: of.price_minor,
        currency: of.currency,
        status,
        provider: 'sandbox',
        idempotency_key: `known-${orderNumber}`,
        ...at(paidAt ?? '2026-03-01T00:00:00.000Z'),
        paid_at: paidAt,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const event = (key: string, from: string, to: string, when: string) =>
      db()
        .insertInto('order_events')
        .values({ order_id: row.id, type: to, event_key: key, from_status: from, to_status: to, payload: null, created_at: when })
        .execute();
    if (paidAt) await event('paid', 'pending', 'paid', paidAt);
    // The first refund moves a paid order; a repeated notification finds it refunded already.
    for (const [index, when] of refundedAt.entries()) await event(`refund-${index}`, index === 0 ? 'paid' : 'refunded', 'refunded', when);
  }

  beforeAll(async () => {
    api = await openTestApi();
    const games = await db().selectFrom('apps').select('id').orderBy('id').limit(2).execute();
    gameId = games[0]!.id;
    otherGameId = games[1]!.id;
    owner = await players.newMember();
    await api.services.developers.saveProfile(owner.userInfo.uid, { studioName: 'Known Figures', contactEmail: 'dev@known.test' });
    // Studio game creation is not this test's subject: the fixture game is given to the developer directly.
    await db().updateTable('apps').set({ developer_user_id: owner.userInfo.uid }).where('id', '=', gameId).execute();
  });
  afterAll(() => api?.close());

  it('computes each figure from known plays, played history and orders, with UTC day boundaries', async () => {
    const member = await account(false);
    const guest = await account(true);
    const cameFromOther = await account(true);
    const beforeRange = await account(false);
    const tied = await account(false);

    // Plays: the last instant of 9 March and the first of 10 March fall on their own UTC days.
    await session(gameId, member, '2026-03-09T23:59:59.999Z', 60_000, 1000);
    await session(gameId, member, '2026-03-10T00:00:00.000Z', 30_000, 3000);
    await session(gameId, guest, '2026-03-10T09:00:00.000Z', 0, null);
    await session(gameId, cameFromOther, '2026-03-10T10:00:00.000Z', 90_000, 2000);
    await session(gameId, null, '2026-03-10T11:00:00.000Z', 0, null); // an account removed since
    await session(gameId, member, '2026-03-03T23:59:59.999Z', 1000, 10); // the day before the range
    await session(otherGameId, member, '2026-03-10T12:00:00.000Z', 5000, 10); // another game

    // New players: accounts whose first game ever was this one.
    await played(member, gameId, '2026-03-09T23:59:59.999Z');
    await played(guest, gameId, '2026-03-10T00:00:00.000Z');
    await played(guest, otherGameId, '2026-03-10T05:00:00.000Z');
    await played(cameFromOther, otherGameId, '2026-03-01T00:00:00.000Z');
    await played(cameFromOther, gameId, '2026-03-10T10:00:00.000Z');
    await played(beforeRange, gameId, '2026-03-03T23:59:59.999Z');
    // The same instant for two games: the lower id takes the new player, once.
    await played(tied, gameId, '2026-03-10T08:00:00.000Z');
    await played(tied, otherGameId, '2026-03-10T08:00:00.000Z');

    const gems = await item(gameId, 'gems', 199, 'USD', { en: 'Gem pack', 'zh-CN': '宝石包' });
    const coins = await item(gameId, 'coins', 500, 'JPY', { en: 'Coins' });
    const elsewhere = await item(otherGameId, 'boost', 99, 'USD', { en: 'Boost' });
    await order(gems, member, '2026-03-09T23:59:59.999Z');
    await order(gems, member, '2026-03-10T00:00:00.000Z', ['2026-03-10T10:00:00.000Z']);
    await order(coins, guest, '2026-03-02T12:00:00.000Z', ['2026-03-05T00:00:00.000Z']); // paid before the range, refunded in it
    await order(gems, guest, null); // never paid
    await order(gems, member, '2026-03-06T08:00:00.000Z', ['2026-03-06T09:00:00.000Z', '2026-03-06T09:05:00.000Z']); // refund notified twice
    await order(elsewhere, member, '2026-03-10T01:00:00.000Z');
    // A test purchase in a build's preview, paid and refunded: neither revenue nor a refund.
    await order(gems, member, '2026-03-10T03:00:00.000Z', ['2026-03-10T04:00:00.000Z']);
    await db().updateTable('orders').set({ preview: 1 }).where('public_id', '=', `known-order-${orderNumber}`).execute();

    const stats = new StudioStatsService({
      repository: new StudioStatsRepository(db()),
      developers: api.services.developers,
      clock: { now: () => new Date('2026-03-10T12:00:00.000Z') },
    });
    const caller = { userId: owner.userInfo.uid, tokenId: 0 };
    const figures = await stats.stats(caller, gameId, 7, 'zh-CN');
    expect(figures).toMatchObject({ appId: gameId, days: 7, from: '2026-03-04', to: '2026-03-10' });
    expect(figures.daily.map((day) => day.day)).toEqual(['2026-03-04', '2026-03-05', '2026-03-06', '2026-03-07', '2026-03-08', '2026-03-09', '2026-03-10']);
    expect(figures.daily[0]).toEqual({ day: '2026-03-04', plays: 0, players: 0, averagePlayMs: null, medianToGameplayMs: null, newPlayers: 0, newMembers: 0 });
    expect(figures.daily[5]).toEqual({
      day: '2026-03-09',
      plays: 1,
      players: 1,
      averagePlayMs: 60_000,
      medianToGameplayMs: 1000,
      newPlayers: 1,
      newMembers: 1,
    });
    // Four plays by three accounts and a removed one; the median of 2 s and 3 s is 2.5 s.
    expect(figures.daily[6]).toEqual({
      day: '2026-03-10',
      plays: 4,
      players: 3,
      averagePlayMs: 30_000,
      medianToGameplayMs: 2500,
      newPlayers: 2,
      newMembers: 1,
    });
    expect(figures.summary).toEqual({
      plays: 5,
      players: 3,
      averagePlayMs: 36_000,
      medianToGameplayMs: 2000,
      newPlayers: 3,
      newMembers: 2,
      money: [
        { currency: 'JPY', orders: 0, revenueMinor: 0, refunds: 1, refundedMinor: 500 },
        { currency: 'USD', orders: 3, revenueMinor: 597, refunds: 2, refundedMinor: 398 },
      ],
    });
    expect(figures.sales).toEqual([
      { day: '2026-03-05', sku: 'coins', itemName: 'Coins', currency: 'JPY', orders: 0, revenueMinor: 0, refunds: 1, refundedMinor: 500 },
      { day: '2026-03-06', sku: 'gems', itemName: '宝石包', currency: 'USD', orders: 1, revenueMinor: 199, refunds: 1, refundedMinor: 199 },
      { day: '2026-03-09', sku: 'gems', itemName: '宝石包', currency: 'USD', orders: 1, revenueMinor: 199, refunds: 0, refundedMinor: 0 },
      { day: '2026-03-10', sku: 'gems', itemName: '宝石包', currency: 'USD', orders: 1, revenueMinor: 199, refunds: 1, refundedMinor: 199 },
    ]);

    // A day later the range moves: 4 March leaves it, the refund of 5 March stays.
    const later = new StudioStatsService({
      repository: new StudioStatsRepository(db()),
      developers: api.services.developers,
      clock: { now: () => new Date('2026-03-11T00:00:00.000Z') },
    });
    const moved = await later.stats(caller, gameId, 7, 'en');
    expect(moved).toMatchObject({ from: '2026-03-05', to: '2026-03-11', summary: { plays: 5 } });
    expect(moved.sales[0]).toMatchObject({ day: '2026-03-05', itemName: 'Coins' });
    expect((await later.stats(caller, gameId, 30, 'en')).daily).toHaveLength(30);
  });

  it('answers the statistics and the CSV to the game’s developer only', async () => {
    const guest = await players.newGuest();
    const member = await players.newMember();
    const otherDeveloper = await players.newMember();
    await api.services.developers.saveProfile(otherDeveloper.userInfo.uid, { studioName: 'Elsewhere', contactEmail: 'dev@elsewhere.test' });
    await db().updateTable('apps').set({ developer_user_id: otherDeveloper.userInfo.uid }).where('id', '=', otherGameId).execute();
    for (const path of [`/studio/games/${gameId}/stats`, `/studio/games/${gameId}/stats/csv`]) {
      const statusFor = async (token?: string) => (await api.call('GET', path, { token })).statusCode;
      expect(await statusFor(), path).toBe(401);
      // Without a studio, refused before the game is looked at (decision 107); another studio finds no such game.
      expect(await statusFor(guest.token), path).toBe(403);
      expect(await statusFor(member.token), path).toBe(403);
      expect(await statusFor(otherDeveloper.token), path).toBe(404);
      expect(await statusFor(owner.token), path).toBe(200);
      // Bad input is refused in the envelope and changes nothing.
      const badRange = await api.call('GET', `${path}?days=14`, { token: owner.token });
      expect(badRange.statusCode, path).toBe(422);
      expect(badRange.json()).toMatchObject({ code: 422, data: { errors: { days: expect.any(Array) } } });
      expect((await api.call('GET', path.replace(String(gameId), 'abc'), { token: owner.token })).statusCode, path).toBe(422);
      expect((await api.call('GET', path.replace(String(gameId), '999999'), { token: owner.token })).statusCode, path).toBe(404);
    }
    // The other developer sees their own game, and the owner does not.
    expect((await api.call('GET', `/studio/games/${otherGameId}/stats?days=90`, { token: otherDeveloper.token })).statusCode).toBe(200);
    expect((await api.call('GET', `/studio/games/${otherGameId}/stats?days=90`, { token: owner.token })).statusCode).toBe(404);
  });

  it('exports CSV with a header row and RFC 4180 quoting of a title with a comma and a quote', async () => {
    await db().updateTable('app_translations').set({ title: 'Dice, "Deluxe" Edition' }).where('app_id', '=', gameId).where('locale', '=', 'en').execute();
    const today = new Date().toISOString();
    await session(gameId, owner.userInfo.uid, today, 42_000, 1500);
    const response = await api.call('GET', `/studio/games/${gameId}/stats/csv?days=7`, { token: owner.token });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toMatch(/^attachment; filename="game-\d+-stats-\d{4}-\d{2}-\d{2}-to-\d{4}-\d{2}-\d{2}\.csv"$/);
    const lines = response.body.split('\r\n');
    expect(lines[0]).toBe(
      'date,game,item_sku,item_name,currency,plays,unique_players,average_play_seconds,median_seconds_to_gameplay,new_players,new_members,orders,revenue,refunds,refunded',
    );
    expect(lines).toHaveLength(1 + 7 + 1); // header, a row per day, and the final line end
    expect(lines.at(-1)).toBe('');
    expect(lines[7]).toBe(`${today.slice(0, 10)},"Dice, ""Deluxe"" Edition",,,,1,1,42.0,1.5,0,0,,,,`);
    expect(csvField('line\nbreak')).toBe('"line\nbreak"');
    expect(csvField(12)).toBe('12');
  });
  /** Every row of the rollup (migration 0025), in a stable order. */
  async function rollupRows() {
    return {
      days: await db().selectFrom('game_stats_days').selectAll().orderBy(['app_id', 'day']).execute(),
      gameplay: await db().selectFrom('game_stats_gameplay').selectAll().where('sessions', '>', 0).orderBy(['app_id', 'day', 'bucket']).execute(),
      dayPlayers: await db().selectFrom('game_stats_day_players').selectAll().orderBy(['app_id', 'day', 'user_id']).execute(),
      players: await db().selectFrom('game_stats_players').selectAll().orderBy(['app_id', 'user_id']).execute(),
    };
  }
  /**
   * What the triggers keep equals what the Studio's rules count from the raw sessions
   * (game-stats-rules.ts); so does the migration's backfill of the same tables.
   */
  async function expectRollupExact() {
    const sessions = await db().selectFrom('game_sessions').select(['app_id', 'day', 'user_id', 'to_gameplay_ms', 'play_ms']).execute();
    const counted = gameStatsRollupOf(plain(sessions) as PlaySession[]);
    const expectEqualToRules = (rollup: Awaited<ReturnType<typeof rollupRows>>) => {
      expect(plain(rollup.days)).toEqual(counted.days);
      expect(plain(rollup.gameplay)).toEqual(counted.gameplay);
      expect(rollup.dayPlayers).toEqual(counted.dayPlayers);
      expect(rollup.players).toEqual(counted.players);
    };
    expectEqualToRules(await rollupRows());
    await db()
      .transaction()
      .execute(async (trx) => {
        await rebuildGameStats(trx);
      });
    expectEqualToRules(await rollupRows());
  }

  it('keeps the daily rollup equal to the raw sessions through reports, a merged guest and a removed account (decision 103)', async () => {
    const sessions = new GameSessionsRepository(db());
    const member = await account(false);
    const guest = await account(true);
    const gone = await account(true);
    const now = new Date();
    const today = now.toISOString().slice(0, 10);
    const yesterday = new Date(now.getTime() - 86_400_000).toISOString();
    const stats = new StudioStatsService({
      repository: new StudioStatsRepository(db()),
      developers: api.services.developers,
      clock: { now: () => new Date() },
    });
    const caller = { userId: owner.userInfo.uid, tokenId: 0 };
    const before = (await stats.stats(caller, gameId, 7, 'en')).summary;

    const row = (key: string, userId: number, startedAt: string, toGameplayMs: number | null) => ({
      session_key: `${key}-${Date.now()}`,
      app_id: gameId,
      user_id: userId,
      day: startedAt.slice(0, 10),
      loading_ms: 300,
      to_gameplay_ms: toGameplayMs,
      play_ms: 0,
      ...at(startedAt),
    });
    const a = row('rollup-a', member, yesterday, null);
    const b = row('rollup-b', member, now.toISOString(), 1234);
    const c = row('rollup-c', guest, yesterday, 800);
    const d = row('rollup-d', gone, now.toISOString(), 4000);
    for (const each of [a, b, c, d]) expect(await sessions.insert(each)).toBe(true);
    // Reports: play time grows, a late report does not shrink it, the first time to gameplay stays.
    await sessions.update(a.session_key, { loadingMs: 300, toGameplayMs: 2100, playMs: 20_000 }, now.toISOString());
    await sessions.update(a.session_key, { loadingMs: 300, toGameplayMs: 9999, playMs: 40_000 }, now.toISOString());
    await sessions.update(a.session_key, { loadingMs: 300, toGameplayMs: null, playMs: 30_000 }, now.toISOString());
    await sessions.update(b.session_key, { loadingMs: 300, toGameplayMs: 1234, playMs: 15_000 }, now.toISOString());
    await sessions.update(d.session_key, { loadingMs: 300, toGameplayMs: 4000, playMs: 5000 }, now.toISOString());
    await expectRollupExact();

    // A play reported a second ago counts at once: 3 more plays today (b, d, and e below), 2 more players today.
    const e = row('rollup-e', guest, new Date(Date.now() - 1000).toISOString(), 600);
    expect(await sessions.insert(e)).toBe(true);
    const figures = await stats.stats(caller, gameId, 7, 'en');
    expect(figures.summary.plays - before.plays).toBe(5);
    expect(figures.summary.players - before.players).toBe(3);
    const todayRow = figures.daily.find((day) => day.day === today)!;
    expect(todayRow.plays).toBeGreaterThanOrEqual(3);

    // The guest signs in to the member: its account goes, its sessions stay the game's without a player.
    expect((await api.services.guestMerge.mergeGuestInto(guest, member)).merged).toBe(true);
    await db().deleteFrom('users').where('id', '=', gone).execute();
    await expectRollupExact();
    const after = await stats.stats(caller, gameId, 7, 'en');
    expect(after.summary.plays - before.plays).toBe(5);
    expect(after.summary.players - before.players).toBe(1);
  });

  it('stays exact under concurrent reports and first plays of the same account', async () => {
    const sessions = new GameSessionsRepository(db());
    const player = await account(false);
    const now = new Date().toISOString();
    const keys = Array.from({ length: 6 }, (_, index) => `concurrent-${index}-${Date.now()}`);
    await Promise.all(
      keys.map((key) =>
        sessions.insert({
          session_key: key,
          app_id: otherGameId,
          user_id: player,
          day: now.slice(0, 10),
          loading_ms: 1,
          to_gameplay_ms: null,
          play_ms: 0,
          created_at: now,
          updated_at: now,
        }),
      ),
    );
    // Reports of every session at once, out of order, some repeated.
    await Promise.all(
      keys.flatMap((key, index) =>
        [3, 1, 2, 3].map((step) => sessions.update(key, { loadingMs: 1, toGameplayMs: 100 * (index + step), playMs: 10_000 * step }, now)),
      ),
    );
    await expectRollupExact();
    const day = await db()
      .selectFrom('game_stats_days')
      .selectAll()
      .where('app_id', '=', otherGameId)
      .where('day', '=', now.slice(0, 10))
      .executeTakeFirstOrThrow();
    expect(Number(day.play_ms)).toBeGreaterThanOrEqual(6 * 30_000);
  });
  it('keeps the daily rollup equal to the rules through generated sequences of plays, reports and removed accounts', async () => {
    const sessions = new GameSessionsRepository(db());
    // A small seeded generator, so a failure names a sequence that can be run again.
    for (const seed of [7, 21, 1103]) {
      let state = seed;
      const next = (below: number) => {
        state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
        return state % below;
      };
      const accounts = [await account(false), await account(true), await account(true)];
      const keys: string[] = [];
      for (let step = 0; step < 30; step += 1) {
        const choice = next(10);
        if (choice < 4 || keys.length === 0) {
          const key = `generated-${seed}-${step}-${Date.now()}`;
          const day = `2026-05-0${1 + next(4)}`;
          const player = next(4) === 0 ? null : accounts[next(accounts.length)]!;
          await sessions.insert({
            session_key: key,
            app_id: next(2) === 0 ? gameId : otherGameId,
            user_id: player,
            day,
            loading_ms: 10,
            to_gameplay_ms: next(3) === 0 ? null : next(5000),
            play_ms: next(60_000),
            ...at(`${day}T12:00:00.000Z`),
          });
          keys.push(key);
        } else if (choice < 9) {
          await sessions.update(
            keys[next(keys.length)]!,
            { loadingMs: 10, toGameplayMs: next(2) === 0 ? null : next(5000), playMs: next(90_000) },
            '2026-05-05T00:00:00.000Z',
          );
        } else if (accounts.length > 1) {
          await db()
            .deleteFrom('users')
            .where('id', '=', accounts.splice(next(accounts.length), 1)[0]!)
            .execute();
        }
      }
      await expectRollupExact();
    }
  });

  /** Each account's first game counted from the played history (decision 104): what the triggers must keep. */
  async function expectFirstGamesExact() {
    const kept = await db().selectFrom('users').select(['id', 'first_app_id', 'first_played_at']).where('first_app_id', 'is not', null).orderBy('id').execute();
    const history = await db().selectFrom('played_games').select(['user_id', 'app_id', 'first_played_at']).execute();
    const live = new Set((await db().selectFrom('users').select('id').execute()).map((row) => row.id));
    expect(plain(kept)).toEqual(firstGamesOf(history).filter((row) => live.has(row.id)));
  }

  it('keeps each account’s first game equal to the played history through first plays, a merged guest and removals (decision 104)', async () => {
    const library = new MemberLibraryRepository(db());
    const member = await account(false);
    const guest = await account(true);
    const quitter = await account(true);
    const third = await insertDeveloperGame(db(), owner.userInfo.uid);
    const thirdId = third.id;

    // First plays in any order: only an earlier one moves the first game; a repeated play changes nothing.
    await library.recordPlay(member, otherGameId, '2026-04-02T10:00:00.000Z');
    await library.recordPlay(member, gameId, '2026-04-03T10:00:00.000Z');
    await library.recordPlay(member, otherGameId, '2026-04-04T10:00:00.000Z');
    await played(quitter, thirdId, '2026-04-01T00:00:00.000Z');
    await played(quitter, otherGameId, '2026-03-31T00:00:00.000Z');
    await expectFirstGamesExact();
    expect(await db().selectFrom('users').select(['first_app_id']).where('id', '=', member).executeTakeFirstOrThrow()).toEqual({ first_app_id: otherGameId });

    // The guest played this game before the member played anything: the merge moves that earlier first play over.
    await played(guest, gameId, '2026-04-01T09:00:00.000Z');
    await played(guest, thirdId, '2026-04-05T09:00:00.000Z');
    expect((await api.services.guestMerge.mergeGuestInto(guest, member)).merged).toBe(true);
    await expectFirstGamesExact();
    expect(plain([await db().selectFrom('users').select(['first_app_id', 'first_played_at']).where('id', '=', member).executeTakeFirstOrThrow()])).toEqual([
      { first_app_id: gameId, first_played_at: '2026-04-01T09:00:00.000Z' },
    ]);

    // A removed history row (a removed game) moves the first game to the next one; a removed account goes with its rows.
    await db().deleteFrom('played_games').where('user_id', '=', quitter).where('app_id', '=', otherGameId).execute();
    await expectFirstGamesExact();
    await db().deleteFrom('apps').where('id', '=', thirdId).execute();
    await db().deleteFrom('users').where('id', '=', quitter).execute();
    await expectFirstGamesExact();

    // First plays of several games at once by one new account: the earliest wins whatever commits first.
    const racer = await account(true);
    await Promise.all(
      [otherGameId, gameId, otherGameId, gameId].map((appId, index) => library.recordPlay(racer, appId, `2026-04-0${9 - index}T00:00:00.000Z`)),
    );
    await expectFirstGamesExact();
  });
});
