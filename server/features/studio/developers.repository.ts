import type { Kysely, Selectable } from 'kysely';
import type { Database, DeveloperProfilesTable } from '#server/db/schema.ts';
import { executorOf, type UnitOfWork } from '#server/db/unit-of-work.ts';

export type DeveloperProfileRow = Selectable<DeveloperProfilesTable>;

/** Developer profiles and which games a developer owns (decision 095). */
export class DevelopersRepository {
  readonly #db: Kysely<Database>;
  constructor(db: Kysely<Database>) {
    this.#db = db;
  }

  /** Erases the member's rows of this feature's tables in the erasure's unit of work (decision 147). */
  async eraseMember(userId: number, unit: UnitOfWork): Promise<void> {
    const db = executorOf(this.#db, unit);
    await db.deleteFrom('studio_keys').where('user_id', '=', userId).execute();
    await db.deleteFrom('build_uploads').where('user_id', '=', userId).execute();
    await db.deleteFrom('build_upload_quotas').where('user_id', '=', userId).execute();
    await db.deleteFrom('developer_profiles').where('user_id', '=', userId).execute();
  }

  /** How many published games a member is the developer of. */
  async liveGames(userId: number): Promise<number> {
    const row = await this.#db
      .selectFrom('apps')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('developer_user_id', '=', userId)
      .where('published', '=', 1)
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  async profile(userId: number): Promise<DeveloperProfileRow | undefined> {
    return this.#db.selectFrom('developer_profiles').selectAll().where('user_id', '=', userId).executeTakeFirst();
  }

  async saveProfile(profile: DeveloperProfileRow): Promise<void> {
    await this.#db
      .insertInto('developer_profiles')
      .values(profile)
      .onConflict((oc) =>
        oc.column('user_id').doUpdateSet({ studio_name: profile.studio_name, contact_email: profile.contact_email, updated_at: profile.updated_at }),
      )
      .execute();
  }

  /** The developer who owns a game, or null for a house game or no game. */
  async developerOf(appId: number): Promise<number | null> {
    const row = await this.#db.selectFrom('apps').select('developer_user_id').where('id', '=', appId).executeTakeFirst();
    return row?.developer_user_id ?? null;
  }

  /** The id of the game with this slug, whoever owns it. */
  async gameIdBySlug(slug: string): Promise<number | null> {
    const row = await this.#db.selectFrom('apps').select('id').where('slug', '=', slug).executeTakeFirst();
    return row?.id ?? null;
  }

  /** A game's id, slug, publication and title in the locale (English when it has none there). */
  async gameSummary(appId: number, locale: string): Promise<{ id: number; slug: string; published: boolean; title: string } | undefined> {
    const row = await this.#db
      .selectFrom('apps')
      .leftJoin('app_translations as local', (join) => join.onRef('local.app_id', '=', 'apps.id').on('local.locale', '=', locale))
      .leftJoin('app_translations as english', (join) => join.onRef('english.app_id', '=', 'apps.id').on('english.locale', '=', 'en'))
      .select(['apps.id', 'apps.slug', 'apps.published', 'local.title as localTitle', 'english.title as englishTitle'])
      .where('apps.id', '=', appId)
      .executeTakeFirst();
    return row ? { id: row.id, slug: row.slug, published: row.published === 1, title: row.localTitle ?? row.englishTitle ?? row.slug } : undefined;
  }

  /** A developer's studio profile and games for "Download my data" (decision 144); nothing for others. */
  async personalDataOf(userId: number) {
    const [profile, games] = await Promise.all([
      this.#db
        .selectFrom('developer_profiles')
        .select(['studio_name', 'contact_email', 'created_at', 'updated_at'])
        .where('user_id', '=', userId)
        .executeTakeFirst(),
      this.#db.selectFrom('apps').select(['id', 'slug', 'created_at']).where('developer_user_id', '=', userId).orderBy('id').execute(),
    ]);
    return { profile: profile ?? null, games };
  }
}
