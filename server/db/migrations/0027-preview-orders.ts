import type { Kysely } from 'kysely';

/**
 * `orders.preview`: 1 for an order made in a build's preview (a sandbox test by the developer or a
 * QA member, decision 097). The Studio's statistics leave them out of revenue and refunds.
 */
export function previewOrders() {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable('orders')
        .addColumn('preview', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.alterTable('orders').dropColumn('preview').execute();
    },
  };
}
