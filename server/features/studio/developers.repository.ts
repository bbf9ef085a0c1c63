import type { Kysely, Selectable } from 'kysely';
import type { Database, DeveloperProfilesTable } from '#server/db/schema.ts';

export type DeveloperProfileRow = Selectable<DeveloperProfilesTable>;

/** Developer profiles and which games a developer owns (decision 095). */
export class DevelopersRepository {
  readonly #db: Kysely<Database>;
  constructor(db: Kysely<Database>) {
    this.#db = db;
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
}
