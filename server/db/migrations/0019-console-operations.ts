import type { Kysely } from 'kysely';
import type { DatabaseKind } from '../client.ts';
import { withId } from './helpers.ts';

/**
 * What the Console's operators need to help members and refund orders (decision 098): an account
 * an operator disabled (`users.disabled_at`), an order whose refund an operator asked the provider
 * for (`orders.refund_requested_at`, the claim that makes two refunds at once one), and the recent
 * failed sign-ins of each member (`sign_in_failures`, kept bounded by the accounts service).
 */
export function consoleOperations(kind: DatabaseKind) {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('users').addColumn('disabled_at', 'text').execute();
      await db.schema.alterTable('orders').addColumn('refund_requested_at', 'text').execute();
      await withId(kind, db.schema.createTable('sign_in_failures'))
        // Null when the identifier named no member (an unknown username or phone).
        .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('cascade'))
        .addColumn('identifier', 'text', (c) => c.notNull())
        .addColumn('method', 'text', (c) => c.notNull())
        .addColumn('address', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('sign_in_failures_user').on('sign_in_failures').columns(['user_id', 'id']).execute();
      await db.schema.createIndex('sign_in_failures_identifier').on('sign_in_failures').columns(['identifier', 'id']).execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('sign_in_failures').execute();
      await db.schema.alterTable('orders').dropColumn('refund_requested_at').execute();
      await db.schema.alterTable('users').dropColumn('disabled_at').execute();
    },
  };
}
