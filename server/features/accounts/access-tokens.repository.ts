import type { Kysely } from 'kysely';
import type { Database } from '#server/db/schema.ts';

/** Access tokens at rest: only the SHA-256 of the secret part is stored. */
export class AccessTokensRepository {
  readonly #db: Kysely<Database>;
  constructor(db: Kysely<Database>) {
    this.#db = db;
  }

  async insert(row: { userId: number; tokenHash: string; name: string; createdAt: string; expiresAt: string | null }) {
    const inserted = await this.#db
      .insertInto('access_tokens')
      .values({
        user_id: row.userId,
        token_hash: row.tokenHash,
        name: row.name,
        created_at: row.createdAt,
        expires_at: row.expiresAt,
        last_used_at: row.createdAt,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return inserted.id;
  }

  /** The token with whether its user is disabled (decision 098), in one query. */
  findById(id: number) {
    return this.#db
      .selectFrom('access_tokens')
      .innerJoin('users', 'users.id', 'access_tokens.user_id')
      .selectAll('access_tokens')
      .select('users.disabled_at')
      .where('access_tokens.id', '=', id)
      .executeTakeFirst();
  }

  async userDisabled(userId: number): Promise<boolean> {
    const row = await this.#db.selectFrom('users').select('disabled_at').where('id', '=', userId).executeTakeFirst();
    return row?.disabled_at != null;
  }

  /**
   * A sign-in within the grace period restores a closed account (decision 147): the mark goes and
   * the time of the restoration is kept for the page after the sign-in. True when one was restored.
   */
  async restoreClosedAccount(userId: number, at: string): Promise<boolean> {
    const result = await this.#db
      .updateTable('users')
      .set({ deletion_requested_at: null, deletion_restored_at: at })
      .where('id', '=', userId)
      .where('deletion_requested_at', 'is not', null)
      .where('erased_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async touch(id: number, at: string) {
    await this.#db.updateTable('access_tokens').set({ last_used_at: at }).where('id', '=', id).execute();
  }

  async delete(id: number) {
    await this.#db.deleteFrom('access_tokens').where('id', '=', id).execute();
  }

  /** Deletes the token only when it is the user's: true when it was. */
  async deleteForUser(userId: number, id: number): Promise<boolean> {
    const result = await this.#db.deleteFrom('access_tokens').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** Deletes the user's tokens, all but `exceptId` when given; returns how many went. */
  async deleteAllForUser(userId: number, exceptId?: number): Promise<number> {
    let query = this.#db.deleteFrom('access_tokens').where('user_id', '=', userId);
    if (exceptId !== undefined) query = query.where('id', '!=', exceptId);
    const result = await query.executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /** Keeps the user's `keep` most recently used tokens and deletes the rest. */
  async deleteLeastRecentlyUsed(userId: number, keep: number) {
    const kept = this.#db
      .selectFrom('access_tokens')
      .select('id')
      .where('user_id', '=', userId)
      .orderBy('last_used_at', 'desc')
      .orderBy('id', 'desc')
      .limit(keep);
    await this.#db.deleteFrom('access_tokens').where('user_id', '=', userId).where('id', 'not in', kept).execute();
  }

  listForUser(userId: number) {
    return this.#db
      .selectFrom('access_tokens')
      .select(['id', 'name', 'last_used_at', 'created_at', 'expires_at'])
      .where('user_id', '=', userId)
      .orderBy('id', 'desc')
      .execute();
  }

  /** A member's sessions for "Download my data" (decision 144): never the token's hash. */
  sessionsOf(userId: number) {
    return this.#db
      .selectFrom('access_tokens')
      .select(['name', 'created_at', 'last_used_at', 'expires_at'])
      .where('user_id', '=', userId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
  }
}
