import type { Kysely } from 'kysely';

/**
 * A game's cover image, the wide picture a developer sets in the Studio beside the tile thumbnail
 * (decision 096); null for games without one (the import's entries have none).
 */
export function studioGames() {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('apps').addColumn('cover', 'text').execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.alterTable('apps').dropColumn('cover').execute();
    },
  };
}
