import { type Kysely, sql } from 'kysely';
import type { DatabaseKind } from '../client.ts';
import { withId } from './helpers.ts';

/**
 * Changes of a live game waiting for review (decision 112): the whole form the studio saved, kept
 * apart until an operator approves it. At most one pending change per game (a partial unique
 * index, which both databases have). `item_price_changes` keeps every applied price change.
 */
export function gameChanges(kind: DatabaseKind) {
  return {
    async up(db: Kysely<unknown>) {
      await withId(kind, db.schema.createTable('game_changes'))
        .addColumn('app_id', 'integer', (c) => c.notNull().references('apps.id').onDelete('cascade'))
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('metadata', 'text', (c) => c.notNull())
        .addColumn('changes', 'text', (c) => c.notNull())
        .addColumn('submitted_by', 'integer', (c) => c.notNull().references('users.id'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('reviewed_by', 'integer', (c) => c.references('users.id'))
        .addColumn('reviewed_at', 'text')
        .addColumn('reason', 'text')
        .execute();
      await db.schema.createIndex('game_changes_app').on('game_changes').columns(['app_id', 'id']).execute();
      await db.schema
        .createIndex('game_changes_one_pending')
        .on('game_changes')
        .column('app_id')
        .unique()
        .where(sql.ref('status'), '=', sql.lit('pending'))
        .execute();
      await withId(kind, db.schema.createTable('item_price_changes'))
        .addColumn('app_id', 'integer', (c) => c.notNull().references('apps.id').onDelete('cascade'))
        .addColumn('sku', 'text', (c) => c.notNull())
        .addColumn('currency', 'text', (c) => c.notNull())
        .addColumn('old_price_minor', 'integer')
        .addColumn('new_price_minor', 'integer', (c) => c.notNull())
        .addColumn('old_currency', 'text')
        .addColumn('requested_by', 'integer', (c) => c.notNull().references('users.id'))
        .addColumn('approved_by', 'integer', (c) => c.notNull().references('users.id'))
        .addColumn('change_id', 'integer', (c) => c.notNull().references('game_changes.id'))
        .addColumn('changed_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('item_price_changes_app').on('item_price_changes').columns(['app_id', 'id']).execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('item_price_changes').execute();
      await db.schema.dropTable('game_changes').execute();
    },
  };
}
