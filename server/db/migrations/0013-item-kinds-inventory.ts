import type { Kysely } from 'kysely';
import type { DatabaseKind } from '../client.ts';
import { withId } from './helpers.ts';

/**
 * Items that are used up (decision 091): each item is `permanent` (owned once bought) or
 * `consumable` (a paid order adds to the player's inventory, once: `orders.credited_at`); the
 * inventory per player and item; and each consumption by its idempotency key, so a retried or
 * doubled consume happens once and answers the same.
 */
export function itemKindsInventory(kind: DatabaseKind) {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable('app_items')
        .addColumn('kind', 'text', (c) => c.notNull().defaultTo('permanent'))
        .execute();
      await db.schema.alterTable('orders').addColumn('credited_at', 'text').execute();
      await db.schema
        .createTable('inventory')
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('item_id', 'integer', (c) => c.notNull().references('app_items.id').onDelete('cascade'))
        .addColumn('app_id', 'integer', (c) => c.notNull().references('apps.id').onDelete('cascade'))
        .addColumn('quantity', 'integer', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('inventory_pk', ['user_id', 'item_id'])
        .execute();
      await withId(kind, db.schema.createTable('item_consumptions'))
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('item_id', 'integer', (c) => c.notNull().references('app_items.id').onDelete('cascade'))
        .addColumn('idempotency_key', 'text', (c) => c.notNull())
        .addColumn('quantity', 'integer', (c) => c.notNull())
        /** What the inventory held after this consumption: a retry answers it again. */
        .addColumn('remaining', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('item_consumptions_key_uq', ['user_id', 'idempotency_key'])
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('item_consumptions').ifExists().execute();
      await db.schema.dropTable('inventory').ifExists().execute();
      await db.schema.alterTable('orders').dropColumn('credited_at').execute();
      await db.schema.alterTable('app_items').dropColumn('kind').execute();
    },
  };
}
