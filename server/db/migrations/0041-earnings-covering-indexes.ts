import { type Kysely, sql } from 'kysely';
import type { DatabaseKind } from '../client.ts';

/**
 * Studios' balances and statements read one studio's entries of a month and its studio lines in
 * their hold (decision 149): hundreds of thousands of rows for a busy studio. These indexes carry
 * the columns those sums read, so PostgreSQL answers from the index alone (no heap page per row);
 * they replace 0040's narrower ones on the same keys. SQLite has no INCLUDE: the columns follow the key.
 */
export function earningsCoveringIndexes(kind: DatabaseKind) {
  const include = (key: string, columns: string) => (kind === 'postgres' ? `(${key}) include (${columns})` : `(${key}, ${columns})`);
  return {
    async up(db: Kysely<unknown>) {
      await sql
        .raw(
          `create index ledger_entries_studio_month on ledger_entries ${include('studio_user_id, currency, posted_at', 'kind, app_id, item_id, gross_minor, deductions_minor, platform_minor, studio_minor')}`,
        )
        .execute(db);
      await db.schema.dropIndex('ledger_entries_studio_posted').execute();
      await sql
        .raw(`create index ledger_lines_studio_held on ledger_lines ${include('studio_user_id, account, currency, available_at', 'amount_minor')}`)
        .execute(db);
      await db.schema.dropIndex('ledger_lines_account_available').execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema
        .createIndex('ledger_lines_account_available')
        .on('ledger_lines')
        .columns(['studio_user_id', 'account', 'currency', 'available_at'])
        .execute();
      await db.schema.dropIndex('ledger_lines_studio_held').execute();
      await db.schema.createIndex('ledger_entries_studio_posted').on('ledger_entries').columns(['studio_user_id', 'currency', 'posted_at']).execute();
      await db.schema.dropIndex('ledger_entries_studio_month').execute();
    },
  };
}
