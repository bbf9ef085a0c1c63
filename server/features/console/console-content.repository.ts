import type { Locale } from '#common/locales.ts';
import { type Kysely, type Selectable, sql } from 'kysely';
import type { ArticleTranslationsTable, Database, PagesTable } from '#server/db/schema.ts';
import { executorOf, inUnitOfWork, type UnitOfWork } from '#server/db/unit-of-work.ts';
import { isUniqueViolation } from '#server/db/unique-violation.ts';

export type ArticleTextRow = Selectable<ArticleTranslationsTable>;
export type PageTextRow = Selectable<PagesTable>;

export interface ConsoleArticleRow {
  id: number;
  column_slug: string;
  slug: string;
  cover: string | null;
  author: string | null;
  published_at: string;
  source: 'import' | 'console';
  updated_at: string;
}

/** Articles and static pages as the Console reads and writes them, scheduled ones included (decision 099). */
export class ConsoleContentRepository {
  readonly #db: Kysely<Database>;
  constructor(db: Kysely<Database>) {
    this.#db = db;
  }

  /**
   * Runs `work` in one transaction. Two new articles saved at once may take the same next id (on
   * PostgreSQL): the one that loses runs again once, reading the id anew.
   */
  async transaction<T>(work: (unit: UnitOfWork) => Promise<T>): Promise<T> {
    try {
      return await inUnitOfWork(this.#db, work);
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      return inUnitOfWork(this.#db, work);
    }
  }

  /** The columns, titled in `locale` where they have a title in it (English otherwise). */
  async columns(locale: Locale = 'en'): Promise<Array<{ id: number; slug: string; parent_id: number | null; title: string }>> {
    return this.#db
      .selectFrom('article_columns as c')
      .innerJoin('article_column_translations as en', (j) => j.onRef('en.column_id', '=', 'c.id').on('en.locale', '=', 'en'))
      .leftJoin('article_column_translations as local', (j) => j.onRef('local.column_id', '=', 'c.id').on('local.locale', '=', locale))
      .select(['c.id', 'c.slug', 'c.parent_id'])
      .select((eb) => eb.fn.coalesce('local.title', 'en.title').as('title'))
      .orderBy('c.sort')
      .orderBy('c.slug')
      .execute();
  }

  /** Newest publish time first (scheduled ones on top), titled in `locale` where it has one, optionally by a substring of either title. */
  async listArticles(q: string | undefined, limit: number, locale: Locale = 'en') {
    let query = this.#db
      .selectFrom('articles as a')
      .innerJoin('article_columns as c', 'c.id', 'a.column_id')
      .innerJoin('article_translations as en', (j) => j.onRef('en.article_id', '=', 'a.id').on('en.locale', '=', 'en'))
      .leftJoin('article_translations as zh', (j) => j.onRef('zh.article_id', '=', 'a.id').on('zh.locale', '=', 'zh-CN'))
      .leftJoin('article_translations as local', (j) => j.onRef('local.article_id', '=', 'a.id').on('local.locale', '=', locale))
      .select(['a.id', 'c.slug as column_slug', 'a.published_at', 'a.source', 'a.updated_at', 'zh.locale as zh_locale'])
      .select((eb) => eb.fn.coalesce('local.title', 'en.title').as('title'));
    if (q) {
      const pattern = `%${q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      query = query.where(sql<boolean>`(lower(en.title) like ${pattern} escape '\\' or lower(local.title) like ${pattern} escape '\\')`);
    }
    return query.orderBy('a.published_at', 'desc').orderBy('a.id', 'desc').limit(limit).execute();
  }

  async findArticle(id: number, unit?: UnitOfWork): Promise<{ article: ConsoleArticleRow; texts: ArticleTextRow[] } | undefined> {
    const db = executorOf(this.#db, unit);
    const article = await db
      .selectFrom('articles as a')
      .innerJoin('article_columns as c', 'c.id', 'a.column_id')
      .select(['a.id', 'c.slug as column_slug', 'a.slug', 'a.cover', 'a.author', 'a.published_at', 'a.source', 'a.updated_at'])
      .where('a.id', '=', id)
      .executeTakeFirst();
    if (!article) return undefined;
    const texts = await db.selectFrom('article_translations').selectAll().where('article_id', '=', id).execute();
    return { article, texts };
  }

  async listPages(): Promise<PageTextRow[]> {
    return this.#db.selectFrom('pages').selectAll().orderBy('slug').orderBy('locale').execute();
  }

  async findPage(slug: string, unit?: UnitOfWork): Promise<PageTextRow[]> {
    const db = executorOf(this.#db, unit);
    return db.selectFrom('pages').selectAll().where('slug', '=', slug).orderBy('locale').execute();
  }
}
