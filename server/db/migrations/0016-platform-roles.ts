import { type Kysely, sql } from 'kysely';
import type { DatabaseKind } from '../client.ts';
import { withId } from './helpers.ts';

/**
 * The platform's roles (issue "Studio and Console"; decision 095): operators, granted only by a
 * command on the server, and developers, members with a studio profile who own the games they
 * create. A house game (imported from the content folder) has no developer. Every operator action
 * is a row of `audit_log`, which the database itself refuses to change or delete.
 */
export function platformRoles(kind: DatabaseKind) {
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
      await withId(kind, db.schema.createTable('audit_log'))
        // Kept when the operator's account is removed: the log outlives who wrote it.
        .addColumn('operator_user_id', 'integer', (c) => c.notNull())
        .addColumn('action', 'text', (c) => c.notNull())
        .addColumn('target_type', 'text', (c) => c.notNull())
        .addColumn('target_id', 'text', (c) => c.notNull())
        .addColumn('detail', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('audit_log_target').on('audit_log').columns(['target_type', 'target_id']).execute();
      if (kind === 'sqlite') {
        await sql`create trigger audit_log_no_update before update on audit_log begin select raise(abort, 'audit_log is append-only'); end`.execute(db);
        await sql`create trigger audit_log_no_delete before delete on audit_log begin select raise(abort, 'audit_log is append-only'); end`.execute(db);
      } else {
        await sql`create function audit_log_append_only() returns trigger language plpgsql as $$ begin raise exception 'audit_log is append-only'; end $$`.execute(
          db,
        );
        await sql`create trigger audit_log_no_change before update or delete on audit_log for each row execute function audit_log_append_only()`.execute(db);
      }
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('audit_log').execute();
      if (kind === 'postgres') await sql`drop function audit_log_append_only`.execute(db);
      await db.schema.dropIndex('apps_developer_user').execute();
      await db.schema.alterTable('apps').dropColumn('developer_user_id').execute();
      await db.schema.dropTable('developer_profiles').execute();
      await db.schema.dropTable('operators').execute();
    },
  };
}
