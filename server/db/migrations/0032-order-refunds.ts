import { type Kysely, sql } from 'kysely';

/**
 * How much of an order was given back, and when (decision 124): partial refunds leave the order
 * paid and add to `refunded_minor`; a full refund sets it to the whole amount. `refunded_at` is the
 * time of the latest refund, which the game's webhook carries. Orders refunded before this
 * migration are taken as refunded whole at their last change.
 */
export function orderRefunds() {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable('orders')
        .addColumn('refunded_minor', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.alterTable('orders').addColumn('refunded_at', 'text').execute();
      await sql`update orders set refunded_minor = amount_minor, refunded_at = updated_at where status = 'refunded'`.execute(db);
    },
    async down(db: Kysely<unknown>) {
      await db.schema.alterTable('orders').dropColumn('refunded_at').execute();
      await db.schema.alterTable('orders').dropColumn('refunded_minor').execute();
    },
  };
}
