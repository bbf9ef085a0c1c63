import { type Kysely, sql } from 'kysely';
import type { AppListQuery } from '#common/api/catalogue.schema.ts';
import type { Locale } from '#common/locales.ts';
import type { Database } from '#server/db/schema.ts';
import type { Cursor } from '#server/lib/cursor.ts';

export interface AppSummaryRow {
  id: number;
  slug: string;
  type: 'game' | 'app';
  title: string;
  summary: string;
  thumbnail: string;
  width: number;
  height: number;
  orientation: 'portrait' | 'landscape' | 'any';
  featured: number;
  play_count: number;
  released_at: string;
}

/** Reads and writes apps, categories and tags. Localised fields fall back to English. */
export class CatalogueRepository {
  readonly #db: Kysely<Database>;
  constructor(db: Kysely<Database>) {
    this.#db = db;
  }

  /** Apps with their texts in `locale` (English where missing), ordered for keyset pagination. */
  async listApps(locale: Locale, query: AppListQuery, cursor: Cursor | null): Promise<AppSummaryRow[]> {
    const title = sql<string>`coalesce(t.title, en.title)`;
    let q = this.#db
      .selectFrom('apps as a')
      .innerJoin('app_translations as en', (j) => j.onRef('en.app_id', '=', 'a.id').on('en.locale', '=', 'en'))
      .leftJoin('app_translations as t', (j) => j.onRef('t.app_id', '=', 'a.id').on('t.locale', '=', locale))
      .select([
        'a.id', 'a.slug', 'a.type', 'a.thumbnail', 'a.width', 'a.height', 'a.orientation', 'a.featured', 'a.play_count', 'a.released_at',
        title.as('title'),
        sql<string>`coalesce(t.summary, en.summary)`.as('summary'),
      ])
      .where('a.published', '=', 1);
    if (query.type) q = q.where('a.type', '=', query.type);
    if (query.featured) q = q.where('a.featured', '=', 1);
    if (query.category) {
      q = q.where('a.id', 'in', (eb) =>
        eb.selectFrom('app_categories as ac').innerJoin('categories as c', 'c.id', 'ac.category_id').select('ac.app_id').where('c.slug', '=', query.category!),
      );
    }
    if (query.tag) {
      q = q.where('a.id', 'in', (eb) =>
        eb.selectFrom('app_tags as at').innerJoin('tags as g', 'g.id', 'at.tag_id').select('at.app_id').where('g.slug', '=', query.tag!),
      );
    }
    if (query.q) {
      const needle = `%${escapeLike(query.q.toLowerCase())}%`;
      q = q.where('a.id', 'in', (eb) =>
        eb.selectFrom('app_translations as s').select('s.app_id').where(sql<boolean>`s.search_text like ${needle} escape '\\'`),
      );
    }
    switch (query.sort) {
      case 'newest':
        if (cursor) q = q.where((eb) => eb.or([eb('a.released_at', '<', String(cursor.v)), eb.and([eb('a.released_at', '=', String(cursor.v)), eb('a.id', '<', cursor.id)])]));
        q = q.orderBy('a.released_at', 'desc').orderBy('a.id', 'desc');
        break;
      case 'name':
        if (cursor) q = q.where((eb) => eb.or([eb(title, '>', String(cursor.v)), eb.and([eb(title, '=', String(cursor.v)), eb('a.id', '>', cursor.id)])]));
        q = q.orderBy(title, 'asc').orderBy('a.id', 'asc');
        break;
      default:
        if (cursor) q = q.where((eb) => eb.or([eb('a.play_count', '<', Number(cursor.v)), eb.and([eb('a.play_count', '=', Number(cursor.v)), eb('a.id', '<', cursor.id)])]));
        q = q.orderBy('a.play_count', 'desc').orderBy('a.id', 'desc');
    }
    return q.limit(query.limit + 1).execute();
  }
}

function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}
