import type { Kysely } from 'kysely';
import type { Database } from '#server/db/schema.ts';
import { executorOf, inUnitOfWork, type UnitOfWork } from '#server/db/unit-of-work.ts';

/** Pending address confirmations and "Forgot password" links (decision 146); `users` stays with UsersRepository. */
export class AccountRecoveryRepository {
  readonly #db: Kysely<Database>;
  constructor(db: Kysely<Database>) {
    this.#db = db;
  }

  transaction<T>(work: (unit: UnitOfWork) => Promise<T>): Promise<T> {
    return inUnitOfWork(this.#db, work);
  }

  /** A new code for `email`, in place of any the member was waiting with. */
  async startVerification(row: { userId: number; email: string; codeHash: string; expiresAt: string; now: string }): Promise<void> {
    const values = { email: row.email, code_hash: row.codeHash, attempts: 0, expires_at: row.expiresAt, created_at: row.now };
    await this.#db
      .insertInto('email_verifications')
      .values({ user_id: row.userId, ...values })
      .onConflict((oc) => oc.column('user_id').doUpdateSet(values))
      .execute();
  }

  verificationOf(userId: number) {
    return this.#db.selectFrom('email_verifications').selectAll().where('user_id', '=', userId).executeTakeFirst();
  }

  /** Counts a wrong code against the confirmation it was typed for. */
  async countWrongCode(userId: number, codeHash: string): Promise<void> {
    await this.#db
      .updateTable('email_verifications')
      .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
      .where('user_id', '=', userId)
      .where('code_hash', '=', codeHash)
      .execute();
  }

  /** Takes the confirmation with this code: true for the one request that does (a code works once). */
  async takeVerification(userId: number, codeHash: string, unit: UnitOfWork): Promise<boolean> {
    const result = await executorOf(this.#db, unit)
      .deleteFrom('email_verifications')
      .where('user_id', '=', userId)
      .where('code_hash', '=', codeHash)
      .executeTakeFirst();
    return Number(result.numDeletedRows) === 1;
  }

  async removeVerification(userId: number, unit?: UnitOfWork): Promise<void> {
    await executorOf(this.#db, unit).deleteFrom('email_verifications').where('user_id', '=', userId).execute();
  }

  async insertReset(row: { tokenHash: string; userId: number; expiresAt: string; now: string }, unit?: UnitOfWork): Promise<void> {
    await executorOf(this.#db, unit)
      .insertInto('password_resets')
      .values({ token_hash: row.tokenHash, user_id: row.userId, expires_at: row.expiresAt, used_at: null, created_at: row.now })
      .execute();
  }

  /** The link's account while the link is unused and not expired. */
  async liveReset(tokenHash: string, now: string) {
    return this.#db
      .selectFrom('password_resets')
      .select(['user_id', 'expires_at'])
      .where('token_hash', '=', tokenHash)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .executeTakeFirst();
  }

  /**
   * Uses the link: true for the one request that does. Every other live link of the account goes
   * with it, so an older mail cannot change the password again.
   */
  async useReset(tokenHash: string, userId: number, now: string, unit: UnitOfWork): Promise<boolean> {
    const used = await executorOf(this.#db, unit)
      .updateTable('password_resets')
      .set({ used_at: now })
      .where('token_hash', '=', tokenHash)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    if (Number(used.numUpdatedRows) !== 1) return false;
    await executorOf(this.#db, unit).updateTable('password_resets').set({ used_at: now }).where('user_id', '=', userId).where('used_at', 'is', null).execute();
    return true;
  }

  /** The hourly clean-up: confirmations and links past their time, used links after a day. */
  async removeExpired(now: string, usedBefore: string): Promise<number> {
    const codes = await this.#db.deleteFrom('email_verifications').where('expires_at', '<=', now).executeTakeFirst();
    const links = await this.#db
      .deleteFrom('password_resets')
      .where((eb) => eb.or([eb('expires_at', '<=', usedBefore), eb('used_at', '<=', usedBefore)]))
      .executeTakeFirst();
    return Number(codes.numDeletedRows) + Number(links.numDeletedRows);
  }

  /** The member's pending confirmation and links, for "Download my data". */
  async personalDataOf(userId: number) {
    const verification = await this.#db
      .selectFrom('email_verifications')
      .select(['email', 'attempts', 'expires_at', 'created_at'])
      .where('user_id', '=', userId)
      .execute();
    const resets = await this.#db.selectFrom('password_resets').select(['expires_at', 'used_at', 'created_at']).where('user_id', '=', userId).execute();
    return { verification, resets };
  }
}
