import type { Kysely } from 'kysely';
import type { Database } from '#server/db/schema.ts';
import { executorOf, inUnitOfWork, type UnitOfWork } from '#server/db/unit-of-work.ts';

/** `reset`: a "Forgot password" link (decision 146); `not-me`: a notice's "this wasn't me" link (decision 148). */
export type LinkPurpose = 'reset' | 'not-me';

/**
 * Pending address confirmations, "Forgot password" and "this wasn't me" links, and the devices
 * accounts signed in from (decisions 146 and 148); `users` stays with UsersRepository.
 */
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

  async insertLink(row: { tokenHash: string; userId: number; purpose: LinkPurpose; expiresAt: string; now: string }, unit?: UnitOfWork): Promise<void> {
    await executorOf(this.#db, unit)
      .insertInto('password_resets')
      .values({ token_hash: row.tokenHash, user_id: row.userId, purpose: row.purpose, expires_at: row.expiresAt, used_at: null, created_at: row.now })
      .execute();
  }

  /** The link's account while the link is unused and not expired. */
  async liveLink(tokenHash: string, purpose: LinkPurpose, now: string) {
    return this.#db
      .selectFrom('password_resets')
      .select(['user_id', 'expires_at'])
      .where('token_hash', '=', tokenHash)
      .where('purpose', '=', purpose)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .executeTakeFirst();
  }

  /**
   * Uses the link: true for the one request that does. Every other live link of the account for the
   * same purpose goes with it, so an older mail cannot change the password again.
   */
  async useLink(tokenHash: string, purpose: LinkPurpose, userId: number, now: string, unit: UnitOfWork): Promise<boolean> {
    const used = await executorOf(this.#db, unit)
      .updateTable('password_resets')
      .set({ used_at: now })
      .where('token_hash', '=', tokenHash)
      .where('purpose', '=', purpose)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    if (Number(used.numUpdatedRows) !== 1) return false;
    await executorOf(this.#db, unit)
      .updateTable('password_resets')
      .set({ used_at: now })
      .where('user_id', '=', userId)
      .where('purpose', '=', purpose)
      .where('used_at', 'is', null)
      .execute();
    return true;
  }

  /** The hourly clean-up: confirmations and links past their time, used links after a day, devices unused for `devicesBefore`. */
  async removeExpired(now: string, usedBefore: string, devicesBefore: string): Promise<number> {
    const devices = await this.#db.deleteFrom('sign_in_devices').where('last_at', '<', devicesBefore).executeTakeFirst();
    const codes = await this.#db.deleteFrom('email_verifications').where('expires_at', '<=', now).executeTakeFirst();
    const links = await this.#db
      .deleteFrom('password_resets')
      .where((eb) => eb.or([eb('expires_at', '<=', usedBefore), eb('used_at', '<=', usedBefore)]))
      .executeTakeFirst();
    return Number(codes.numDeletedRows) + Number(links.numDeletedRows) + Number(devices.numDeletedRows);
  }

  /**
   * Notes a sign-in from `deviceHash`: answers whether the account had signed in from it before, and
   * how many devices it had before this sign-in.
   */
  async noteDevice(row: { userId: number; deviceHash: string; label: string; now: string }): Promise<{ known: boolean; devicesBefore: number }> {
    const devices = await this.#db.selectFrom('sign_in_devices').select('device_hash').where('user_id', '=', row.userId).execute();
    const known = devices.some((d) => d.device_hash === row.deviceHash);
    await this.#db
      .insertInto('sign_in_devices')
      .values({ user_id: row.userId, device_hash: row.deviceHash, label: row.label, first_at: row.now, last_at: row.now })
      .onConflict((oc) => oc.columns(['user_id', 'device_hash']).doUpdateSet({ last_at: row.now }))
      .execute();
    return { known, devicesBefore: devices.length };
  }

  /** An account's erasure (decision 147): its pending confirmation, links and devices, in the erasure's unit. */
  async eraseMember(userId: number, unit: UnitOfWork): Promise<void> {
    const trx = executorOf(this.#db, unit);
    await trx.deleteFrom('email_verifications').where('user_id', '=', userId).execute();
    await trx.deleteFrom('password_resets').where('user_id', '=', userId).execute();
    await trx.deleteFrom('sign_in_devices').where('user_id', '=', userId).execute();
  }

  /** The member's pending confirmation and links, for "Download my data". */
  async personalDataOf(userId: number) {
    const verification = await this.#db
      .selectFrom('email_verifications')
      .select(['email', 'attempts', 'expires_at', 'created_at'])
      .where('user_id', '=', userId)
      .execute();
    const links = await this.#db
      .selectFrom('password_resets')
      .select(['purpose', 'expires_at', 'used_at', 'created_at'])
      .where('user_id', '=', userId)
      .execute();
    const devices = await this.#db.selectFrom('sign_in_devices').select(['label', 'first_at', 'last_at']).where('user_id', '=', userId).execute();
    return { verification, links, devices };
  }
}
