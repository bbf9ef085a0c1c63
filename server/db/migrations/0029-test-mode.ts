import type { Kysely } from 'kysely';

/**
 * Test mode kept apart from live (decision 111): `inventory.preview_quantity` is what a player
 * holds of a consumable from a build preview's test orders (`orders.preview`, migration 0027),
 * beside the live `quantity`; `item_consumptions.preview` is 1 for a consumption made in a preview,
 * so a request key answers only in the mode it was used in.
 */
export function testMode() {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable('inventory')
        .addColumn('preview_quantity', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .alterTable('item_consumptions')
        .addColumn('preview', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.alterTable('item_consumptions').dropColumn('preview').execute();
      await db.schema.alterTable('inventory').dropColumn('preview_quantity').execute();
    },
  };
}
