import type { Kysely } from 'kysely';

/**
 * Unfinished build uploads and each studio's upload budget (issue 35, point 3; decision 109).
 * `build_uploads` holds one row per open tus upload (its id is the file's name under
 * `BUILDS_DIR/.incoming`), written before its file and touched by every piece, so a clean-up on
 * any instance can tell an abandoned upload from one still being sent. `build_upload_quotas` is a
 * row per studio, taken with an upsert before an upload is opened: the row lock makes creations of
 * one studio wait for each other on PostgreSQL (decision 082), and it carries the day's bytes.
 */
export function buildUploads() {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('build_uploads')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('app_id', 'integer', (c) => c.notNull().references('apps.id').onDelete('cascade'))
        .addColumn('bytes', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('touched_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('build_uploads_user').on('build_uploads').column('user_id').execute();
      await db.schema.createIndex('build_uploads_touched').on('build_uploads').column('touched_at').execute();
      await db.schema
        .createTable('build_upload_quotas')
        .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
        .addColumn('day', 'text', (c) => c.notNull())
        .addColumn('day_bytes', 'bigint', (c) => c.notNull())
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('build_upload_quotas').execute();
      await db.schema.dropTable('build_uploads').execute();
    },
  };
}
