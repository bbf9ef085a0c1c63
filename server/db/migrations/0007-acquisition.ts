import type { Kysely } from 'kysely';

/** The campaign tags a guest account was created with (JSON), for acquisition reports (npm run report). */
export function acquisition() {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('users').addColumn('campaign', 'text').execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.alterTable('users').dropColumn('campaign').execute();
    },
  };
}
