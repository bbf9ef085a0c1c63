import type { Kysely, Selectable } from 'kysely';
import type { DatabaseKind } from '#server/db/client.ts';
import type { Database, GameChangesTable, ItemPriceChangesTable } from '#server/db/schema.ts';
import { executorOf, inUnitOfWork, type UnitOfWork } from '#server/db/unit-of-work.ts';

export type GameChangeRow = Selectable<GameChangesTable>;
export type PriceChangeRow = Selectable<ItemPriceChangesTable>;

export interface QueuedChangeRow extends GameChangeRow {
  slug: string;
  title: string;
  studio_name: string | null;
}

/** Changes of live games waiting for review, their outcome, and the prices they changed (decision 112). */
export class GameChangesRepository {
  readonly #db: Kysely<Database>;
  readonly #kind: DatabaseKind;
  constructor(db: Kysely<Database>, kind: DatabaseKind) {
    this.#db = db;
    this.#kind = kind;
  }

  /** Runs `work` in one transaction: every call given its unit of work commits with the others, or none does. */
  transaction<T>(work: (unit: UnitOfWork) => Promise<T>): Promise<T> {
    return inUnitOfWork(this.#db, work);
  }

  /**
   * Holds the game's row until the transaction ends (PostgreSQL; SQLite writes one transaction at
   * a time), so a save and a review of one game follow each other and never interleave.
   */
  async lockGame(appId: number, unit: UnitOfWork): Promise<boolean> {
    const trx = executorOf(this.#db, unit);
    const query = trx.selectFrom('apps').select('id').where('id', '=', appId);
    return (await (this.#kind === 'postgres' ? query.forUpdate() : query).executeTakeFirst()) !== undefined;
  }

  /** The user whose studio owns the game. */
  async developerOf(appId: number, unit?: UnitOfWork): Promise<number | null> {
    const db = executorOf(this.#db, unit);
    const row = await db.selectFrom('apps').select('developer_user_id').where('id', '=', appId).executeTakeFirst();
    return row?.developer_user_id ?? null;
  }

  async find(id: number, unit?: UnitOfWork): Promise<GameChangeRow | undefined> {
    const db = executorOf(this.#db, unit);
    return db.selectFrom('game_changes').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async pending(appId: number, unit?: UnitOfWork): Promise<GameChangeRow | undefined> {
    const db = executorOf(this.#db, unit);
    return db.selectFrom('game_changes').selectAll().where('app_id', '=', appId).where('status', '=', 'pending').executeTakeFirst();
  }

  /** The game's newest change, whatever its status. */
  async latest(appId: number): Promise<GameChangeRow | undefined> {
    return this.#db.selectFrom('game_changes').selectAll().where('app_id', '=', appId).orderBy('id', 'desc').limit(1).executeTakeFirst();
  }

  /** Ends the game's pending change with `status`; false when none was pending. */
  async closePending(appId: number, status: 'withdrawn' | 'superseded', now: string, unit?: UnitOfWork): Promise<boolean> {
    const db = executorOf(this.#db, unit);
    const done = await db
      .updateTable('game_changes')
      .set({ status, reviewed_at: now })
      .where('app_id', '=', appId)
      .where('status', '=', 'pending')
      .executeTakeFirst();
    return Number(done.numUpdatedRows) > 0;
  }

  /** Adds the game's pending change, under the game's lock (the partial unique index is the last guard against a second one). */
  async insertPending(
    row: { app_id: number; metadata: string; changes: string; submitted_by: number; created_at: string },
    unit: UnitOfWork,
  ): Promise<GameChangeRow> {
    const trx = executorOf(this.#db, unit);
    return trx
      .insertInto('game_changes')
      .values({ ...row, status: 'pending', reviewed_by: null, reviewed_at: null, reason: null })
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  /** Marks a pending change reviewed; false when it is no longer pending (withdrawn, superseded, reviewed). */
  async review(
    id: number,
    outcome: { status: 'approved' | 'rejected'; reviewedBy: number; reason: string | null; now: string },
    unit: UnitOfWork,
  ): Promise<boolean> {
    const trx = executorOf(this.#db, unit);
    const done = await trx
      .updateTable('game_changes')
      .set({ status: outcome.status, reviewed_by: outcome.reviewedBy, reviewed_at: outcome.now, reason: outcome.reason })
      .where('id', '=', id)
      .where('status', '=', 'pending')
      .executeTakeFirst();
    return Number(done.numUpdatedRows) > 0;
  }

  /** Pending changes, oldest first, with their game and studio. */
  async queue(locale: string): Promise<QueuedChangeRow[]> {
    return this.#db
      .selectFrom('game_changes as c')
      .innerJoin('apps as a', 'a.id', 'c.app_id')
      .leftJoin('app_translations as local', (j) => j.onRef('local.app_id', '=', 'a.id').on('local.locale', '=', locale))
      .leftJoin('app_translations as en', (j) => j.onRef('en.app_id', '=', 'a.id').on('en.locale', '=', 'en'))
      .leftJoin('developer_profiles as d', 'd.user_id', 'a.developer_user_id')
      .selectAll('c')
      .select((eb) => ['a.slug', eb.fn.coalesce('local.title', 'en.title', 'a.slug').as('title'), 'd.studio_name'])
      .where('c.status', '=', 'pending')
      .orderBy('c.created_at')
      .orderBy('c.id')
      .execute();
  }

  /** How many changes of live games wait for an operator's review. */
  async pendingCount(): Promise<number> {
    const row = await this.#db
      .selectFrom('game_changes')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('status', '=', 'pending')
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async recordPriceChanges(rows: Omit<PriceChangeRow, 'id'>[], unit: UnitOfWork): Promise<void> {
    const trx = executorOf(this.#db, unit);
    if (rows.length > 0) await trx.insertInto('item_price_changes').values(rows).execute();
  }

  /** A game's price changes, newest first. */
  async priceHistory(appId: number, limit: number): Promise<PriceChangeRow[]> {
    return this.#db.selectFrom('item_price_changes').selectAll().where('app_id', '=', appId).orderBy('id', 'desc').limit(limit).execute();
  }
}
