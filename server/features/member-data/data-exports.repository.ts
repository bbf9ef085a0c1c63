import type { Kysely } from 'kysely';
import type { Database, DataExportsTable } from '#server/db/schema.ts';
import { executorOf, inUnitOfWork, type UnitOfWork } from '#server/db/unit-of-work.ts';

export type DataExportRow = Omit<DataExportsTable, 'attempts'> & { attempts: number };

/** Members' requests for their data and the archives prepared for them (decision 144). */
export class DataExportsRepository {
  readonly #db: Kysely<Database>;
  constructor(db: Kysely<Database>) {
    this.#db = db;
  }

  transaction<T>(work: (unit: UnitOfWork) => Promise<T>): Promise<T> {
    return inUnitOfWork(this.#db, work);
  }

  insert(row: { id: string; user_id: number; requested_by: number | null; created_at: string }, unit?: UnitOfWork): Promise<void> {
    return executorOf(this.#db, unit)
      .insertInto('data_exports')
      .values({ ...row, status: 'pending' })
      .execute()
      .then(() => undefined);
  }

  find(id: string): Promise<DataExportRow | undefined> {
    return this.#db.selectFrom('data_exports').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** A member's requests, newest first. */
  ofMember(userId: number, limit: number): Promise<DataExportRow[]> {
    return this.#db
      .selectFrom('data_exports')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
  }

  countPending(): Promise<number> {
    return this.#db
      .selectFrom('data_exports')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('status', '=', 'pending')
      .executeTakeFirstOrThrow()
      .then((row) => Number(row.n));
  }

  /**
   * Takes the oldest pending request no other instance holds, until `until`; undefined when there
   * is none. One statement decides between instances: only one of them changes the row.
   */
  /** Deletes a member's archive requests in the erasure's unit of work (decision 147); answers the stored files' keys. */
  async eraseMember(userId: number, unit: UnitOfWork): Promise<string[]> {
    const db = executorOf(this.#db, unit);
    const rows = await db.selectFrom('data_exports').select('storage_key').where('user_id', '=', userId).execute();
    await db.deleteFrom('data_exports').where('user_id', '=', userId).execute();
    return rows.flatMap((row) => (row.storage_key ? [row.storage_key] : []));
  }

  async claimNext(now: string, until: string): Promise<DataExportRow | undefined> {
    const next = await this.#db
      .selectFrom('data_exports')
      .select('id')
      .where('status', '=', 'pending')
      .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', now)]))
      .orderBy('created_at')
      .orderBy('id')
      .limit(1)
      .executeTakeFirst();
    if (!next) return undefined;
    const claimed = await this.#db
      .updateTable('data_exports')
      .set((eb) => ({ claimed_until: until, attempts: eb('attempts', '+', 1) }))
      .where('id', '=', next.id)
      .where('status', '=', 'pending')
      .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', now)]))
      .executeTakeFirst();
    // Another instance took it between the two statements: look again next time.
    if (Number(claimed.numUpdatedRows) === 0) return undefined;
    return this.find(next.id);
  }

  async markReady(id: string, file: { storage_key: string; size_bytes: number; ready_at: string; expires_at: string }): Promise<void> {
    await this.#db
      .updateTable('data_exports')
      .set({ ...file, status: 'ready', claimed_until: null, error: null })
      .where('id', '=', id)
      .execute();
  }

  /** A failed attempt: tried again after `retryAt`, or given up (`failed`). */
  async markAttemptFailed(id: string, error: string, retryAt: string | null): Promise<void> {
    await this.#db
      .updateTable('data_exports')
      .set(retryAt ? { error, claimed_until: retryAt } : { error, claimed_until: null, status: 'failed' })
      .where('id', '=', id)
      .execute();
  }

  /** Archives past their offer. */
  expiredBy(now: string, limit: number): Promise<DataExportRow[]> {
    return this.#db
      .selectFrom('data_exports')
      .selectAll()
      .where('status', '=', 'ready')
      .where('expires_at', '<', now)
      .orderBy('expires_at')
      .limit(limit)
      .execute();
  }

  async markExpired(id: string): Promise<void> {
    await this.#db.updateTable('data_exports').set({ status: 'expired', storage_key: null }).where('id', '=', id).where('status', '=', 'ready').execute();
  }
}
