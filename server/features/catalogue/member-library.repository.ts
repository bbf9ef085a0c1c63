import { type Kysely, sql } from 'kysely';
import type { Locale } from '#common/locales.ts';
import type { Database } from '#server/db/schema.ts';
import { executorOf, type UnitOfWork } from '#server/db/unit-of-work.ts';
import { keysetPage } from '#server/db/keyset.ts';
import type { Cursor } from '#server/lib/cursor.ts';
import { type AppSummaryRow, appSummaries } from './catalogue.repository.ts';

export type PlayedRow = Omit<AppSummaryRow, 'sort_key'> & { plays: number; last_played_at: string };
export type FavouriteRow = Omit<AppSummaryRow, 'sort_key'> & { favourited_at: string };

/** A member's own apps: what they played (how often, when last) and their favourites. */
export class MemberLibraryRepository {
  readonly #db: Kysely<Database>;
  constructor(db: Kysely<Database>) {
    this.#db = db;
  }

  async publishedAppExists(appId: number): Promise<boolean> {
    const row = await this.#db.selectFrom('apps').select('id').where('id', '=', appId).where('published', '=', 1).executeTakeFirst();
    return row !== undefined;
  }

  /** Counts one play for the member and for the app's popularity, in one transaction. */
  async recordPlay(userId: number, appId: number, at: string): Promise<{ play_count: number; last_played_at: string }> {
    return this.#db.transaction().execute(async (trx) => {
      const row = await trx
        .insertInto('played_games')
        .values({ user_id: userId, app_id: appId, play_count: 1, first_played_at: at, last_played_at: at })
        .onConflict((oc) => oc.columns(['user_id', 'app_id']).doUpdateSet({ play_count: sql`played_games.play_count + 1`, last_played_at: at }))
        .returning(['play_count', 'last_played_at'])
        .executeTakeFirstOrThrow();
      await trx
        .updateTable('apps')
        .set({ play_count: sql`play_count + 1` })
        .where('id', '=', appId)
        .execute();
      return row;
    });
  }

  /** Most recently played first; `limit + 1` rows so the caller can tell whether more follow. */
  async listPlayed(userId: number, locale: Locale, limit: number, cursor: Cursor | null): Promise<PlayedRow[]> {
    const q = appSummaries(this.#db, locale)
      .innerJoin('played_games as p', 'p.app_id', 'a.id')
      .select(['p.play_count as plays', 'p.last_played_at'])
      .where('p.user_id', '=', userId);
    const after = cursor ? { value: String(cursor.v), id: cursor.id } : null;
    return keysetPage(q, { sort: 'p.last_played_at', id: 'a.id', direction: 'desc' }, after)
      .limit(limit + 1)
      .execute();
  }

  /** Adds a favourite; adding it again changes nothing. */
  async addFavourite(userId: number, appId: number, at: string): Promise<void> {
    await this.#db
      .insertInto('favourites')
      .values({ user_id: userId, app_id: appId, created_at: at })
      .onConflict((oc) => oc.columns(['user_id', 'app_id']).doNothing())
      .execute();
  }

  async removeFavourite(userId: number, appId: number): Promise<void> {
    await this.#db.deleteFrom('favourites').where('user_id', '=', userId).where('app_id', '=', appId).execute();
  }

  async isFavourite(userId: number, appId: number): Promise<boolean> {
    const row = await this.#db.selectFrom('favourites').select('app_id').where('user_id', '=', userId).where('app_id', '=', appId).executeTakeFirst();
    return row !== undefined;
  }

  /** Newest favourite first; `limit + 1` rows. */
  async listFavourites(userId: number, locale: Locale, limit: number, cursor: Cursor | null): Promise<FavouriteRow[]> {
    const q = appSummaries(this.#db, locale)
      .innerJoin('favourites as f', 'f.app_id', 'a.id')
      .select(['f.created_at as favourited_at'])
      .where('f.user_id', '=', userId);
    const after = cursor ? { value: String(cursor.v), id: cursor.id } : null;
    return keysetPage(q, { sort: 'f.created_at', id: 'a.id', direction: 'desc' }, after)
      .limit(limit + 1)
      .execute();
  }

  /**
   * A guest's plays and favourites, moved to a member in the guest merge's unit of work (decision
   * 137). Plays add up, the earlier first play and the later last play stand; a favourite both have
   * stays once. Rows are taken in app order, so merges of two guests into one member lock the
   * member's rows in the same order and cannot deadlock each other on PostgreSQL.
   */
  /** Erases the member's rows of this feature's tables in the erasure's unit of work (decision 147). */
  async eraseMember(userId: number, unit: UnitOfWork): Promise<void> {
    const db = executorOf(this.#db, unit);
    await db.deleteFrom('played_games').where('user_id', '=', userId).execute();
    await db.deleteFrom('favourites').where('user_id', '=', userId).execute();
  }

  async moveGuestRows(guestId: number, memberId: number, unit: UnitOfWork): Promise<void> {
    const db = executorOf(this.#db, unit);
    const plays = await db.selectFrom('played_games').selectAll().where('user_id', '=', guestId).orderBy('app_id').execute();
    for (const play of plays) {
      await db
        .insertInto('played_games')
        .values({ ...play, user_id: memberId })
        .onConflict((oc) =>
          oc.columns(['user_id', 'app_id']).doUpdateSet({
            play_count: sql`played_games.play_count + ${play.play_count}`,
            first_played_at: sql`CASE WHEN played_games.first_played_at < ${play.first_played_at} THEN played_games.first_played_at ELSE ${play.first_played_at} END`,
            last_played_at: sql`CASE WHEN played_games.last_played_at > ${play.last_played_at} THEN played_games.last_played_at ELSE ${play.last_played_at} END`,
          }),
        )
        .execute();
    }
    const favourites = await db.selectFrom('favourites').selectAll().where('user_id', '=', guestId).orderBy('app_id').execute();
    for (const favourite of favourites) {
      await db
        .insertInto('favourites')
        .values({ ...favourite, user_id: memberId })
        .onConflict((oc) => oc.columns(['user_id', 'app_id']).doNothing())
        .execute();
    }
  }

  /** A member's plays and favourites with the games' addresses, for "Download my data" (decision 144). */
  async personalDataOf(userId: number) {
    const [plays, favourites] = await Promise.all([
      this.#db
        .selectFrom('played_games')
        .innerJoin('apps', 'apps.id', 'played_games.app_id')
        .select(['apps.id as app_id', 'apps.slug', 'played_games.play_count', 'played_games.first_played_at', 'played_games.last_played_at'])
        .where('played_games.user_id', '=', userId)
        .orderBy('played_games.first_played_at')
        .orderBy('apps.id')
        .execute(),
      this.#db
        .selectFrom('favourites')
        .innerJoin('apps', 'apps.id', 'favourites.app_id')
        .select(['apps.id as app_id', 'apps.slug', 'favourites.created_at'])
        .where('favourites.user_id', '=', userId)
        .orderBy('favourites.created_at')
        .orderBy('apps.id')
        .execute(),
    ]);
    return { plays, favourites };
  }
}
