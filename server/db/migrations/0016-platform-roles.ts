import type { Kysely } from 'kysely';

/**
 * The platform's roles (issue "Studio and Console"; decision 095): operators, granted only by a
 * command on the server, and developers, members with a studio profile who own the games they
 * create. A house game (imported from the content folder) has no developer.
 */
export function platformRoles() {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('operators')
        .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
        .addColumn('granted_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('developer_profiles')
        .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
        .addColumn('studio_name', 'text', (c) => c.notNull())
        .addColumn('contact_email', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .alterTable('apps')
        .addColumn('developer_user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .execute();
      await db.schema.createIndex('apps_developer_user').on('apps').column('developer_user_id').execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropIndex('apps_developer_user').execute();
      await db.schema.alterTable('apps').dropColumn('developer_user_id').execute();
      await db.schema.dropTable('developer_profiles').execute();
      await db.schema.dropTable('operators').execute();
    },
  };
}
