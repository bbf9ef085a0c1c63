import type { Kysely, Selectable } from 'kysely';
import type { Database, StudioKeysTable } from '#server/db/schema.ts';

export type StudioKeyRow = Selectable<StudioKeysTable>;

/** Developers' Studio keys at rest (decision 102): only the SHA-256 of the random part is stored. */
export class StudioKeysRepository {
  readonly #db: Kysely<Database>;
  constructor(db: Kysely<Database>) {
    this.#db = db;
  }

  async insert(row: { userId: number; name: string; keyHash: string; createdAt: string }): Promise<number> {
    const inserted = await this.#db
      .insertInto('studio_keys')
      .values({ user_id: row.userId, name: row.name, key_hash: row.keyHash, created_at: row.createdAt, last_used_at: null })
      .returning('id')
      .executeTakeFirstOrThrow();
    return inserted.id;
  }

  /** How many keys of the user were made up to and including this one: settles two creations at once. */
  async countUpTo(userId: number, id: number): Promise<number> {
    const row = await this.#db
      .selectFrom('studio_keys')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('user_id', '=', userId)
      .where('id', '<=', id)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** The key with whether its user is disabled and still has a studio profile, in one query. */
  findById(id: number) {
    return this.#db
      .selectFrom('studio_keys')
      .innerJoin('users', 'users.id', 'studio_keys.user_id')
      .leftJoin('developer_profiles', 'developer_profiles.user_id', 'studio_keys.user_id')
      .selectAll('studio_keys')
      .select(['users.disabled_at', 'developer_profiles.user_id as developer'])
      .where('studio_keys.id', '=', id)
      .executeTakeFirst();
  }

  listForUser(userId: number): Promise<Pick<StudioKeyRow, 'id' | 'name' | 'created_at' | 'last_used_at'>[]> {
    return this.#db
      .selectFrom('studio_keys')
      .select(['id', 'name', 'created_at', 'last_used_at'])
      .where('user_id', '=', userId)
      .orderBy('id', 'desc')
      .execute();
  }

  async touch(id: number, at: string): Promise<void> {
    await this.#db.updateTable('studio_keys').set({ last_used_at: at }).where('id', '=', id).execute();
  }

  /** Deletes a key of this user; false when the user has no such key. */
  async delete(userId: number, id: number): Promise<boolean> {
    const result = await this.#db.deleteFrom('studio_keys').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}
