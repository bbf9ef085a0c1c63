import type { Kysely } from 'kysely';

/**
 * Leaderboards and achievements (decision 092): the boards and achievements a game declares in its
 * catalogue entry (JSON on `apps`), each player's best score per board and period, each player's
 * unlocked achievements, the generation of each game's backend secret (the secret itself is derived
 * from APP_SECRET, never stored) and the signatures of backend calls already seen (replays refused).
 */
export function leaderboardsAchievements() {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable('apps')
        .addColumn('leaderboards', 'text', (c) => c.notNull().defaultTo('[]'))
        .execute();
      await db.schema
        .alterTable('apps')
        .addColumn('achievements', 'text', (c) => c.notNull().defaultTo('[]'))
        .execute();
      await db.schema
        .createTable('leaderboard_scores')
        .addColumn('app_id', 'integer', (c) => c.notNull().references('apps.id').onDelete('cascade'))
        .addColumn('board', 'text', (c) => c.notNull())
        .addColumn('period', 'text', (c) => c.notNull())
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('score', 'integer', (c) => c.notNull())
        .addColumn('achieved_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('leaderboard_scores_pk', ['app_id', 'board', 'period', 'user_id'])
        .execute();
      await db.schema.createIndex('leaderboard_scores_rank').on('leaderboard_scores').columns(['app_id', 'board', 'period', 'score']).execute();
      await db.schema.createIndex('leaderboard_scores_user').on('leaderboard_scores').column('user_id').execute();
      await db.schema
        .createTable('achievement_unlocks')
        .addColumn('app_id', 'integer', (c) => c.notNull().references('apps.id').onDelete('cascade'))
        .addColumn('achievement', 'text', (c) => c.notNull())
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('unlocked_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('achievement_unlocks_pk', ['app_id', 'achievement', 'user_id'])
        .execute();
      await db.schema.createIndex('achievement_unlocks_user').on('achievement_unlocks').column('user_id').execute();
      await db.schema
        .createTable('game_secrets')
        .addColumn('app_id', 'integer', (c) => c.primaryKey().references('apps.id').onDelete('cascade'))
        .addColumn('generation', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('game_backend_calls')
        .addColumn('app_id', 'integer', (c) => c.notNull().references('apps.id').onDelete('cascade'))
        .addColumn('signature', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('game_backend_calls_pk', ['app_id', 'signature'])
        .execute();
    },
    async down(db: Kysely<unknown>) {
      for (const table of ['game_backend_calls', 'game_secrets', 'achievement_unlocks', 'leaderboard_scores'])
        await db.schema.dropTable(table).ifExists().execute();
      await db.schema.alterTable('apps').dropColumn('achievements').execute();
      await db.schema.alterTable('apps').dropColumn('leaderboards').execute();
    },
  };
}
