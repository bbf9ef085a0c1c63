import { type Kysely, type Selectable, sql } from 'kysely';
import type { GameDayStats } from '#common/api/game-stats.schema.ts';
import type { Database, GameSessionsTable } from '#server/db/schema.ts';

/** A session as the repository reads and inserts it (its id and report count stay inside). */
export type GameSessionRow = Omit<Selectable<GameSessionsTable>, 'id' | 'reports'>;

/** The SQL that limits a query to one app, or nothing. */
const scope = (appId: number | undefined) => (appId === undefined ? sql`` : sql`and app_id = ${appId}`);
const key = (row: { app_id: number; day: string }) => `${row.app_id}/${row.day}`;

const COLUMNS = ['session_key', 'app_id', 'user_id', 'day', 'loading_ms', 'to_gameplay_ms', 'play_ms', 'created_at', 'updated_at'] as const;

/** Play sessions of games (decision 093) and their per-day figures. */
export class GameSessionsRepository {
  readonly #db: Kysely<Database>;
  constructor(db: Kysely<Database>) {
    this.#db = db;
  }

  appExists(appId: number): Promise<boolean> {
    return this.#db
      .selectFrom('apps')
      .select('id')
      .where('id', '=', appId)
      .executeTakeFirst()
      .then((row) => row !== undefined);
  }

  find(sessionKey: string): Promise<GameSessionRow | undefined> {
    return this.#db.selectFrom('game_sessions').select(COLUMNS).where('session_key', '=', sessionKey).executeTakeFirst();
  }

  /** How many sessions the user started for the app on that day. */
  async countForDay(userId: number, appId: number, day: string): Promise<number> {
    const row = await this.#db
      .selectFrom('game_sessions')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('user_id', '=', userId)
      .where('app_id', '=', appId)
      .where('day', '=', day)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** Inserts a new session; false when its key was taken meanwhile (the caller reads it again). */
  async insert(row: GameSessionRow): Promise<boolean> {
    const inserted = await this.#db
      .insertInto('game_sessions')
      .values({ ...row, reports: 1 })
      .onConflict((oc) => oc.column('session_key').doNothing())
      .returning('id')
      .executeTakeFirst();
    return inserted !== undefined;
  }

  /**
   * Applies a later report of the same session: the first loading and gameplay figures stay, play
   * time only grows (reports may arrive out of order).
   */
  async update(sessionKey: string, report: { loadingMs: number | null; toGameplayMs: number | null; playMs: number }, now: string): Promise<void> {
    await this.#db
      .updateTable('game_sessions')
      .set((eb) => ({
        loading_ms: eb.fn.coalesce('loading_ms', eb.val(report.loadingMs)),
        to_gameplay_ms: eb.fn.coalesce('to_gameplay_ms', eb.val(report.toGameplayMs)),
        play_ms: sql<number>`case when play_ms < ${report.playMs} then ${report.playMs} else play_ms end`,
        reports: eb('reports', '+', 1),
        updated_at: now,
      }))
      .where('session_key', '=', sessionKey)
      .execute();
  }

  /** The user's latest sessions of one app. */
  listForUser(userId: number, appId: number, limit: number): Promise<GameSessionRow[]> {
    return this.#db
      .selectFrom('game_sessions')
      .select(COLUMNS)
      .where('user_id', '=', userId)
      .where('app_id', '=', appId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
  }

  /**
   * Per game and UTC day within [fromDay, toDay]: sessions, total and average play time, and the
   * medians of loading time and time to gameplay (the mean of the two middle values for an even
   * count). Medians use window functions, the same SQL on SQLite and PostgreSQL.
   */
  async dailyStats(filter: { appId?: number; fromDay: string; toDay: string }): Promise<GameDayStats[]> {
    const totals = await sql<{ app_id: number; day: string; sessions: number | string; total_play: number | string }>`
      select app_id, day, count(*) as sessions, sum(play_ms) as total_play
      from game_sessions
      where day >= ${filter.fromDay} and day <= ${filter.toDay} ${scope(filter.appId)}
      group by app_id, day`.execute(this.#db);
    const median = async (column: 'loading_ms' | 'to_gameplay_ms') =>
      (
        await sql<{ app_id: number; day: string; median: number | string }>`
        select app_id, day, avg(${sql.ref(column)}) as median from (
          select app_id, day, ${sql.ref(column)},
            row_number() over (partition by app_id, day order by ${sql.ref(column)}) as position,
            count(*) over (partition by app_id, day) as n
          from game_sessions
          where day >= ${filter.fromDay} and day <= ${filter.toDay} and ${sql.ref(column)} is not null ${scope(filter.appId)}
        ) ranked
        where position in ((n + 1) / 2, (n + 2) / 2)
        group by app_id, day`.execute(this.#db)
      ).rows;
    const loading = new Map((await median('loading_ms')).map((row) => [key(row), Number(row.median)]));
    const toGameplay = new Map((await median('to_gameplay_ms')).map((row) => [key(row), Number(row.median)]));
    return totals.rows
      .map((row) => {
        const sessions = Number(row.sessions);
        const totalPlayMs = Number(row.total_play);
        return {
          appId: Number(row.app_id),
          day: row.day,
          sessions,
          medianLoadingMs: loading.get(key(row)) ?? null,
          medianToGameplayMs: toGameplay.get(key(row)) ?? null,
          totalPlayMs,
          averagePlayMs: Math.round(totalPlayMs / sessions),
        };
      })
      .sort((a, b) => a.appId - b.appId || a.day.localeCompare(b.day));
  }

  /** A member's reported play sessions for "Download my data" (decision 144). */
  sessionsOf(userId: number) {
    return this.#db
      .selectFrom('game_sessions')
      .select(['app_id', 'day', 'loading_ms', 'to_gameplay_ms', 'play_ms', 'created_at', 'updated_at'])
      .where('user_id', '=', userId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
  }
}
