import type { Kysely } from 'kysely';

/**
 * Indexes for the Studio's statistics (decision 101): each statistics query reads one game's rows
 * of one range of days through an index that starts with the game. New players come from the
 * played history by game and first play; sales from orders by game and payment time.
 */
export function studioStats() {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.createIndex('played_games_app_first').on('played_games').columns(['app_id', 'first_played_at']).execute();
      await db.schema.createIndex('orders_app_paid').on('orders').columns(['app_id', 'paid_at']).execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropIndex('orders_app_paid').execute();
      await db.schema.dropIndex('played_games_app_first').execute();
    },
  };
}
