import { type Kysely, sql } from 'kysely';
import { GAMEPLAY_BUCKET_MS } from './game-stats-rules.ts';
import type { Database } from '#server/db/schema.ts';

/** A range of UTC days, both included, and the instants that bound it (ISO text sorts as time). */
export interface DayRange {
  fromDay: string;
  toDay: string;
  /** `fromDay` at 00:00 UTC. */
  start: string;
  /** The day after `toDay` at 00:00 UTC (excluded). */
  end: string;
}

export interface PlayDayRow {
  day: string;
  plays: number;
  players: number;
  playMs: number;
}

export interface SaleRow {
  day: string;
  itemId: number;
  sku: string;
  names: string | null;
  currency: string;
  count: number;
  amountMinor: number;
}

const num = (value: number | string | null | undefined): number => (value === null || value === undefined ? 0 : Number(value));

/**
 * What a developer's statistics read (decision 101): play sessions (decision 093), the played
 * history, orders and their events. Every query is limited to one game and reads through an
 * index that starts with the game (migrations 0015 and 0022).
 */
export class StudioStatsRepository {
  readonly #db: Kysely<Database>;
  constructor(db: Kysely<Database>) {
    this.#db = db;
  }

  /** Plays, distinct players and play time per UTC day, from the daily rollup (migration 0025). */
  async playDays(appId: number, range: DayRange): Promise<PlayDayRow[]> {
    const rows = await this.#db
      .selectFrom('game_stats_days')
      .select(['day', 'plays', 'players', 'play_ms'])
      .where('app_id', '=', appId)
      .where('day', '>=', range.fromDay)
      .where('day', '<=', range.toDay)
      .where('plays', '>', 0)
      .execute();
    return rows.map((row) => ({ day: row.day, plays: num(row.plays), players: num(row.players), playMs: num(row.play_ms) }));
  }

  /**
   * Distinct players over the whole range (a player of several days counts once): the accounts
   * whose latest day of play falls in it, which is every account that played in it because a
   * range ends today (decision 103).
   */
  async players(appId: number, range: DayRange): Promise<number> {
    const row = await this.#db
      .selectFrom('game_stats_days')
      .select((eb) => eb.fn.sum<number | string>('last_players').as('players'))
      .where('app_id', '=', appId)
      .where('day', '>=', range.fromDay)
      .where('day', '<=', range.toDay)
      .executeTakeFirst();
    return num(row?.players);
  }

  /**
   * The median time to gameplay per day and over the range (key `*`), to 100 ms, from the sessions
   * counted per day and 100 ms bucket (migration 0025), whose middle is found here. The mean of the
   * two middle buckets for an even count.
   */
  async medianToGameplay(appId: number, range: DayRange): Promise<Map<string, number>> {
    const rows = await this.#db
      .selectFrom('game_stats_gameplay')
      .select(['day', 'bucket', 'sessions'])
      .where('app_id', '=', appId)
      .where('day', '>=', range.fromDay)
      .where('day', '<=', range.toDay)
      .where('sessions', '>', 0)
      .execute();
    const days = new Map<string, Map<number, number>>([['*', new Map()]]);
    for (const row of rows) {
      const bucket = Number(row.bucket);
      for (const key of [row.day, '*']) {
        const counts = days.get(key) ?? new Map<number, number>();
        counts.set(bucket, (counts.get(bucket) ?? 0) + Number(row.sessions));
        days.set(key, counts);
      }
    }
    const medians = new Map<string, number>();
    for (const [day, counts] of days) {
      const median = middleOf(counts);
      if (median !== null) medians.set(day, median * GAMEPLAY_BUCKET_MS);
    }
    return medians;
  }

  /**
   * Accounts whose first game ever played was this one, per UTC day of that first play, and how
   * many of them are registered members now. Ties (two games first played in the same instant)
   * go to the game with the lower id, so an account is new to one game only. Read from each
   * account's first game (decision 104) through the index that covers the query.
   */
  async newPlayers(appId: number, range: DayRange): Promise<{ day: string; players: number; members: number }[]> {
    const rows = await this.#db
      .selectFrom('users')
      .select((eb) => [
        sql<string>`substr(first_played_at, 1, 10)`.as('day'),
        eb.fn.countAll<number | string>().as('players'),
        eb.fn.sum<number | string>(sql`case when is_guest = 0 then 1 else 0 end`).as('members'),
      ])
      .where('first_app_id', '=', appId)
      .where('first_played_at', '>=', range.start)
      .where('first_played_at', '<', range.end)
      .groupBy(sql`substr(first_played_at, 1, 10)`)
      .execute();
    return rows.map((row) => ({ day: row.day, players: num(row.players), members: num(row.members) }));
  }

  /**
   * Orders per UTC day and item, a preview's test orders left out. `paid`: by day of payment,
   * refunded later or not (the refund is its own row). `refunded`: by day of the refund, the event
   * that moved a paid order to refunded (a repeated notification of the same refund is not a second one).
   */
  async sales(appId: number, range: DayRange, by: 'paid' | 'refunded'): Promise<SaleRow[]> {
    const at = sql.ref<string>(by === 'paid' ? 'o.paid_at' : 'e.created_at');
    const day = sql<string>`substr(${at}, 1, 10)`;
    const rows = await this.#db
      .selectFrom('orders as o')
      // A refund counts once: the event that moved the paid order to refunded.
      .$if(by === 'refunded', (query) =>
        query
          .innerJoin('order_events as e', 'e.order_id', 'o.id')
          .where('o.status', '=', 'refunded')
          .where('e.to_status', '=', 'refunded')
          .where('e.from_status', '=', 'paid'),
      )
      .leftJoin('app_items as i', 'i.id', 'o.item_id')
      .select((eb) => [
        day.as('day'),
        'o.item_id',
        'o.sku',
        'i.names',
        'o.currency',
        eb.fn.countAll<number | string>().as('n'),
        eb.fn.sum<number | string>('o.amount_minor').as('amount'),
      ])
      .where('o.app_id', '=', appId)
      .where('o.preview', '=', 0)
      .where(at, '>=', range.start)
      .where(at, '<', range.end)
      .groupBy([day, 'o.item_id', 'o.sku', 'i.names', 'o.currency'])
      .execute();
    return rows.map(saleRow);
  }
}

function saleRow(row: {
  day: string;
  item_id: number;
  sku: string;
  names: string | null;
  currency: string;
  n: number | string;
  amount: number | string | null;
}): SaleRow {
  return { day: row.day, itemId: row.item_id, sku: row.sku, names: row.names, currency: row.currency, count: num(row.n), amountMinor: num(row.amount) };
}

/** The median bucket of a count per bucket (the mean of the two middle ones for an even total), or null for none. */
function middleOf(counts: Map<number, number>): number | null {
  const total = [...counts.values()].reduce((sum, n) => sum + n, 0);
  if (total === 0) return null;
  const wanted = [Math.floor((total + 1) / 2), Math.floor((total + 2) / 2)];
  const found: number[] = [];
  let seen = 0;
  for (const bucket of [...counts.keys()].toSorted((a, b) => a - b)) {
    seen += counts.get(bucket)!;
    while (found.length < 2 && seen >= wanted[found.length]!) found.push(bucket);
    if (found.length === 2) break;
  }
  return (found[0]! + found[1]!) / 2;
}
