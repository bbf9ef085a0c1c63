import { type Insertable, type Kysely, type Selectable, sql } from 'kysely';
import type { Locale } from '#common/locales.ts';
import type { Database, PagesTable } from '#server/db/schema.ts';
import { executorOf, type UnitOfWork } from '#server/db/unit-of-work.ts';

export type PageRow = Selectable<PagesTable>;
/** A page's texts in one locale, as the Console writes them. */
export type PageTexts = Omit<Selectable<PagesTable>, 'slug' | 'source'>;

/** A page as the import writes it. */
export type ImportedPageRow = Omit<Insertable<PagesTable>, 'body_markdown' | 'source' | 'published_at'>;

/** Reads and writes the static pages, one row per slug and locale. */
export class PagesRepository {
  readonly #db: Kysely<Database>;
  constructor(db: Kysely<Database>) {
    this.#db = db;
  }

  /** Replaces a page's texts in every locale with the Console's. */
  async writePage(slug: string, texts: PageTexts[], unit: UnitOfWork): Promise<void> {
    const db = executorOf(this.#db, unit);
    await db.deleteFrom('pages').where('slug', '=', slug).execute();
    await db
      .insertInto('pages')
      .values(texts.map((t) => ({ ...t, slug, source: 'console' as const })))
      .execute();
  }

  /** The page in `locale`, else its English version; a page scheduled after `now` is not there yet. */
  async find(slug: string, locale: Locale, now: string): Promise<PageRow | undefined> {
    return this.#db
      .selectFrom('pages')
      .selectAll()
      .where('slug', '=', slug)
      .where('locale', 'in', [locale, 'en'])
      .where((eb) => eb.or([eb('published_at', 'is', null), eb('published_at', '<=', now)]))
      .orderBy(sql`case when locale = ${locale} then 0 else 1 end`)
      .limit(1)
      .executeTakeFirst();
  }

  /** Each page readers can see at `now`, with its latest change. */
  async visible(now: string): Promise<Array<{ slug: string; updated_at: string }>> {
    return this.#db
      .selectFrom('pages')
      .select((eb) => ['slug', eb.fn.max('updated_at').as('updated_at')])
      .where((eb) => eb.or([eb('published_at', 'is', null), eb('published_at', '<=', now)]))
      .groupBy('slug')
      .orderBy('slug')
      .execute();
  }

  async count(): Promise<number> {
    const row = await this.#db
      .selectFrom('pages')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /**
   * Inserts or replaces pages by slug and locale, in one transaction. Other pages stay, and so do
   * pages an operator edited in the Console (decision 099): their slugs are returned.
   */
  async upsert(pages: ImportedPageRow[]): Promise<string[]> {
    if (pages.length === 0) return [];
    return this.#db.transaction().execute(async (trx) => {
      const edited = await trx.selectFrom('pages').select('slug').distinct().where('source', '=', 'console').execute();
      const kept = new Set(edited.map((row) => row.slug));
      for (const page of pages) {
        if (kept.has(page.slug)) continue;
        await trx
          .insertInto('pages')
          .values(page)
          .onConflict((oc) =>
            oc.columns(['slug', 'locale']).doUpdateSet({
              title: page.title,
              description: page.description,
              body_html: page.body_html,
              updated_at: page.updated_at,
            }),
          )
          .execute();
      }
      return [...kept].filter((slug) => pages.some((page) => page.slug === slug));
    });
  }
}
