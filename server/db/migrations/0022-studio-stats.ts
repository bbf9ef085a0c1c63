import type { Kysely } from 'kysely';

/**
 * Indexes for the Studio's statistics (decision 101): each statistics query reads one game's rows
 * of one range of days through an index that starts with the game. Play sessions are read from the
 * index alone (it holds every figure the statistics use), so a busy game's 90 days cost a few
 * thousand index pages instead of a random read of most of the table; it replaces the index of
 * migration 0015 that was its prefix. New players come from the played history by game and first
 * play, sales from orders by game and payment time.
 */
export function studioStats() {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createIndex('game_sessions_app_day_figures')
        .on('game_sessions')
        .columns(['app_id', 'day', 'user_id', 'play_ms', 'to_gameplay_ms'])
        .execute();
      await db.schema.dropIndex('game_sessions_app_day').execute();
      await db.schema.createIndex('played_games_app_first').on('played_games').columns(['app_id', 'first_played_at']).execute();
      await db.schema.createIndex('orders_app_paid').on('orders').columns(['app_id', 'paid_at']).execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropIndex('orders_app_paid').execute();
      await db.schema.dropIndex('played_games_app_first').execute();
      await db.schema.createIndex('game_sessions_app_day').on('game_sessions').columns(['app_id', 'day']).execute();
      await db.schema.dropIndex('game_sessions_app_day_figures').execute();
    },
  };
}
