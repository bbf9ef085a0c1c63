import type { Kysely } from 'kysely';
import type { DatabaseKind } from '../client.ts';
import { withId } from './helpers.ts';

/**
 * The mail outbox (decision 141): every message is a row first, written with the change that causes
 * it, and a background sender delivers due rows. `claimed_until` is the claim of one sender: a row
 * is taken only while pending, due and unclaimed, so two instances never send it twice.
 */
export function mailOutbox(kind: DatabaseKind) {
  return {
    async up(db: Kysely<unknown>) {
      await withId(kind, db.schema.createTable('mail_outbox'))
        .addColumn('recipient', 'text', (c) => c.notNull())
        .addColumn('locale', 'text', (c) => c.notNull())
        .addColumn('template', 'text', (c) => c.notNull())
        .addColumn('params', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull())
        .addColumn('next_attempt_at', 'text', (c) => c.notNull())
        .addColumn('claimed_until', 'text', (c) => c.notNull())
        .addColumn('last_error', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('sent_at', 'text')
        .execute();
      await db.schema.createIndex('mail_outbox_due').on('mail_outbox').columns(['status', 'next_attempt_at']).execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('mail_outbox').execute();
    },
  };
}
