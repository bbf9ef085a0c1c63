import type { Kysely } from 'kysely';

/**
 * Attempts counted on the challenge row itself, so one atomic `attempts = attempts + 1` takes a
 * guess before it is checked: WhatsApp codes (decision 082). The count used to live in the JSON
 * payload, read and then written back, and guesses sent at once all read the same count.
 */
export function challengeAttempts() {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable('auth_challenges')
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.alterTable('auth_challenges').dropColumn('attempts').execute();
    },
  };
}
