import type { Kysely, Selectable } from 'kysely';
import type { AuditLogTable, Database } from '#server/db/schema.ts';
import { executorOf, type UnitOfWork } from '#server/db/unit-of-work.ts';

export type AuditLogRow = Selectable<AuditLogTable>;

/** Appends to and reads the operators' audit log; it has no update or delete (the database refuses both). */
export class AuditLogRepository {
  readonly #db: Kysely<Database>;
  constructor(db: Kysely<Database>) {
    this.#db = db;
  }

  /** Appends one entry; pass a transaction so the entry commits with the action it records. */
  async append(entry: Omit<AuditLogRow, 'id'>, unit?: UnitOfWork): Promise<void> {
    const db = executorOf(this.#db, unit);
    await db.insertInto('audit_log').values(entry).execute();
  }

  /** Newest first, `limit + 1` rows before the entry id `beforeId`, optionally for one target. */
  async page(options: { limit: number; beforeId?: number; target?: { type: string; id: string } }): Promise<AuditLogRow[]> {
    let query = this.#db.selectFrom('audit_log').selectAll();
    if (options.beforeId !== undefined) query = query.where('id', '<', options.beforeId);
    if (options.target) query = query.where('target_type', '=', options.target.type).where('target_id', '=', options.target.id);
    return query
      .orderBy('id', 'desc')
      .limit(options.limit + 1)
      .execute();
  }
}
