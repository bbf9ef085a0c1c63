import { type Kysely, sql } from 'kysely';
import type { DatabaseKind } from '../client.ts';

/**
 * Full-text search over the catalogue: one row per app and locale holding the token string of
 * server/features/catalogue/catalogue-search.ts, indexed by each database's own engine
 * (SQLite FTS5, PostgreSQL tsvector with GIN). The importer rewrites the rows. The former
 * `app_translations.search_text` column (read with LIKE) goes away.
 */
export function catalogueSearch(kind: DatabaseKind) {
  return {
    async up(db: Kysely<unknown>) {
      if (kind === 'sqlite') {
        // unicode61 keeps each CJK bigram and each word as one token; diacritics are removed before indexing.
        await sql`create virtual table app_search using fts5(tokens, app_id unindexed, locale unindexed, tokenize = 'unicode61 remove_diacritics 0')`.execute(
          db,
        );
      } else {
        await db.schema
          .createTable('app_search')
          .addColumn('app_id', 'integer', (c) => c.notNull().references('apps.id').onDelete('cascade'))
          .addColumn('locale', 'text', (c) => c.notNull())
          .addColumn('tokens', 'text', (c) => c.notNull())
          // 'simple' neither stems nor drops stop words: the tokens are indexed exactly as written.
          .addColumn('document', sql`tsvector`, (c) => c.generatedAlwaysAs(sql`to_tsvector('simple'::regconfig, tokens)`).stored())
          .addPrimaryKeyConstraint('app_search_pk', ['app_id', 'locale'])
          .execute();
        await sql`create index app_search_document_idx on app_search using gin (document)`.execute(db);
      }
      await db.schema.alterTable('app_translations').dropColumn('search_text').execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema
        .alterTable('app_translations')
        .addColumn('search_text', 'text', (c) => c.notNull().defaultTo(''))
        .execute();
      await db.schema.dropTable('app_search').ifExists().execute();
    },
  };
}
