import { type Kysely, type Selectable, sql } from 'kysely';
import type { Locale } from '#common/locales.ts';
import type { ArticleTranslationsTable, Database } from '#server/db/schema.ts';
import { executorOf, type UnitOfWork } from '#server/db/unit-of-work.ts';
import { keysetPage } from '#server/db/keyset.ts';
import type { Cursor } from '#server/lib/cursor.ts';

export interface ColumnRow {
  id: number;
  slug: string;
  parent_id: number | null;
  sort: number;
  cover: string | null;
  title: string;
  description: string | null;
}

export interface ArticleSummaryRow {
  id: number;
  slug: string;
  column_id: number;
  cover: string | null;
  author: string | null;
  published_at: string;
  updated_at: string;
  title: string;
  summary: string;
  reading_minutes: number;
  /** JSON array of tag slugs. */
  tags: string;
}

export interface ArticleRow extends ArticleSummaryRow {
  body_html: string;
  /** The locale of the texts: the requested one, or English when there is no translation. */
  text_locale: string;
}

/** An article as the Console's editor writes it (decision 099). */
export interface ArticleWrite {
  columnId: number;
  slug: string;
  cover: string | null;
  author: string | null;
  publishedAt: string;
  texts: Array<Omit<Selectable<ArticleTranslationsTable>, 'article_id'>>;
}

/**
 * Reads columns and articles. Texts are in the requested locale, falling back to English; every
 * article read takes `now` and leaves out articles published after it (scheduled ones).
 */
export class ArticlesRepository {
  readonly #db: Kysely<Database>;
  constructor(db: Kysely<Database>) {
    this.#db = db;
  }

  /** The next free article id: imported articles bring their own ids, new ones follow the highest. */
  async nextArticleId(unit: UnitOfWork): Promise<number> {
    const db = executorOf(this.#db, unit);
    const row = await db
      .selectFrom('articles')
      .select((eb) => eb.fn.max('id').as('max'))
      .executeTakeFirst();
    return Number(row?.max ?? 0) + 1;
  }

  /** Writes an article and replaces its translations; marks it as the Console's. */
  async writeArticle(id: number, article: ArticleWrite, now: string, unit: UnitOfWork, create: boolean): Promise<void> {
    const db = executorOf(this.#db, unit);
    const fields = {
      column_id: article.columnId,
      slug: article.slug,
      cover: article.cover,
      author: article.author,
      published_at: article.publishedAt,
      source: 'console' as const,
    };
    if (create)
      await db
        .insertInto('articles')
        .values({ id, ...fields, created_at: now, updated_at: now })
        .execute();
    else
      await db
        .updateTable('articles')
        .set({ ...fields, updated_at: now })
        .where('id', '=', id)
        .execute();
    await db.deleteFrom('article_translations').where('article_id', '=', id).execute();
    await db
      .insertInto('article_translations')
      .values(article.texts.map((t) => ({ ...t, article_id: id })))
      .execute();
  }

  /** Every column with its texts: there are few, and the service builds the tree from them. */
  async listColumns(locale: Locale): Promise<ColumnRow[]> {
    return this.#db
      .selectFrom('article_columns as c')
      .innerJoin('article_column_translations as en', (j) => j.onRef('en.column_id', '=', 'c.id').on('en.locale', '=', 'en'))
      .leftJoin('article_column_translations as t', (j) => j.onRef('t.column_id', '=', 'c.id').on('t.locale', '=', locale))
      .select([
        'c.id',
        'c.slug',
        'c.parent_id',
        'c.sort',
        'c.cover',
        sql<string>`coalesce(t.title, en.title)`.as('title'),
        sql<string | null>`coalesce(t.description, en.description)`.as('description'),
      ])
      .orderBy('c.sort')
      .orderBy('c.slug')
      .execute();
  }

  /** Newest first within the given columns, keyset-paged on (published_at, id); one extra row tells whether more follow. */
  async listArticles(locale: Locale, columnIds: number[], now: string, cursor: Cursor | null, limit: number): Promise<ArticleSummaryRow[]> {
    const q = this.#summaries(locale).where('a.column_id', 'in', columnIds).where('a.published_at', '<=', now);
    const after = cursor ? { value: String(cursor.v), id: cursor.id } : null;
    return keysetPage(q, { sort: 'a.published_at', id: 'a.id', direction: 'desc' }, after)
      .limit(limit + 1)
      .execute();
  }

  async findArticle(locale: Locale, id: number, now: string): Promise<ArticleRow | undefined> {
    // The summary query plus the body and the locale the texts came from.
    return this.#summaries(locale)
      .select([sql<string>`coalesce(t.body_html, en.body_html)`.as('body_html'), sql<string>`coalesce(t.locale, en.locale)`.as('text_locale')])
      .where('a.id', '=', id)
      .where('a.published_at', '<=', now)
      .executeTakeFirst();
  }

  /** The published neighbours of an article within its column: the next older and the next newer one. */
  async neighbours(locale: Locale, article: { id: number; column_id: number; published_at: string }, now: string) {
    const base = () => this.#summaries(locale).where('a.column_id', '=', article.column_id).where('a.published_at', '<=', now);
    const [previous, next] = await Promise.all([
      base()
        .where((eb) =>
          eb.or([eb('a.published_at', '<', article.published_at), eb.and([eb('a.published_at', '=', article.published_at), eb('a.id', '<', article.id)])]),
        )
        .orderBy('a.published_at', 'desc')
        .orderBy('a.id', 'desc')
        .limit(1)
        .executeTakeFirst(),
      base()
        .where((eb) =>
          eb.or([eb('a.published_at', '>', article.published_at), eb.and([eb('a.published_at', '=', article.published_at), eb('a.id', '>', article.id)])]),
        )
        .orderBy('a.published_at', 'asc')
        .orderBy('a.id', 'asc')
        .limit(1)
        .executeTakeFirst(),
    ]);
    return { previous, next };
  }

  /** The most recent published articles other than one: the pool related articles are chosen from. */
  async recentArticles(locale: Locale, now: string, excludeId: number, limit: number): Promise<ArticleSummaryRow[]> {
    return this.#summaries(locale)
      .where('a.published_at', '<=', now)
      .where('a.id', '!=', excludeId)
      .orderBy('a.published_at', 'desc')
      .orderBy('a.id', 'desc')
      .limit(limit)
      .execute();
  }

  /** Newest published articles of the given columns with their bodies, for feeds. */
  async latestWithBodies(locale: Locale, columnIds: number[], now: string, limit: number): Promise<Array<ArticleSummaryRow & { body_html: string }>> {
    return this.#summaries(locale)
      .select(sql<string>`coalesce(t.body_html, en.body_html)`.as('body_html'))
      .where('a.column_id', 'in', columnIds)
      .where('a.published_at', '<=', now)
      .orderBy('a.published_at', 'desc')
      .orderBy('a.id', 'desc')
      .limit(limit)
      .execute();
  }

  /** Every published article's id, column and times, for the sitemap. */
  async publishedIndex(now: string): Promise<Array<{ id: number; column_id: number; updated_at: string }>> {
    return this.#db
      .selectFrom('articles')
      .select(['id', 'column_id', 'updated_at'])
      .where('published_at', '<=', now)
      .orderBy('published_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
  }

  #summaries(locale: Locale) {
    return this.#db
      .selectFrom('articles as a')
      .innerJoin('article_translations as en', (j) => j.onRef('en.article_id', '=', 'a.id').on('en.locale', '=', 'en'))
      .leftJoin('article_translations as t', (j) => j.onRef('t.article_id', '=', 'a.id').on('t.locale', '=', locale))
      .select([
        'a.id',
        'a.slug',
        'a.column_id',
        'a.cover',
        'a.published_at',
        'a.updated_at',
        sql<string | null>`coalesce(t.author, en.author, a.author)`.as('author'),
        sql<string>`coalesce(t.title, en.title)`.as('title'),
        sql<string>`coalesce(t.summary, en.summary)`.as('summary'),
        sql<number>`coalesce(t.reading_minutes, en.reading_minutes)`.as('reading_minutes'),
        sql<string>`coalesce(t.tags, en.tags)`.as('tags'),
      ]);
  }
}
