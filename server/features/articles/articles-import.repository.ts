import type { Kysely, Transaction } from 'kysely';
import type { Database } from '#server/db/schema.ts';
import type { Clock } from '#server/lib/clock.ts';

export interface ImportedColumn {
  slug: string;
  parent: string | null;
  sort: number;
  cover: string | null;
  /** Texts by locale; English is always present. */
  texts: Record<string, { title: string; description: string | null }>;
}

export interface ImportedArticle {
  id: number;
  column: string;
  slug: string;
  cover: string | null;
  author: string | null;
  publishedAt: string;
  /** Texts by locale; English is always present. */
  texts: Record<string, { title: string; summary: string; bodyHtml: string; readingMinutes: number; tags: string[]; author: string | null }>;
}

export interface ArticlesImportResult {
  /** Articles that were new or whose content changed. */
  changed: number;
  /** Ids the import left alone because an operator wrote them in the Console (decision 099). */
  keptConsoleEdits: number[];
}

/**
 * Writes imported columns and articles in one transaction: upsert by slug (columns) and by id
 * (articles), translations replaced. Rows whose content is unchanged are left alone, so
 * importing twice writes nothing the second time and keeps `updated_at` meaningful.
 */
export class ArticlesImportRepository {
  readonly #db: Kysely<Database>;
  readonly #clock: Clock;
  constructor(db: Kysely<Database>, clock: Clock) {
    this.#db = db;
    this.#clock = clock;
  }

  async replaceArticles(input: { columns: ImportedColumn[]; articles: ImportedArticle[] }): Promise<ArticlesImportResult> {
    const now = this.#clock.now().toISOString();
    let changed = 0;
    const keptConsoleEdits: number[] = [];
    await this.#db.transaction().execute(async (trx) => {
      const columnIds = new Map<string, number>();
      // Parents first, so a sub-column can point at its parent's id.
      const ordered = [...input.columns].sort((a, b) => Number(a.parent !== null) - Number(b.parent !== null));
      for (const column of ordered) {
        const parentId = column.parent === null ? null : columnIds.get(column.parent)!;
        columnIds.set(column.slug, await upsertColumn(trx, column, parentId, now));
      }
      for (const article of input.articles) {
        const outcome = await upsertArticle(trx, article, columnIds.get(article.column)!, now);
        if (outcome === 'changed') changed += 1;
        if (outcome === 'kept') keptConsoleEdits.push(article.id);
      }
    });
    return { changed, keptConsoleEdits };
  }
}

async function upsertColumn(trx: Transaction<Database>, column: ImportedColumn, parentId: number | null, now: string): Promise<number> {
  const existing = await trx.selectFrom('article_columns').selectAll().where('slug', '=', column.slug).executeTakeFirst();
  const fields = { parent_id: parentId, sort: column.sort, cover: column.cover };
  let id: number;
  if (!existing) {
    ({ id } = await trx
      .insertInto('article_columns')
      .values({ slug: column.slug, ...fields, created_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow());
  } else {
    id = existing.id;
    if (existing.parent_id !== fields.parent_id || existing.sort !== fields.sort || existing.cover !== fields.cover) {
      await trx
        .updateTable('article_columns')
        .set({ ...fields, updated_at: now })
        .where('id', '=', id)
        .execute();
    }
  }
  const rows = Object.entries(column.texts).map(([locale, t]) => ({ column_id: id, locale, title: t.title, description: t.description }));
  const current = await trx.selectFrom('article_column_translations').selectAll().where('column_id', '=', id).execute();
  if (!sameRows(current, rows)) {
    await trx.deleteFrom('article_column_translations').where('column_id', '=', id).execute();
    await trx.insertInto('article_column_translations').values(rows).execute();
  }
  return id;
}

/** Writes one article; an article an operator wrote in the Console is kept as it is (decision 099). */
async function upsertArticle(trx: Transaction<Database>, article: ImportedArticle, columnId: number, now: string): Promise<'changed' | 'unchanged' | 'kept'> {
  const fields = { column_id: columnId, slug: article.slug, cover: article.cover, author: article.author, published_at: article.publishedAt };
  const rows = Object.entries(article.texts).map(([locale, t]) => ({
    article_id: article.id,
    locale,
    title: t.title,
    summary: t.summary,
    body_html: t.bodyHtml,
    reading_minutes: t.readingMinutes,
    tags: JSON.stringify(t.tags),
    author: t.author,
  }));
  const existing = await trx.selectFrom('articles').selectAll().where('id', '=', article.id).executeTakeFirst();
  if (existing?.source === 'console') return 'kept';
  if (existing) {
    const current = await trx.selectFrom('article_translations').selectAll().where('article_id', '=', article.id).execute();
    const sameFields = (Object.keys(fields) as Array<keyof typeof fields>).every((key) => existing[key] === fields[key]);
    if (
      sameFields &&
      sameRows(
        current.map(({ body_markdown: _markdown, ...row }) => row),
        rows,
      )
    )
      return 'unchanged';
    await trx
      .updateTable('articles')
      .set({ ...fields, updated_at: now })
      .where('id', '=', article.id)
      .execute();
  } else {
    await trx
      .insertInto('articles')
      .values({ id: article.id, ...fields, created_at: now, updated_at: now })
      .execute();
  }
  await trx.deleteFrom('article_translations').where('article_id', '=', article.id).execute();
  await trx.insertInto('article_translations').values(rows).execute();
  return 'changed';
}

/** Whether two sets of translation rows hold the same values (order of rows and keys ignored). */
function sameRows(current: object[], next: object[]): boolean {
  const a = current.map(rowKey).sort();
  const b = next.map(rowKey).sort();
  return a.length === b.length && a.every((value, i) => value === b[i]);
}

function rowKey(row: object): string {
  return JSON.stringify(Object.entries(row).sort(([a], [b]) => a.localeCompare(b)));
}
