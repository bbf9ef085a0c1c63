import type { Kysely } from 'kysely';

/**
 * Console follow-ups (decision 099): `apps.listing_source` says who last set a game's `published`
 * and `featured` (the content import, or an operator in the Console, whose choice the import then
 * keeps), and `pages.published_at` schedules a static page written in the Console (null: shown
 * as soon as it is saved, as imported pages are).
 */
export function consoleListingAndPageSchedule() {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable('apps')
        .addColumn('listing_source', 'text', (c) => c.notNull().defaultTo('import'))
        .execute();
      await db.schema.alterTable('pages').addColumn('published_at', 'text').execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.alterTable('pages').dropColumn('published_at').execute();
      await db.schema.alterTable('apps').dropColumn('listing_source').execute();
    },
  };
}
