import type { DeclaredAchievement, DeclaredBoard } from '#common/api/game-records.schema.ts';
import type { Kysely } from 'kysely';
import { replaceAppItems } from '#server/db/app-items.ts';
import type { Database, ItemKind } from '#server/db/schema.ts';
import { executorOf, inUnitOfWork, type UnitOfWork } from '#server/db/unit-of-work.ts';

type Texts = { title: string; summary: string; description: string; instructions: string | null };

/** A game's metadata, as the Studio reads and saves it (and a pending change keeps it, decision 112). */
export interface StudioGameMetadata {
  thumbnail: string;
  cover: string | null;
  screenshots: string[];
  orientation: 'portrait' | 'landscape' | 'any';
  width: number;
  height: number;
  backends: string[];
  leaderboards: DeclaredBoard[];
  achievements: DeclaredAchievement[];
  texts: Record<string, Texts>;
  categories: string[];
  tags: string[];
  items: { sku: string; price: number; currency: string; kind: ItemKind; names: Record<string, string> }[];
}

/** A Studio game as stored: the apps row, its texts per locale, its links and its items. */
export interface StoredStudioGame extends StudioGameMetadata {
  id: number;
  slug: string;
  published: boolean;
  entryUrl: string;
  updatedAt: string;
}

/** What a save writes: every field of the game's metadata. */
export interface StudioGameWrite extends StudioGameMetadata {
  /** The search index's tokens per locale. */
  searchTokens: (texts: Texts, tagTitles: string[]) => string;
}

/** The Studio's reads and writes of a developer's games (decision 096). */
export class StudioGamesRepository {
  readonly #db: Kysely<Database>;
  constructor(db: Kysely<Database>) {
    this.#db = db;
  }

  /** Whether the user is a member (not a guest): only members may open a studio. */
  async isMember(userId: number): Promise<boolean> {
    const row = await this.#db.selectFrom('users').select('is_guest').where('id', '=', userId).executeTakeFirst();
    return row?.is_guest === 0;
  }

  /** The developer's games, most recently changed first, titled in the locale (English otherwise). */
  async list(userId: number, locale: string) {
    return this.#db
      .selectFrom('apps')
      .innerJoin('app_translations as en', (j) => j.onRef('en.app_id', '=', 'apps.id').on('en.locale', '=', 'en'))
      .leftJoin('app_translations as t', (j) => j.onRef('t.app_id', '=', 'apps.id').on('t.locale', '=', locale))
      .select(['apps.id', 'apps.slug', 'apps.thumbnail', 'apps.published', 'apps.updated_at', 'en.title as englishTitle', 't.title as localTitle'])
      .where('apps.developer_user_id', '=', userId)
      .orderBy('apps.updated_at', 'desc')
      .orderBy('apps.id', 'desc')
      .execute();
  }

  /** Category and tag slugs that exist, of those given. */
  async knownTerms(categories: string[], tags: string[]): Promise<{ categories: Set<string>; tags: Set<string> }> {
    const [c, t] = await Promise.all([
      categories.length ? this.#db.selectFrom('categories').select('slug').where('slug', 'in', categories).execute() : [],
      tags.length ? this.#db.selectFrom('tags').select('slug').where('slug', 'in', tags).execute() : [],
    ]);
    return { categories: new Set(c.map((r) => r.slug)), tags: new Set(t.map((r) => r.slug)) };
  }

  /**
   * Creates a draft game for the developer; undefined when the slug is taken (the unique slug
   * decides, so two developers racing for one slug cannot both have it).
   */
  async create(input: { userId: number; slug: string; titles: Record<string, string>; now: string }): Promise<number | undefined> {
    return this.#db.transaction().execute(async (trx) => {
      const row = await trx
        .insertInto('apps')
        .values({
          slug: input.slug,
          type: 'game',
          entry_url: `/games/${input.slug}/index.html`,
          thumbnail: '',
          screenshots: '[]',
          orientation: 'any',
          width: 960,
          height: 600,
          developer: null,
          featured: 0,
          play_count: 0,
          released_at: input.now,
          published: 0,
          developer_user_id: input.userId,
          created_at: input.now,
          updated_at: input.now,
        })
        .onConflict((oc) => oc.column('slug').doNothing())
        .returning('id')
        .executeTakeFirst();
      if (!row) return undefined;
      await trx
        .insertInto('app_translations')
        .values(Object.entries(input.titles).map(([locale, title]) => ({ app_id: row.id, locale, title, summary: '', description: '', instructions: null })))
        .execute();
      return row.id;
    });
  }

  /** Runs `work` in one transaction: every call given its unit of work commits with the others, or none does. */
  transaction<T>(work: (unit: UnitOfWork) => Promise<T>): Promise<T> {
    return inUnitOfWork(this.#db, work);
  }

  async read(appId: number, unit?: UnitOfWork): Promise<StoredStudioGame | undefined> {
    const db = executorOf(this.#db, unit);
    const app = await db.selectFrom('apps').selectAll().where('id', '=', appId).executeTakeFirst();
    if (!app) return undefined;
    const [texts, categories, tags, items] = await Promise.all([
      db.selectFrom('app_translations').select(['locale', 'title', 'summary', 'description', 'instructions']).where('app_id', '=', appId).execute(),
      db
        .selectFrom('app_categories as x')
        .innerJoin('categories as c', 'c.id', 'x.category_id')
        .select('c.slug')
        .where('x.app_id', '=', appId)
        .orderBy('c.sort')
        .orderBy('c.slug')
        .execute(),
      db.selectFrom('app_tags as x').innerJoin('tags as g', 'g.id', 'x.tag_id').select('g.slug').where('x.app_id', '=', appId).orderBy('g.slug').execute(),
      db
        .selectFrom('app_items')
        .select(['sku', 'price_minor', 'currency', 'kind', 'names'])
        .where('app_id', '=', appId)
        .where('active', '=', 1)
        .orderBy('id')
        .execute(),
    ]);
    return {
      id: app.id,
      slug: app.slug,
      published: app.published === 1,
      entryUrl: app.entry_url,
      thumbnail: app.thumbnail,
      cover: app.cover,
      screenshots: JSON.parse(app.screenshots) as string[],
      orientation: app.orientation,
      width: app.width,
      height: app.height,
      backends: JSON.parse(app.backend_origins) as string[],
      leaderboards: JSON.parse(app.leaderboards) as DeclaredBoard[],
      achievements: JSON.parse(app.achievements) as DeclaredAchievement[],
      updatedAt: app.updated_at,
      texts: Object.fromEntries(texts.map((t) => [t.locale, { title: t.title, summary: t.summary, description: t.description, instructions: t.instructions }])),
      categories: categories.map((c) => c.slug),
      tags: tags.map((t) => t.slug),
      items: items.map((i) => ({ sku: i.sku, price: i.price_minor, currency: i.currency, kind: i.kind, names: JSON.parse(i.names) as Record<string, string> })),
    };
  }

  /** Replaces the game's metadata in one transaction, the search index rows of the game included. */
  async save(appId: number, input: StudioGameWrite, now: string): Promise<void> {
    await inUnitOfWork(this.#db, (unit) => this.apply(unit, appId, input, now));
  }

  /** Replaces the game's metadata inside the caller's transaction (an approved change applies this way, decision 112). */
  async apply(unit: UnitOfWork, appId: number, input: StudioGameWrite, now: string): Promise<void> {
    const trx = executorOf(this.#db, unit);
    await trx
      .updateTable('apps')
      .set({
        thumbnail: input.thumbnail,
        cover: input.cover,
        screenshots: JSON.stringify(input.screenshots),
        orientation: input.orientation,
        width: input.width,
        height: input.height,
        backend_origins: JSON.stringify(input.backends),
        leaderboards: JSON.stringify(input.leaderboards),
        achievements: JSON.stringify(input.achievements),
        updated_at: now,
      })
      .where('id', '=', appId)
      .execute();
    await trx.deleteFrom('app_translations').where('app_id', '=', appId).execute();
    await trx
      .insertInto('app_translations')
      .values(Object.entries(input.texts).map(([locale, t]) => ({ app_id: appId, locale, ...t })))
      .execute();
    await replaceTerms(trx, appId, input.categories, input.tags);
    await replaceAppItems(trx, appId, input.items, now);
    const tagTitles = await trx
      .selectFrom('app_tags as x')
      .innerJoin('tag_translations as tt', 'tt.tag_id', 'x.tag_id')
      .select(['x.tag_id', 'tt.locale', 'tt.title'])
      .where('x.app_id', '=', appId)
      .execute();
    await trx.deleteFrom('app_search').where('app_id', '=', appId).execute();
    await trx
      .insertInto('app_search')
      .values(
        Object.entries(input.texts).map(([locale, texts]) => {
          // A tag without a title in this locale is found by its English title, as the import indexes it.
          const titles = [...new Set(tagTitles.map((t) => t.tag_id))].map(
            (id) => tagTitles.find((t) => t.tag_id === id && t.locale === locale)?.title ?? tagTitles.find((t) => t.tag_id === id && t.locale === 'en')?.title,
          );
          return {
            app_id: appId,
            locale,
            tokens: input.searchTokens(
              texts,
              titles.filter((t): t is string => t !== undefined),
            ),
          };
        }),
      )
      .execute();
  }
}

async function replaceTerms(trx: Kysely<Database>, appId: number, categories: string[], tags: string[]): Promise<void> {
  await trx.deleteFrom('app_categories').where('app_id', '=', appId).execute();
  await trx.deleteFrom('app_tags').where('app_id', '=', appId).execute();
  if (categories.length > 0) {
    const ids = await trx.selectFrom('categories').select('id').where('slug', 'in', categories).execute();
    await trx
      .insertInto('app_categories')
      .values(ids.map((r) => ({ app_id: appId, category_id: r.id })))
      .execute();
  }
  if (tags.length > 0) {
    const ids = await trx.selectFrom('tags').select('id').where('slug', 'in', tags).execute();
    await trx
      .insertInto('app_tags')
      .values(ids.map((r) => ({ app_id: appId, tag_id: r.id })))
      .execute();
  }
}
