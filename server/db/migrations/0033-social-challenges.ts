import { type Kysely, sql } from 'kysely';

/**
 * The social feature's own one-time challenges (decision 139): identity-provider pop-up flows and
 * WhatsApp codes move out of `auth_challenges`, which the passkeys feature owns, into a table of
 * their own. The rows under way move with them, so a flow or code started before the migration
 * still works once, and none is left behind in the passkeys' table.
 */
export function socialChallenges() {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('social_challenges')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('purpose', 'text', (c) => c.notNull())
        .addColumn('challenge', 'text', (c) => c.notNull())
        .addColumn('payload', 'text')
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('social_challenges_expires').on('social_challenges').column('expires_at').execute();
      await sql`insert into social_challenges (id, purpose, challenge, payload, attempts, expires_at, created_at)
        select id, purpose, challenge, payload, attempts, expires_at, created_at from auth_challenges
        where purpose in ('oauth-flow', 'whatsapp-code')`.execute(db);
      await sql`delete from auth_challenges where purpose in ('oauth-flow', 'whatsapp-code')`.execute(db);
    },
    async down(db: Kysely<unknown>) {
      await sql`insert into auth_challenges (id, purpose, challenge, user_id, payload, attempts, expires_at, created_at)
        select id, purpose, challenge, null, payload, attempts, expires_at, created_at from social_challenges`.execute(db);
      await db.schema.dropTable('social_challenges').execute();
    },
  };
}
