import type { Kysely } from 'kysely';
import type { Database } from '#server/db/schema.ts';
import { executorOf, inUnitOfWork, type UnitOfWork } from '#server/db/unit-of-work.ts';
import { replaceAppItems } from './app-items.repository.ts';
import type { GameMetadataWrite } from './game-listings.schema.ts';

/**
 * The writes of a developer's game to the catalogue's tables (decision 140): its draft, its
 * metadata with texts, terms, items and search rows, its live build, its listing. The Studio and
 * the Console decide; the catalogue, which owns `apps` and its `app_*` tables, writes.
 */
export class GameListingsRepository {
  readonly #db: Kysely<Database>;
  constructor(db: Kysely<Database>) {
    this.#db = db;
  }

  /**
   * Creates a draft game for the developer; undefined when the slug is taken (the unique slug
   * decides, so two developers racing for one slug cannot both have it).
   */
  async createDraft(input: { userId: number; slug: string; titles: Record<string, string>; now: string }): Promise<number | undefined> {
    return inUnitOfWork(this.#db, async (unit) => {
      const trx = executorOf(this.#db, unit);
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

  /** Replaces the game's metadata in one transaction, the search index rows of the game included. */
  async save(appId: number, input: GameMetadataWrite, now: string): Promise<void> {
    await inUnitOfWork(this.#db, (unit) => this.apply(unit, appId, input, now));
  }

  /** Replaces the game's metadata inside the caller's transaction (an approved change applies this way, decision 112). */
  async apply(unit: UnitOfWork, appId: number, input: GameMetadataWrite, now: string): Promise<void> {
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

  /** Makes a build the game's live one and publishes the game, its entry on its own host. */
  async makeLive(appId: number, build: { id: number; entry_path: string }, slug: string, now: string, unit: UnitOfWork): Promise<void> {
    await executorOf(this.#db, unit)
      .updateTable('apps')
      .set({ live_build_id: build.id, published: 1, entry_url: `/games/${slug}/${build.entry_path}`, updated_at: now })
      .where('id', '=', appId)
      .execute();
  }

  /** An operator's change of the game's listing (published, featured), marked as the Console's. */
  async updateListing(
    id: number,
    fields: { published?: number; featured?: number; listing_source: 'console'; updated_at: string },
    unit: UnitOfWork,
  ): Promise<void> {
    await executorOf(this.#db, unit).updateTable('apps').set(fields).where('id', '=', id).execute();
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
