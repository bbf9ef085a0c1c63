import type { Kysely } from 'kysely';
import type { DatabaseKind } from '../client.ts';
import { withId } from './helpers.ts';

/**
 * Play sessions of games (SDK 1.1; decision 093): one row per visit of the play page, updated by
 * the page's batched reports. `day` (UTC, YYYY-MM-DD) is stored so per-game per-day figures group
 * on an index instead of a function of the time. A removed account (a guest cleaned up) leaves
 * its sessions to the game's statistics, without the user.
 */
export function gameSessions(kind: DatabaseKind) {
  return {
    async up(db: Kysely<unknown>) {
      await withId(kind, db.schema.createTable('game_sessions'))
        .addColumn('session_key', 'text', (c) => c.notNull().unique())
        .addColumn('app_id', 'integer', (c) => c.notNull().references('apps.id').onDelete('cascade'))
        .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('day', 'text', (c) => c.notNull())
        .addColumn('loading_ms', 'integer')
        .addColumn('to_gameplay_ms', 'integer')
        .addColumn('play_ms', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('reports', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('game_sessions_app_day').on('game_sessions').columns(['app_id', 'day']).execute();
      await db.schema.createIndex('game_sessions_user_app_day').on('game_sessions').columns(['user_id', 'app_id', 'day']).execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('game_sessions').execute();
    },
  };
}
