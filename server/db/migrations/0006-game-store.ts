import type { Kysely } from 'kysely';
import type { DatabaseKind } from '../client.ts';
import { withId } from './helpers.ts';

/**
 * The game bridge and in-game purchases (decision 064): each app's items, orders with every state
 * change in an append-only events table, and cloud saves per member and app.
 */
export function gameStore(kind: DatabaseKind) {
  return {
    async up(db: Kysely<unknown>) {
      await withId(kind, db.schema.createTable('app_items'))
        .addColumn('app_id', 'integer', (c) => c.notNull().references('apps.id').onDelete('cascade'))
        .addColumn('sku', 'text', (c) => c.notNull())
        .addColumn('price_minor', 'integer', (c) => c.notNull())
        .addColumn('currency', 'text', (c) => c.notNull())
        /** JSON: the name per locale. */
        .addColumn('names', 'text', (c) => c.notNull())
        .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('app_items_sku_uq', ['app_id', 'sku'])
        .execute();

      await withId(kind, db.schema.createTable('orders'))
        .addColumn('public_id', 'text', (c) => c.notNull().unique())
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
        .addColumn('app_id', 'integer', (c) => c.notNull().references('apps.id'))
        .addColumn('item_id', 'integer', (c) => c.notNull().references('app_items.id'))
        .addColumn('sku', 'text', (c) => c.notNull())
        .addColumn('amount_minor', 'integer', (c) => c.notNull())
        .addColumn('currency', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('provider', 'text', (c) => c.notNull())
        .addColumn('provider_order_id', 'text')
        .addColumn('provider_transaction_id', 'text')
        .addColumn('idempotency_key', 'text', (c) => c.notNull())
        /** JSON: the campaign tags the order was made with. */
        .addColumn('campaign', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addColumn('paid_at', 'text')
        .addColumn('delivered_at', 'text')
        .addUniqueConstraint('orders_idempotency_uq', ['user_id', 'idempotency_key'])
        .execute();
      await db.schema.createIndex('orders_user_idx').on('orders').columns(['user_id', 'created_at']).execute();
      await db.schema.createIndex('orders_provider_order_idx').on('orders').columns(['provider', 'provider_order_id']).execute();

      await withId(kind, db.schema.createTable('order_events'))
        .addColumn('order_id', 'integer', (c) => c.notNull().references('orders.id'))
        .addColumn('type', 'text', (c) => c.notNull())
        /** What makes a provider's notification the same one when it comes again. */
        .addColumn('event_key', 'text', (c) => c.notNull())
        .addColumn('from_status', 'text')
        .addColumn('to_status', 'text', (c) => c.notNull())
        .addColumn('payload', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('order_events_key_uq', ['order_id', 'event_key'])
        .execute();

      await db.schema
        .createTable('game_saves')
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('app_id', 'integer', (c) => c.notNull().references('apps.id').onDelete('cascade'))
        .addColumn('key', 'text', (c) => c.notNull())
        .addColumn('value', 'text', (c) => c.notNull())
        .addColumn('size', 'integer', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('game_saves_pk', ['user_id', 'app_id', 'key'])
        .execute();
    },
    async down(db: Kysely<unknown>) {
      for (const table of ['game_saves', 'order_events', 'orders', 'app_items']) await db.schema.dropTable(table).ifExists().execute();
    },
  };
}
