import type { Kysely } from 'kysely';

/**
 * Members' downloads of their data (decision 144): one row a request, prepared in the background
 * into a zip kept in a folder of its own, offered by a signed link until it expires.
 */
export function dataExports() {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('data_exports')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('requested_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('storage_key', 'text')
        .addColumn('size_bytes', 'integer')
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('error', 'text')
        .addColumn('claimed_until', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('ready_at', 'text')
        .addColumn('expires_at', 'text')
        .execute();
      await db.schema.createIndex('data_exports_user').on('data_exports').columns(['user_id', 'created_at']).execute();
      await db.schema.createIndex('data_exports_status').on('data_exports').columns(['status', 'claimed_until']).execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('data_exports').execute();
    },
  };
}
