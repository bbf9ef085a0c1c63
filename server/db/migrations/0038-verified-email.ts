import type { Kysely } from 'kysely';

/**
 * Verified email and password recovery (decision 146): when the member's address was confirmed and
 * the language its mail goes out in, the pending confirmation of an address (a 6-digit code,
 * hashed), the single-use links of "Forgot password" and of the notices' "this wasn't me" (hashed),
 * and the devices an account signed in from, for the notice of a new one (decision 148).
 */
export function verifiedEmail() {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('users').addColumn('email_verified_at', 'text').execute();
      await db.schema.alterTable('users').addColumn('mail_locale', 'text').execute();
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
        .addColumn('purpose', 'text', (c) => c.notNull().defaultTo('reset'))
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addColumn('used_at', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('password_resets_user').on('password_resets').column('user_id').execute();
      await db.schema
        .createTable('sign_in_devices')
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('device_hash', 'text', (c) => c.notNull())
        .addColumn('label', 'text', (c) => c.notNull())
        .addColumn('first_at', 'text', (c) => c.notNull())
        .addColumn('last_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('sign_in_devices_pk', ['user_id', 'device_hash'])
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('sign_in_devices').execute();
      await db.schema.dropTable('password_resets').execute();
      await db.schema.dropTable('email_verifications').execute();
      await db.schema.alterTable('users').dropColumn('mail_locale').execute();
      await db.schema.alterTable('users').dropColumn('email_verified_at').execute();
    },
  };
}
