import type { Kysely, Transaction } from 'kysely';
import type { Database } from '#server/db/schema.ts';
import type { Clock } from '#server/lib/clock.ts';

type Texts<T> = { en: T; 'zh-CN'?: Partial<T> | undefined };

export interface ImportedCategory {
  slug: string;
  icon?: string | undefined;
  sort: number;
  i18n: Texts<{ title: string; description?: string | undefined }>;
}
export interface ImportedTag {
  slug: string;
  i18n: Texts<{ title: string }>;
}
export interface ImportedApp {
  slug: string;
  type: 'game' | 'app';
  entryUrl: string;
  thumbnail: string;
  screenshots: string[];
  orientation: 'portrait' | 'landscape' | 'any';
  width: number;
  height: number;
  developer: string | null;
  featured: boolean;
  popularity: number;
  releasedAt: string;
  published: boolean;
  categories: string[];
  tags: string[];
  texts: Texts<{ title: string; summary: string; description: string; instructions?: string | undefined }>;
}

/** Writes an imported catalogue in one transaction: upsert by slug, translations and links replaced. */
export class CatalogueImportRepository {
  readonly #db: Kysely<Database>;
  readonly #clock: Clock;
  constructor(db: Kysely<Database>, clock: Clock) {
    this.#db = db;
    this.#clock = clock;
  }

  async replaceCatalogue(input: { categories: ImportedCategory[]; tags: ImportedTag[]; apps: ImportedApp[] }): Promise<void> {
    const now = this.#clock.now().toISOString();
    await this.#db.transaction().execute(async (trx) => {
      const categoryIds = new Map<string, number>();
      for (const c of input.categories) {
        const { id } = await trx
          .insertInto('categories')
          .values({ slug: c.slug, icon: c.icon ?? null, sort: c.sort, created_at: now, updated_at: now })
          .onConflict((oc) => oc.column('slug').doUpdateSet({ icon: c.icon ?? null, sort: c.sort, updated_at: now }))
          .returning('id')
          .executeTakeFirstOrThrow();
        categoryIds.set(c.slug, id);
        await trx.deleteFrom('category_translations').where('category_id', '=', id).execute();
        await trx.insertInto('category_translations').values(localeRows(c.i18n, (locale, t) => ({ category_id: id, locale, title: t.title, description: t.description ?? null }))).execute();
      }

      const tagIds = new Map<string, number>();
      const tagTitles = new Map<string, Texts<{ title: string }>>();
      for (const tag of input.tags) {
        const { id } = await trx
          .insertInto('tags')
          .values({ slug: tag.slug, created_at: now })
          .onConflict((oc) => oc.column('slug').doUpdateSet({ slug: tag.slug }))
          .returning('id')
          .executeTakeFirstOrThrow();
        tagIds.set(tag.slug, id);
        tagTitles.set(tag.slug, tag.i18n);
        await trx.deleteFrom('tag_translations').where('tag_id', '=', id).execute();
        await trx.insertInto('tag_translations').values(localeRows(tag.i18n, (locale, t) => ({ tag_id: id, locale, title: t.title }))).execute();
      }

      for (const app of input.apps) {
        const columns = {
          type: app.type,
          entry_url: app.entryUrl,
          thumbnail: app.thumbnail,
          screenshots: JSON.stringify(app.screenshots),
          orientation: app.orientation,
          width: app.width,
          height: app.height,
          developer: app.developer,
          featured: app.featured ? 1 : 0,
          released_at: app.releasedAt,
          published: app.published ? 1 : 0,
          updated_at: now,
        };
        // play_count is seeded once and then grows with real plays: an import never resets it.
        const { id } = await trx
          .insertInto('apps')
          .values({ slug: app.slug, ...columns, play_count: app.popularity, created_at: now })
          .onConflict((oc) => oc.column('slug').doUpdateSet(columns))
          .returning('id')
          .executeTakeFirstOrThrow();
        await trx.deleteFrom('app_translations').where('app_id', '=', id).execute();
        await trx
          .insertInto('app_translations')
          .values(
            localeRows(app.texts, (locale, t) => ({
              app_id: id,
              locale,
              title: t.title,
              summary: t.summary,
              description: t.description,
              instructions: t.instructions ?? null,
              search_text: searchText(locale, t, app.tags.map((slug) => tagTitles.get(slug))),
            })),
          )
          .execute();
        await replaceLinks(trx, 'app_categories', id, app.categories.map((s) => ({ app_id: id, category_id: categoryIds.get(s)! })));
        await replaceLinks(trx, 'app_tags', id, app.tags.map((s) => ({ app_id: id, tag_id: tagIds.get(s)! })));
      }
    });
  }
}

async function replaceLinks(trx: Transaction<Database>, table: 'app_categories' | 'app_tags', appId: number, rows: object[]) {
  await trx.deleteFrom(table as 'app_tags').where('app_id', '=', appId).execute();
  if (rows.length > 0) await trx.insertInto(table).values(rows as never).execute();
}

/** English row always; a zh-CN row with English filling the gaps of a partial translation. */
function localeRows<T extends object, R>(texts: Texts<T>, make: (locale: string, t: T) => R): R[] {
  const rows = [make('en', texts.en)];
  if (texts['zh-CN']) rows.push(make('zh-CN', { ...texts.en, ...stripUndefined(texts['zh-CN']) }));
  return rows;
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

function searchText(locale: string, t: { title: string; summary: string; description: string }, tags: Array<Texts<{ title: string }> | undefined>): string {
  const tagTitles = tags.flatMap((tag) => (tag ? [tag.en.title, locale === 'zh-CN' ? (tag['zh-CN']?.title ?? '') : ''] : []));
  return [t.title, t.summary, t.description, ...tagTitles].join(' \n').toLowerCase();
}
