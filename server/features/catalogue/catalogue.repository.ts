import { type Kysely, type RawBuilder, type SqlBool, sql } from 'kysely';
import type { AppListQuery, AppSort } from '#common/api/catalogue.schema.ts';
import type { Locale } from '#common/locales.ts';
import type { DatabaseKind } from '#server/db/client.ts';
import type { Database } from '#server/db/schema.ts';
import { type KeysetOrder, keysetPage } from '#server/db/keyset.ts';
import type { Cursor } from '#server/lib/cursor.ts';
import { fts5Expression, type SearchTerm, tsQueryExpression } from './catalogue-search.ts';

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
  /** The value the list is ordered by, for the next page's cursor. */
  sort_key: string | number;
}

export interface AppDetailRow extends Omit<AppSummaryRow, 'sort_key'> {
  description: string;
  instructions: string | null;
  developer: string | null;
  /** The member whose studio made it, for a game shipped through the Studio (decision 095). */
  developer_user_id: number | null;
  screenshots: string;
  entry_url: string;
  /** The live build of a developer's game (decision 097). */
  live_build_id: number | null;
  updated_at: string;
}

export interface TermRow {
  kind: 'category' | 'tag';
  slug: string;
  title: string;
}

export interface CategoryRow {
  slug: string;
  title: string;
  description: string | null;
  icon: string | null;
  count: number;
}

/** The filters of a list, with the search text already split into terms. */
export type AppFilter = Omit<AppListQuery, 'q' | 'limit' | 'cursor'> & { terms?: SearchTerm[] | undefined };

/**
 * Published apps with their texts in `locale`, English where that locale has none: the base of
 * every list of tiles. Other catalogue repositories join their own tables onto it.
 */
export function appSummaries(db: Kysely<Database>, locale: Locale) {
  return db
    .selectFrom('apps as a')
    .innerJoin('app_translations as en', (j) => j.onRef('en.app_id', '=', 'a.id').on('en.locale', '=', 'en'))
    .leftJoin('app_translations as t', (j) => j.onRef('t.app_id', '=', 'a.id').on('t.locale', '=', locale))
    .select([
      'a.id',
      'a.slug',
      'a.type',
      'a.thumbnail',
      'a.width',
      'a.height',
      'a.orientation',
      'a.featured',
      'a.play_count',
      'a.released_at',
      sql<string>`coalesce(t.title, en.title)`.as('title'),
      sql<string>`coalesce(t.summary, en.summary)`.as('summary'),
    ])
    .where('a.published', '=', 1);
}

/** Reads apps, categories and tags. Localised fields fall back to English. */
export class CatalogueRepository {
  readonly #db: Kysely<Database>;
  readonly #kind: DatabaseKind;
  constructor(db: Kysely<Database>, kind: DatabaseKind) {
    this.#db = db;
    this.#kind = kind;
  }

  /** One page of apps (plus one row, to tell whether more follow), ordered for keyset pagination. */
  async listApps(locale: Locale, filter: AppFilter, limit: number, cursor: Cursor | null): Promise<AppSummaryRow[]> {
    const title = sql<string>`lower(coalesce(t.title, en.title))`;
    const sortKey: Record<AppSort, RawBuilder<string | number>> = {
      popular: sql<number>`a.play_count`,
      newest: sql<string>`a.released_at`,
      name: title,
    };
    let q = appSummaries(this.#db, locale).select(sortKey[filter.sort].as('sort_key'));
    if (filter.type) q = q.where('a.type', '=', filter.type);
    if (filter.featured) q = q.where('a.featured', '=', 1);
    if (filter.category) {
      q = q.where('a.id', 'in', (eb) =>
        eb.selectFrom('app_categories as ac').innerJoin('categories as c', 'c.id', 'ac.category_id').select('ac.app_id').where('c.slug', '=', filter.category!),
      );
    }
    if (filter.tag) {
      q = q.where('a.id', 'in', (eb) =>
        eb.selectFrom('app_tags as at').innerJoin('tags as g', 'g.id', 'at.tag_id').select('at.app_id').where('g.slug', '=', filter.tag!),
      );
    }
    if (filter.terms) {
      const match = this.#searchCondition(filter.terms);
      q = q.where('a.id', 'in', (eb) => eb.selectFrom('app_search').select('app_search.app_id').where(match));
    }
    const order: KeysetOrder =
      filter.sort === 'newest'
        ? { sort: 'a.released_at', id: 'a.id', direction: 'desc' }
        : filter.sort === 'name'
          ? { sort: title, id: 'a.id', direction: 'asc' }
          : { sort: 'a.play_count', id: 'a.id', direction: 'desc' };
    // The cursor's value is coerced to the column's type: a cursor is client input.
    const after = cursor ? { value: filter.sort === 'popular' ? Number(cursor.v) : String(cursor.v), id: cursor.id } : null;
    return keysetPage(q, order, after)
      .limit(limit + 1)
      .execute();
  }

  /**
   * The one search interface over both engines: apps with a translation (any locale) whose
   * tokens contain every term. SQLite asks its FTS5 table; PostgreSQL its tsvector GIN index.
   */
  #searchCondition(terms: SearchTerm[]) {
    return this.#kind === 'sqlite'
      ? sql<SqlBool>`app_search match ${fts5Expression(terms)}`
      : sql<SqlBool>`app_search.document @@ to_tsquery('simple'::regconfig, ${tsQueryExpression(terms)})`;
  }

  /** A published game hosted here (its files under /games/<slug>/), with the backends it declared. */
  async findHostedGame(
    slug: string,
  ): Promise<{ id: number; slug: string; entry_url: string; backend_origins: string; live_build_id: number | null } | undefined> {
    return this.#db
      .selectFrom('apps')
      .select(['id', 'slug', 'entry_url', 'backend_origins', 'live_build_id'])
      .where('slug', '=', slug)
      .where('published', '=', 1)
      .where('entry_url', 'like', '/games/%')
      .executeTakeFirst();
  }

  async findApp(locale: Locale, by: { slug: string } | { id: number }): Promise<AppDetailRow | undefined> {
    let q = appSummaries(this.#db, locale).select([
      'a.developer',
      'a.developer_user_id',
      'a.screenshots',
      'a.entry_url',
      'a.live_build_id',
      'a.updated_at',
      sql<string>`coalesce(t.description, en.description)`.as('description'),
      sql<string | null>`coalesce(t.instructions, en.instructions)`.as('instructions'),
    ]);
    q = 'slug' in by ? q.where('a.slug', '=', by.slug) : q.where('a.id', '=', by.id);
    return q.executeTakeFirst();
  }

  /** The categories and tags of an app, in their display order. */
  async appTerms(locale: Locale, appId: number): Promise<TermRow[]> {
    const categories = this.#db
      .selectFrom('app_categories as ac')
      .innerJoin('categories as c', 'c.id', 'ac.category_id')
      .innerJoin('category_translations as en', (j) => j.onRef('en.category_id', '=', 'c.id').on('en.locale', '=', 'en'))
      .leftJoin('category_translations as t', (j) => j.onRef('t.category_id', '=', 'c.id').on('t.locale', '=', locale))
      .select([sql<'category'>`'category'`.as('kind'), 'c.slug', sql<string>`coalesce(t.title, en.title)`.as('title'), 'c.sort as position'])
      .where('ac.app_id', '=', appId);
    const tags = this.#db
      .selectFrom('app_tags as at')
      .innerJoin('tags as g', 'g.id', 'at.tag_id')
      .innerJoin('tag_translations as en', (j) => j.onRef('en.tag_id', '=', 'g.id').on('en.locale', '=', 'en'))
      .leftJoin('tag_translations as t', (j) => j.onRef('t.tag_id', '=', 'g.id').on('t.locale', '=', locale))
      .select([sql<'tag'>`'tag'`.as('kind'), 'g.slug', sql<string>`coalesce(t.title, en.title)`.as('title'), 'g.id as position'])
      .where('at.app_id', '=', appId);
    const rows = await categories
      .unionAll(tags as never)
      .orderBy('kind')
      .orderBy('position')
      .execute();
    return rows.map(({ kind, slug, title }) => ({ kind, slug, title }));
  }

  /** Apps that share categories (weighing more) or tags with one app, closest and then most played first. */
  async similarApps(locale: Locale, appId: number, limit: number): Promise<AppSummaryRow[]> {
    const sharedCategories = sql<number>`(select count(*) from app_categories x where x.app_id = a.id and x.category_id in (select category_id from app_categories where app_id = ${appId}))`;
    const sharedTags = sql<number>`(select count(*) from app_tags x where x.app_id = a.id and x.tag_id in (select tag_id from app_tags where app_id = ${appId}))`;
    const score = sql<number>`(2 * ${sharedCategories} + ${sharedTags})`;
    const rows = await appSummaries(this.#db, locale)
      .select(score.as('sort_key'))
      .where('a.id', '!=', appId)
      .where(score, '>', 0)
      .orderBy(score, 'desc')
      .orderBy('a.play_count', 'desc')
      .orderBy('a.id', 'desc')
      .limit(limit)
      .execute();
    return rows;
  }

  /** Every tag with the number of published apps (of one type, if given) carrying it, most used first. */
  async listTags(locale: Locale, type?: 'game' | 'app'): Promise<Array<{ slug: string; title: string; count: number }>> {
    const count = sql<number>`(select count(*) from app_tags x inner join apps a on a.id = x.app_id where x.tag_id = g.id and a.published = 1 ${type ? sql`and a.type = ${type}` : sql``})`;
    const title = sql<string>`coalesce(t.title, en.title)`;
    return this.#db
      .selectFrom('tags as g')
      .innerJoin('tag_translations as en', (j) => j.onRef('en.tag_id', '=', 'g.id').on('en.locale', '=', 'en'))
      .leftJoin('tag_translations as t', (j) => j.onRef('t.tag_id', '=', 'g.id').on('t.locale', '=', locale))
      .select(['g.slug', title.as('title'), count.as('count')])
      .orderBy(count, 'desc')
      .orderBy('g.slug')
      .execute();
  }

  /** Categories in their configured order with the number of published apps in each; one category when `slug` is given. */
  async listCategories(locale: Locale, slug?: string): Promise<CategoryRow[]> {
    let q = this.#db
      .selectFrom('categories as c')
      .innerJoin('category_translations as en', (j) => j.onRef('en.category_id', '=', 'c.id').on('en.locale', '=', 'en'))
      .leftJoin('category_translations as t', (j) => j.onRef('t.category_id', '=', 'c.id').on('t.locale', '=', locale))
      .select([
        'c.slug',
        'c.icon',
        sql<string>`coalesce(t.title, en.title)`.as('title'),
        sql<string | null>`coalesce(t.description, en.description)`.as('description'),
        sql<number>`(select count(*) from app_categories x inner join apps a on a.id = x.app_id where x.category_id = c.id and a.published = 1)`.as('count'),
      ])
      .orderBy('c.sort')
      .orderBy('c.id');
    if (slug !== undefined) q = q.where('c.slug', '=', slug);
    return q.execute();
  }

  async tagExists(slug: string): Promise<boolean> {
    return (await this.#db.selectFrom('tags').select('id').where('slug', '=', slug).executeTakeFirst()) !== undefined;
  }
}
