import type { Kysely } from 'kysely';
import type { Database, RedirectsTable } from '#server/db/schema.ts';

export type RedirectRow = RedirectsTable;

/** Reads and writes the server-driven redirects, keyed by path. */
export class RedirectsRepository {
  readonly #db: Kysely<Database>;
  constructor(db: Kysely<Database>) {
    this.#db = db;
  }

  async all(): Promise<RedirectRow[]> {
    return this.#db.selectFrom('redirects').selectAll().orderBy('path').execute();
  }

  /** Inserts or replaces redirects by path, in one transaction. Other redirects stay. */
  async upsert(rows: RedirectRow[]): Promise<void> {
    if (rows.length === 0) return;
    await this.#db.transaction().execute(async (trx) => {
      for (const row of rows) {
        await trx
          .insertInto('redirects')
          .values(row)
          .onConflict((oc) => oc.column('path').doUpdateSet({ destination: row.destination, status: row.status }))
          .execute();
      }
    });
  }
}
