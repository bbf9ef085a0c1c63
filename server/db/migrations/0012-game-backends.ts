import type { Kysely } from 'kysely';

/**
 * The backend origins a hosted game declares in its catalogue entry (a JSON array of origins): the
 * only places its frame may connect to besides its own origin (decision 089).
 */
export function gameBackends() {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable('apps')
        .addColumn('backend_origins', 'text', (c) => c.notNull().defaultTo('[]'))
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.alterTable('apps').dropColumn('backend_origins').execute();
    },
  };
}
