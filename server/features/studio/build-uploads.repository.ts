import { type Kysely, type Selectable, sql } from 'kysely';
import type { BuildUploadsTable, Database } from '#server/db/schema.ts';

export type BuildUploadRow = Selectable<BuildUploadsTable>;

/** What a studio has open when it asks for another upload, read under its budget row's lock. */
export interface StudioUploadUse {
  openUploads: number;
  /** Bytes opened today (UTC), before this upload. */
  dayBytes: number;
}

/** Unfinished build uploads and the studios' upload budgets (decision 109). */
export class BuildUploadsRepository {
  readonly #db: Kysely<Database>;
  constructor(db: Kysely<Database>) {
    this.#db = db;
  }

  /**
   * Opens an upload if `check` lets it: the studio's budget row is taken first with an upsert (a
   * row lock until commit on PostgreSQL, decision 082), so creations of one studio at once are
   * counted one after the other and cannot all pass a cap. `check` throws to refuse; nothing is then written.
   */
  async open(row: BuildUploadRow, day: string, check: (use: StudioUploadUse) => void): Promise<void> {
    await this.#db.transaction().execute(async (trx) => {
      const budget = await trx
        .insertInto('build_upload_quotas')
        .values({ user_id: row.user_id, day, day_bytes: 0 })
        .onConflict((oc) => oc.column('user_id').doUpdateSet({ day_bytes: sql<number>`build_upload_quotas.day_bytes` }))
        .returning(['day', 'day_bytes'])
        .executeTakeFirstOrThrow();
      const open = await trx
        .selectFrom('build_uploads')
        .select((eb) => eb.fn.countAll<number | string>().as('count'))
        .where('user_id', '=', row.user_id)
        .executeTakeFirstOrThrow();
      const dayBytes = budget.day === day ? Number(budget.day_bytes) : 0;
      check({ openUploads: Number(open.count), dayBytes });
      await trx
        .updateTable('build_upload_quotas')
        .set({ day, day_bytes: dayBytes + row.bytes })
        .where('user_id', '=', row.user_id)
        .execute();
      await trx.insertInto('build_uploads').values(row).execute();
    });
  }

  /** Marks a piece's arrival; false when the upload is no longer open (finished, abandoned or expired). */
  async touch(id: string, now: string): Promise<boolean> {
    const result = await this.#db.updateTable('build_uploads').set({ touched_at: now }).where('id', '=', id).executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async exists(id: string): Promise<boolean> {
    return (await this.#db.selectFrom('build_uploads').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
  }

  /** Closes an upload; closing one already closed is not an error. */
  async close(id: string): Promise<void> {
    await this.#db.deleteFrom('build_uploads').where('id', '=', id).execute();
  }

  /** Uploads that received nothing since `before`. */
  async idleSince(before: string): Promise<string[]> {
    const rows = await this.#db.selectFrom('build_uploads').select('id').where('touched_at', '<', before).execute();
    return rows.map((row) => row.id);
  }

  /**
   * Closes an upload only if it is still idle since `before`: a piece that arrived meanwhile, on any
   * instance, touched it first, and then this matches nothing. True when this call closed it.
   */
  async closeIfIdle(id: string, before: string): Promise<boolean> {
    const result = await this.#db.deleteFrom('build_uploads').where('id', '=', id).where('touched_at', '<', before).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** How many uploads are open, of every studio. */
  async countOpen(): Promise<number> {
    const row = await this.#db
      .selectFrom('build_uploads')
      .select((eb) => eb.fn.countAll<number | string>().as('count'))
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  /** Which of these ids are open uploads. */
  async openAmong(ids: string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows = await this.#db.selectFrom('build_uploads').select('id').where('id', 'in', ids).execute();
    return new Set(rows.map((row) => row.id));
  }
}
