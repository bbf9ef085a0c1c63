import type { Kysely } from 'kysely';

/**
 * Two-step sign-in with an authenticator app (decision 145): each member's TOTP secret, sealed under
 * APP_SECRET, with the step of the last code accepted (a code works once), and their single-use
 * recovery codes, hashed.
 */
export function twoFactor() {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('two_factor_secrets')
        .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
        .addColumn('secret_sealed', 'text', (c) => c.notNull())
        .addColumn('confirmed_at', 'text')
        .addColumn('last_step', 'integer')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('two_factor_recovery_codes')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('code_hash', 'text', (c) => c.notNull())
        .addColumn('used_at', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('two_factor_recovery_codes_user').on('two_factor_recovery_codes').column('user_id').execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('two_factor_recovery_codes').execute();
      await db.schema.dropTable('two_factor_secrets').execute();
    },
  };
}
