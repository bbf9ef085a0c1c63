import type { DeclaredAchievement, DeclaredBoard } from '#common/api/game-records.schema.ts';
import type { Kysely } from 'kysely';
import type { GameMetadata, GameMetadataWrite } from '../catalogue/game-listings.schema.ts';
import type { Database } from '#server/db/schema.ts';
import { executorOf, type UnitOfWork } from '#server/db/unit-of-work.ts';

/** A game's metadata, as the Studio reads and saves it (and a pending change keeps it, decision 112). */
export type StudioGameMetadata = GameMetadata;

/** A Studio game as stored: the apps row, its texts per locale, its links and its items. */
export interface StoredStudioGame extends StudioGameMetadata {
  id: number;
  slug: string;
  published: boolean;
  entryUrl: string;
  updatedAt: string;
}

/** What a save writes: every field of the game's metadata. */
export type StudioGameWrite = GameMetadataWrite;

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
}
