import type { DeclaredAchievement, DeclaredBoard } from '#common/api/game-records.schema.ts';
import type { Kysely, Transaction } from 'kysely';
import { replaceAppItems } from './app-items.repository.ts';
import type { Database, ItemKind } from '#server/db/schema.ts';
import type { Clock } from '#server/lib/clock.ts';
import { searchTokens } from './catalogue-search.ts';

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
  /** Origins a hosted game may connect to besides its own (decision 089). */
  backendOrigins: string[];
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
  /** What the app sells (decision 064): prices in minor units. */
  items: { sku: string; price: number; currency: string; kind: ItemKind; names: Texts<{ name: string }> }[];
  /** Leaderboards and achievements (decision 092), stored as declared. */
  leaderboards: DeclaredBoard[];
  achievements: DeclaredAchievement[];
}

/** Rows inserted per statement when rewriting the search index (well under either database's parameter limit). */
const SEARCH_CHUNK = 200;

/**
 * Writes an imported catalogue in one transaction: upsert by slug, translations and links
 * replaced, then the search index rebuilt. Nothing is deleted: an import adds and changes.
 */
export class CatalogueImportRepository {
  readonly #db: Kysely<Database>;
  readonly #clock: Clock;
  constructor(db: Kysely<Database>, clock: Clock) {
    this.#db = db;
    this.#clock = clock;
  }

  /** Slugs already in the database, so that an import folder may refer to them without repeating them. */
  async existingSlugs(): Promise<{ categories: Set<string>; tags: Set<string> }> {
    const [categories, tags] = await Promise.all([
      this.#db.selectFrom('categories').select('slug').execute(),
      this.#db.selectFrom('tags').select('slug').execute(),
    ]);
    return { categories: new Set(categories.map((r) => r.slug)), tags: new Set(tags.map((r) => r.slug)) };
  }

  /**
   * Writes the catalogue; answers the slugs of imported apps whose `published` and `featured` an
   * operator set in the Console (decision 099): those two flags are left as the operator set them.
   */
  async replaceCatalogue(input: { categories: ImportedCategory[]; tags: ImportedTag[]; apps: ImportedApp[] }): Promise<string[]> {
    const now = this.#clock.now().toISOString();
    return this.#db.transaction().execute(async (trx) => {
      for (const c of input.categories) {
        const { id } = await trx
          .insertInto('categories')
          .values({ slug: c.slug, icon: c.icon ?? null, sort: c.sort, created_at: now, updated_at: now })
          .onConflict((oc) => oc.column('slug').doUpdateSet({ icon: c.icon ?? null, sort: c.sort, updated_at: now }))
          .returning('id')
          .executeTakeFirstOrThrow();
        await trx.deleteFrom('category_translations').where('category_id', '=', id).execute();
        await trx
          .insertInto('category_translations')
          .values(localeRows(c.i18n, (locale, t) => ({ category_id: id, locale, title: t.title, description: t.description ?? null })))
          .execute();
      }

      for (const tag of input.tags) {
        const { id } = await trx
          .insertInto('tags')
          .values({ slug: tag.slug, created_at: now })
          .onConflict((oc) => oc.column('slug').doUpdateSet({ slug: tag.slug }))
          .returning('id')
          .executeTakeFirstOrThrow();
        await trx.deleteFrom('tag_translations').where('tag_id', '=', id).execute();
        await trx
          .insertInto('tag_translations')
          .values(localeRows(tag.i18n, (locale, t) => ({ tag_id: id, locale, title: t.title })))
          .execute();
      }

      // Apps may name categories and tags of this import or of earlier ones.
      const categoryIds = new Map((await trx.selectFrom('categories').select(['id', 'slug']).execute()).map((r) => [r.slug, r.id]));
      const tagIds = new Map((await trx.selectFrom('tags').select(['id', 'slug']).execute()).map((r) => [r.slug, r.id]));
      const slugs = input.apps.map((app) => app.slug);
      const setInConsole = new Set(
        slugs.length === 0
          ? []
          : (await trx.selectFrom('apps').select('slug').where('listing_source', '=', 'console').where('slug', 'in', slugs).execute()).map((r) => r.slug),
      );

      for (const app of input.apps) {
        const columns = {
          type: app.type,
          entry_url: app.entryUrl,
          backend_origins: JSON.stringify(app.backendOrigins),
          leaderboards: JSON.stringify(app.leaderboards),
          achievements: JSON.stringify(app.achievements),
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
        // An operator's unpublish or feature in the Console outlives the import (decision 099).
        const { published: _published, featured: _featured, ...unlisted } = columns;
        // play_count is seeded once and then grows with real plays: an import never resets it.
        const { id } = await trx
          .insertInto('apps')
          .values({ slug: app.slug, ...columns, play_count: app.popularity, created_at: now })
          .onConflict((oc) => oc.column('slug').doUpdateSet(setInConsole.has(app.slug) ? unlisted : columns))
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
            })),
          )
          .execute();
        await replaceLinks(
          trx,
          'app_categories',
          id,
          app.categories.map((s) => ({ app_id: id, category_id: categoryIds.get(s)! })),
        );
        await replaceLinks(
          trx,
          'app_tags',
          id,
          app.tags.map((s) => ({ app_id: id, tag_id: tagIds.get(s)! })),
        );
        await replaceAppItems(
          trx,
          id,
          app.items.map((item) => ({ ...item, names: Object.fromEntries(Object.entries(item.names).map(([locale, t]) => [locale, t?.name])) })),
          now,
        );
      }

      await rebuildSearchIndex(trx);
      return slugs.filter((slug) => setInConsole.has(slug));
    });
  }
}

/**
 * Rewrites every app's search tokens from its texts and its tags' titles, per locale. The whole
 * index is rebuilt because a changed tag title changes the tokens of apps outside this import.
 */
async function rebuildSearchIndex(trx: Transaction<Database>): Promise<void> {
  const texts = await trx
    .selectFrom('app_translations')
    .select(['app_id', 'locale', 'title', 'summary', 'description'])
    .orderBy('app_id')
    .orderBy('locale')
    .execute();
  const tagTexts = await trx
    .selectFrom('app_tags as at')
    .innerJoin('tag_translations as tt', 'tt.tag_id', 'at.tag_id')
    .select(['at.app_id', 'at.tag_id', 'tt.locale', 'tt.title'])
    .execute();
  // app id → tag id → locale → title
  const tagTitles = new Map<number, Map<number, Map<string, string>>>();
  for (const t of tagTexts) {
    const byTag = tagTitles.get(t.app_id) ?? new Map<number, Map<string, string>>();
    tagTitles.set(t.app_id, byTag);
    const byLocale = byTag.get(t.tag_id) ?? new Map<string, string>();
    byTag.set(t.tag_id, byLocale);
    byLocale.set(t.locale, t.title);
  }
  const rows = texts.map((t) => {
    // A tag without a title in this locale is found by its English title.
    const titles = [...(tagTitles.get(t.app_id)?.values() ?? [])].map((byLocale) => byLocale.get(t.locale) ?? byLocale.get('en'));
    return { app_id: t.app_id, locale: t.locale, tokens: searchTokens(t.title, t.summary, t.description, ...titles) };
  });
  await trx.deleteFrom('app_search').execute();
  for (let i = 0; i < rows.length; i += SEARCH_CHUNK) {
    await trx
      .insertInto('app_search')
      .values(rows.slice(i, i + SEARCH_CHUNK))
      .execute();
  }
}

async function replaceLinks(trx: Transaction<Database>, table: 'app_categories' | 'app_tags', appId: number, rows: object[]) {
  await trx
    .deleteFrom(table as 'app_tags')
    .where('app_id', '=', appId)
    .execute();
  if (rows.length > 0)
    await trx
      .insertInto(table)
      .values(rows as never)
      .execute();
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
