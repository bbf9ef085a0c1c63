import type { Kysely } from 'kysely';
import type { Database } from '#server/db/schema.ts';

export interface SitemapEntryRow {
  slug: string;
  updated_at: string;
}

/**
 * Read-only look-ups of the catalogue's public slugs for the sitemap. The sitemap spans every
 * feature's pages; reading two columns here keeps the catalogue's code untouched.
 */
export class SitemapRepository {
  readonly #db: Kysely<Database>;
  constructor(db: Kysely<Database>) {
    this.#db = db;
  }

  async publishedApps(): Promise<SitemapEntryRow[]> {
    return this.#db.selectFrom('apps').select(['slug', 'updated_at']).where('published', '=', 1).orderBy('slug').execute();
  }

  async categories(): Promise<SitemapEntryRow[]> {
    return this.#db.selectFrom('categories').select(['slug', 'updated_at']).orderBy('sort').orderBy('slug').execute();
  }
}
