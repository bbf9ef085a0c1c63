import type { Locale } from '#common/locales.ts';
import { type Kysely, sql } from 'kysely';
import type { Database } from '#server/db/schema.ts';
import { executorOf, inUnitOfWork, type UnitOfWork } from '#server/db/unit-of-work.ts';

export interface ConsoleGameRow {
  id: number;
  slug: string;
  type: 'game' | 'app';
  title: string;
  published: number;
  featured: number;
  developer_user_id: number | null;
  studio_name: string | null;
  updated_at: string;
  /** The version of the live build, null for a game without builds (the portal's own games). */
  live_version: number | null;
  /** The approved version before the live one: where a rollback goes, null when there is none. */
  rollback_version: number | null;
}

/** Games as operators see them: every game, published or not (decision 099). */
export class ConsoleGamesRepository {
  readonly #db: Kysely<Database>;
  constructor(db: Kysely<Database>) {
    this.#db = db;
  }

  /** Runs `work` in one transaction: a change and its audit entry commit together. */
  transaction<T>(work: (unit: UnitOfWork) => Promise<T>): Promise<T> {
    return inUnitOfWork(this.#db, work);
  }

  /** Games by their title in `locale` (English where it has none), as the operator's Console reads them (decision 126). */
  async list(
    filter: { q?: string | undefined; published?: boolean; developer?: number | 'house' },
    limit: number,
    locale: Locale = 'en',
  ): Promise<ConsoleGameRow[]> {
    let query = this.#select(this.#db, locale);
    if (filter.q) {
      // A plain substring of either title or the slug, case-insensitive on both databases.
      const pattern = `%${filter.q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      query = query.where((eb) =>
        eb.or([
          sql<boolean>`lower(${eb.ref('en.title')}) like ${pattern} escape '\\'`,
          sql<boolean>`lower(${eb.ref('local.title')}) like ${pattern} escape '\\'`,
          sql<boolean>`lower(${eb.ref('a.slug')}) like ${pattern} escape '\\'`,
        ]),
      );
    }
    if (filter.published !== undefined) query = query.where('a.published', '=', filter.published ? 1 : 0);
    if (filter.developer === 'house') query = query.where('a.developer_user_id', 'is', null);
    else if (filter.developer !== undefined) query = query.where('a.developer_user_id', '=', filter.developer);
    return query.orderBy('title').orderBy('a.id').limit(limit).execute();
  }

  async find(id: number, unit?: UnitOfWork): Promise<ConsoleGameRow | undefined> {
    const db = executorOf(this.#db, unit);
    return this.#select(db).where('a.id', '=', id).executeTakeFirst();
  }

  #select(db: Kysely<Database>, locale: Locale = 'en') {
    return db
      .selectFrom('apps as a')
      .innerJoin('app_translations as en', (j) => j.onRef('en.app_id', '=', 'a.id').on('en.locale', '=', 'en'))
      .leftJoin('app_translations as local', (j) => j.onRef('local.app_id', '=', 'a.id').on('local.locale', '=', locale))
      .leftJoin('developer_profiles as d', 'd.user_id', 'a.developer_user_id')
      .leftJoin('game_builds as live', 'live.id', 'a.live_build_id')
      .select((eb) => eb.fn.coalesce('local.title', 'en.title').as('title'))
      .select(['a.id', 'a.slug', 'a.type', 'a.published', 'a.featured', 'a.developer_user_id', 'd.studio_name', 'a.updated_at'])
      .select('live.version as live_version')
      .select((eb) =>
        eb
          .selectFrom('game_builds as earlier')
          .select((inner) => inner.fn.max('earlier.version').as('version'))
          .whereRef('earlier.app_id', '=', 'a.id')
          .where('earlier.status', '=', 'approved')
          .whereRef('earlier.version', '<', 'live.version')
          .as('rollback_version'),
      );
  }
}
