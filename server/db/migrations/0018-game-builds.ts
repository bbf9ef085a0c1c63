import type { Kysely } from 'kysely';
import type { DatabaseKind } from '../client.ts';
import { withId } from './helpers.ts';

/**
 * Builds of developers' games (issue 27, points 1 to 3; decision 097): each upload is a numbered
 * build of one game, reviewed by an operator; `apps.live_build_id` names the approved build players
 * get.
 */
export function gameBuilds(kind: DatabaseKind) {
  return {
    async up(db: Kysely<unknown>) {
      await withId(kind, db.schema.createTable('game_builds'))
        .addColumn('app_id', 'integer', (c) => c.notNull().references('apps.id').onDelete('cascade'))
        .addColumn('version', 'integer', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('reason', 'text')
        .addColumn('uploaded_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('reviewed_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('entry_path', 'text', (c) => c.notNull())
        .addColumn('file_count', 'integer', (c) => c.notNull())
        .addColumn('total_bytes', 'integer', (c) => c.notNull())
        .addColumn('archive_bytes', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('submitted_at', 'text')
        .addColumn('reviewed_at', 'text')
        .addUniqueConstraint('game_builds_app_version', ['app_id', 'version'])
        .execute();
      await db.schema.createIndex('game_builds_status').on('game_builds').columns(['status', 'submitted_at']).execute();
      await db.schema.alterTable('apps').addColumn('live_build_id', 'integer').execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.alterTable('apps').dropColumn('live_build_id').execute();
      await db.schema.dropTable('game_builds').execute();
    },
  };
}
