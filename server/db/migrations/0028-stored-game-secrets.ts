import type { Kysely } from 'kysely';

/**
 * Per-game secrets of their own (issue 35, point 7; decision 110): a game's backend secret and
 * webhook secret are random and stored sealed (AES-256-GCM under a key derived from APP_SECRET),
 * no longer derived from APP_SECRET, so a rotation of APP_SECRET leaves them working. During a
 * rotation of a game secret the previous one is kept until `previous_expires_at`.
 *
 * The secrets in use until now (derived from APP_SECRET and the generations in `game_secrets` and
 * `game_webhooks.secret_generation`) are not computed here: a migration has no APP_SECRET. Each
 * server process stores them at start-up (`GameSecretsService.adoptDerived`), before it answers;
 * the generation columns stay for that step. `secret_key_checks` holds one value sealed under the
 * server's current key, so a command run with another APP_SECRET can tell and refuse.
 */
export function storedGameSecrets() {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('game_credentials')
        .addColumn('app_id', 'integer', (c) => c.notNull().references('apps.id').onDelete('cascade'))
        // `backend` (signed calls of the game's backend) or `webhook` (signs the portal's webhooks).
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('sealed', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('previous_sealed', 'text')
        .addColumn('previous_expires_at', 'text')
        .addPrimaryKeyConstraint('game_credentials_pk', ['app_id', 'kind'])
        .execute();
      await db.schema
        .createTable('secret_key_checks')
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('sealed', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('secret_key_checks').execute();
      await db.schema.dropTable('game_credentials').execute();
    },
  };
}
