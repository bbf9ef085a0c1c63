import type { Kysely } from 'kysely';

/**
 * Passkeys: each account's WebAuthn user handle (random bytes, never the uid, decision 062) and
 * each credential's authenticator model (AAGUID), from which its default name comes.
 */
export function passkeys() {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('users').addColumn('webauthn_user_id', 'text').execute();
      await db.schema.createIndex('users_webauthn_user_id_idx').on('users').column('webauthn_user_id').unique().execute();
      await db.schema.alterTable('webauthn_credentials').addColumn('aaguid', 'text').execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.alterTable('webauthn_credentials').dropColumn('aaguid').execute();
      await db.schema.dropIndex('users_webauthn_user_id_idx').execute();
      await db.schema.alterTable('users').dropColumn('webauthn_user_id').execute();
    },
  };
}
