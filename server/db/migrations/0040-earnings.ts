import { type Kysely, sql } from 'kysely';
import type { DatabaseKind } from '../client.ts';
import { withId } from './helpers.ts';

/** Tables the database itself refuses to change or delete a row of: the ledger and closed statements. */
const APPEND_ONLY = ['ledger_entries', 'ledger_lines', 'earnings_statements', 'earnings_statement_lines'] as const;

/**
 * Studios' earnings (decision 149): revenue terms with a start date, a double-entry ledger in minor
 * units that is only ever appended to, monthly statements frozen when closed, payout details and
 * payouts.
 */
export function earnings(kind: DatabaseKind) {
  return {
    async up(db: Kysely<unknown>) {
      await withId(kind, db.schema.createTable('revenue_terms'))
        .addColumn('studio_user_id', 'integer', (c) => c.notNull().references('users.id'))
        .addColumn('share_bp', 'integer', (c) => c.notNull())
        .addColumn('starts_at', 'text', (c) => c.notNull())
        .addColumn('reason', 'text', (c) => c.notNull())
        .addColumn('set_by_user_id', 'integer')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('revenue_terms_studio').on('revenue_terms').columns(['studio_user_id', 'starts_at']).execute();

      await withId(kind, db.schema.createTable('ledger_entries'))
        .addColumn('source_key', 'text', (c) => c.notNull().unique())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('currency', 'text', (c) => c.notNull())
        .addColumn('order_id', 'integer')
        .addColumn('app_id', 'integer')
        .addColumn('item_id', 'integer')
        .addColumn('studio_user_id', 'integer')
        .addColumn('payout_id', 'integer')
        .addColumn('share_bp', 'integer')
        .addColumn('gross_minor', 'integer', (c) => c.notNull())
        .addColumn('deductions_minor', 'integer', (c) => c.notNull())
        .addColumn('platform_minor', 'integer', (c) => c.notNull())
        .addColumn('studio_minor', 'integer', (c) => c.notNull())
        .addColumn('note', 'text')
        .addColumn('posted_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('ledger_entries_order').on('ledger_entries').column('order_id').execute();
      await db.schema.createIndex('ledger_entries_studio_posted').on('ledger_entries').columns(['studio_user_id', 'currency', 'posted_at']).execute();

      await withId(kind, db.schema.createTable('ledger_lines'))
        .addColumn('entry_id', 'integer', (c) => c.notNull().references('ledger_entries.id'))
        .addColumn('account', 'text', (c) => c.notNull())
        .addColumn('studio_user_id', 'integer')
        .addColumn('currency', 'text', (c) => c.notNull())
        .addColumn('amount_minor', 'integer', (c) => c.notNull())
        .addColumn('posted_at', 'text', (c) => c.notNull())
        .addColumn('available_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('ledger_lines_entry').on('ledger_lines').column('entry_id').execute();
      await db.schema.createIndex('ledger_lines_account_posted').on('ledger_lines').columns(['studio_user_id', 'account', 'currency', 'posted_at']).execute();
      await db.schema
        .createIndex('ledger_lines_account_available')
        .on('ledger_lines')
        .columns(['studio_user_id', 'account', 'currency', 'available_at'])
        .execute();

      await withId(kind, db.schema.createTable('earnings_statements'))
        .addColumn('studio_user_id', 'integer', (c) => c.notNull().references('users.id'))
        .addColumn('currency', 'text', (c) => c.notNull())
        .addColumn('month', 'text', (c) => c.notNull())
        .addColumn('opening_minor', 'integer', (c) => c.notNull())
        .addColumn('earned_minor', 'integer', (c) => c.notNull())
        .addColumn('refunded_minor', 'integer', (c) => c.notNull())
        .addColumn('corrections_minor', 'integer', (c) => c.notNull())
        .addColumn('payouts_minor', 'integer', (c) => c.notNull())
        .addColumn('closing_minor', 'integer', (c) => c.notNull())
        .addColumn('closed_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('earnings_statements_month', ['studio_user_id', 'currency', 'month'])
        .execute();

      await db.schema
        .createTable('earnings_statement_lines')
        .addColumn('statement_id', 'integer', (c) => c.notNull().references('earnings_statements.id'))
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('app_id', 'integer')
        .addColumn('item_id', 'integer')
        .addColumn('entries', 'integer', (c) => c.notNull())
        .addColumn('gross_minor', 'integer', (c) => c.notNull())
        .addColumn('deductions_minor', 'integer', (c) => c.notNull())
        .addColumn('platform_minor', 'integer', (c) => c.notNull())
        .addColumn('studio_minor', 'integer', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('earnings_statement_lines_statement').on('earnings_statement_lines').column('statement_id').execute();

      await db.schema
        .createTable('payout_accounts')
        .addColumn('studio_user_id', 'integer', (c) => c.primaryKey().references('users.id'))
        .addColumn('method', 'text', (c) => c.notNull())
        .addColumn('receiver', 'text', (c) => c.notNull())
        .addColumn('legal_name', 'text', (c) => c.notNull())
        .addColumn('country', 'text', (c) => c.notNull())
        .addColumn('tax_id_sealed', 'text')
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();

      await withId(kind, db.schema.createTable('payouts'))
        .addColumn('public_id', 'text', (c) => c.notNull().unique())
        .addColumn('studio_user_id', 'integer', (c) => c.notNull().references('users.id'))
        .addColumn('currency', 'text', (c) => c.notNull())
        .addColumn('amount_minor', 'integer', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('method', 'text', (c) => c.notNull())
        .addColumn('month', 'text', (c) => c.notNull())
        .addColumn('proposed_at', 'text', (c) => c.notNull())
        .addColumn('approved_by_user_id', 'integer')
        .addColumn('approved_at', 'text')
        .addColumn('sent_at', 'text')
        .addColumn('settled_at', 'text')
        .addColumn('provider_reference', 'text')
        .addColumn('failure', 'text')
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('next_attempt_at', 'text')
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('payouts_month', ['studio_user_id', 'currency', 'month'])
        .execute();
      await db.schema.createIndex('payouts_status').on('payouts').columns(['status', 'next_attempt_at']).execute();

      for (const table of APPEND_ONLY) {
        if (kind === 'sqlite') {
          await sql.raw(`create trigger ${table}_no_update before update on ${table} begin select raise(abort, '${table} is append-only'); end`).execute(db);
          await sql.raw(`create trigger ${table}_no_delete before delete on ${table} begin select raise(abort, '${table} is append-only'); end`).execute(db);
        } else {
          await sql
            .raw(`create function ${table}_append_only() returns trigger language plpgsql as $$ begin raise exception '${table} is append-only'; end $$`)
            .execute(db);
          await sql
            .raw(`create trigger ${table}_no_change before update or delete on ${table} for each row execute function ${table}_append_only()`)
            .execute(db);
        }
      }
    },
    async down(db: Kysely<unknown>) {
      for (const table of APPEND_ONLY.toReversed()) {
        if (kind === 'postgres') {
          await sql.raw(`drop trigger if exists ${table}_no_change on ${table}`).execute(db);
          await sql.raw(`drop function if exists ${table}_append_only()`).execute(db);
        }
      }
      for (const table of ['payouts', 'payout_accounts', 'earnings_statement_lines', 'earnings_statements', 'ledger_lines', 'ledger_entries', 'revenue_terms'])
        await db.schema.dropTable(table).execute();
    },
  };
}
