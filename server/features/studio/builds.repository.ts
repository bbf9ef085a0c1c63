import type { Kysely, Selectable } from 'kysely';
import type { Database, GameBuildsTable } from '#server/db/schema.ts';
import { executorOf, inUnitOfWork, type UnitOfWork } from '#server/db/unit-of-work.ts';

export type GameBuildRow = Selectable<GameBuildsTable>;

/** The username prefix of the QA panel's test members (decision 094). */
const QA_MEMBER_PREFIX = 'qa_';

export interface ReviewQueueRow extends GameBuildRow {
  slug: string;
  title: string;
  studio_name: string | null;
}

/** Builds of developers' games and which one is live (decision 097). */
export class BuildsRepository {
  readonly #db: Kysely<Database>;
  constructor(db: Kysely<Database>) {
    this.#db = db;
  }

  /** Runs `work` in one transaction: every call given its unit of work commits with the others, or none does. */
  transaction<T>(work: (unit: UnitOfWork) => Promise<T>): Promise<T> {
    return inUnitOfWork(this.#db, work);
  }

  /** Adds a build with the game's next version number; the unique (game, version) pair settles a race. */
  async insert(row: Omit<GameBuildRow, 'id' | 'version'>): Promise<GameBuildRow> {
    return this.#db.transaction().execute(async (trx) => {
      const last = await trx
        .selectFrom('game_builds')
        .select((eb) => eb.fn.max('version').as('version'))
        .where('app_id', '=', row.app_id)
        .executeTakeFirst();
      const version = Number(last?.version ?? 0) + 1;
      return trx
        .insertInto('game_builds')
        .values({ ...row, version })
        .returningAll()
        .executeTakeFirstOrThrow();
    });
  }

  async remove(id: number): Promise<void> {
    await this.#db.deleteFrom('game_builds').where('id', '=', id).execute();
  }

  async find(id: number, unit?: UnitOfWork): Promise<GameBuildRow | undefined> {
    const db = executorOf(this.#db, unit);
    return db.selectFrom('game_builds').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** Who may test a game through its preview: its developer's id, and whether `userId` is a QA test member (a member named `qa_…`). */
  async previewTester(appId: number, userId: number): Promise<{ developerUserId: number | null; qaMember: boolean }> {
    const [game, user] = await Promise.all([
      this.#db.selectFrom('apps').select('developer_user_id').where('id', '=', appId).executeTakeFirst(),
      this.#db.selectFrom('users').select(['username_normalized', 'is_guest']).where('id', '=', userId).executeTakeFirst(),
    ]);
    return {
      developerUserId: game?.developer_user_id ?? null,
      qaMember: user !== undefined && user.is_guest === 0 && (user.username_normalized ?? '').startsWith(QA_MEMBER_PREFIX),
    };
  }

  async forGame(appId: number): Promise<GameBuildRow[]> {
    return this.#db.selectFrom('game_builds').selectAll().where('app_id', '=', appId).orderBy('version', 'desc').execute();
  }

  async game(
    appId: number,
    unit?: UnitOfWork,
  ): Promise<{ id: number; slug: string; live_build_id: number | null; published: number; thumbnail: string } | undefined> {
    const db = executorOf(this.#db, unit);
    return db.selectFrom('apps').select(['id', 'slug', 'live_build_id', 'published', 'thumbnail']).where('id', '=', appId).executeTakeFirst();
  }

  /** How many builds wait for an operator's review. */
  async submittedCount(): Promise<number> {
    const row = await this.#db
      .selectFrom('game_builds')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('status', '=', 'submitted')
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** Submitted builds, oldest first, with their game and studio. */
  async queue(locale: string): Promise<ReviewQueueRow[]> {
    return this.#db
      .selectFrom('game_builds as b')
      .innerJoin('apps as a', 'a.id', 'b.app_id')
      .leftJoin('app_translations as local', (j) => j.onRef('local.app_id', '=', 'a.id').on('local.locale', '=', locale))
      .leftJoin('app_translations as en', (j) => j.onRef('en.app_id', '=', 'a.id').on('en.locale', '=', 'en'))
      .leftJoin('developer_profiles as d', 'd.user_id', 'a.developer_user_id')
      .selectAll('b')
      .select((eb) => ['a.slug', eb.fn.coalesce('local.title', 'en.title', 'a.slug').as('title'), 'd.studio_name'])
      .where('b.status', '=', 'submitted')
      .orderBy('b.submitted_at')
      .orderBy('b.id')
      .execute();
  }

  async update(id: number, fields: Partial<Omit<GameBuildRow, 'id' | 'app_id' | 'version'>>, unit?: UnitOfWork): Promise<void> {
    const db = executorOf(this.#db, unit);
    await db.updateTable('game_builds').set(fields).where('id', '=', id).execute();
  }

  /** The approved build before `version`, the one a rollback goes back to. */
  async previousApproved(appId: number, version: number, unit?: UnitOfWork): Promise<GameBuildRow | undefined> {
    const db = executorOf(this.#db, unit);
    return db
      .selectFrom('game_builds')
      .selectAll()
      .where('app_id', '=', appId)
      .where('status', '=', 'approved')
      .where('version', '<', version)
      .orderBy('version', 'desc')
      .limit(1)
      .executeTakeFirst();
  }

  /** What the QA page needs to frame a build of a game that may not be published yet. */
  async previewGame(
    appId: number,
    locale: string,
  ): Promise<
    | {
        id: number;
        slug: string;
        title: string;
        type: 'game' | 'app';
        orientation: 'portrait' | 'landscape' | 'any';
        width: number;
        height: number;
        backend_origins: string;
      }
    | undefined
  > {
    return this.#db
      .selectFrom('apps as a')
      .leftJoin('app_translations as local', (j) => j.onRef('local.app_id', '=', 'a.id').on('local.locale', '=', locale))
      .leftJoin('app_translations as en', (j) => j.onRef('en.app_id', '=', 'a.id').on('en.locale', '=', 'en'))
      .select((eb) => [
        'a.id',
        'a.slug',
        'a.type',
        'a.orientation',
        'a.width',
        'a.height',
        'a.backend_origins',
        eb.fn.coalesce('local.title', 'en.title', 'a.slug').as('title'),
      ])
      .where('a.id', '=', appId)
      .executeTakeFirst();
  }
}
