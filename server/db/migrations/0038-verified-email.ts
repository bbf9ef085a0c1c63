import type { Kysely } from 'kysely';

/**
 * Verified email and password recovery (decision 146): when the member's address was confirmed,
 * the pending confirmation of an address (a 6-digit code, hashed), and the single-use links of
 * "Forgot password" (hashed).
 */
export function verifiedEmail() {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('users').addColumn('email_verified_at', 'text').execute();
      await db.schema
        .createTable('email_verifications')
        .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('code_hash', 'text', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('password_resets')
        .addColumn('token_hash', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addColumn('used_at', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('password_resets_user').on('password_resets').column('user_id').execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('password_resets').execute();
      await db.schema.dropTable('email_verifications').execute();
      await db.schema.alterTable('users').dropColumn('email_verified_at').execute();
    },
  };
}
