import type { Kysely } from 'kysely';
import type { Database } from '#server/db/schema.ts';
import { executorOf, inUnitOfWork, type UnitOfWork } from '#server/db/unit-of-work.ts';

/** Members' authenticator-app secrets and recovery codes (decision 145). */
export class TwoFactorRepository {
  readonly #db: Kysely<Database>;
  constructor(db: Kysely<Database>) {
    this.#db = db;
  }

  transaction<T>(work: (unit: UnitOfWork) => Promise<T>): Promise<T> {
    return inUnitOfWork(this.#db, work);
  }

  /** Erases the member's rows of this feature's tables in the erasure's unit of work (decision 147). */
  async eraseMember(userId: number, unit: UnitOfWork): Promise<void> {
    const db = executorOf(this.#db, unit);
    await db.deleteFrom('two_factor_recovery_codes').where('user_id', '=', userId).execute();
    await db.deleteFrom('two_factor_secrets').where('user_id', '=', userId).execute();
  }

  secretOf(userId: number) {
    return this.#db.selectFrom('two_factor_secrets').selectAll().where('user_id', '=', userId).executeTakeFirst();
  }

  /** A new secret waiting for its first code; replaces one that waited, never a confirmed one. */
  async startSetUp(userId: number, sealed: string, now: string): Promise<boolean> {
    await this.#db.deleteFrom('two_factor_secrets').where('user_id', '=', userId).where('confirmed_at', 'is', null).execute();
    const inserted = await this.#db
      .insertInto('two_factor_secrets')
      .values({ user_id: userId, secret_sealed: sealed, confirmed_at: null, last_step: null, created_at: now })
      .onConflict((oc) => oc.column('user_id').doNothing())
      .executeTakeFirst();
    return Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1;
  }

  /**
   * Takes a code's step: only if it is later than the last one taken (two requests with one code:
   * one wins). With `confirmAt`, the secret's set-up is confirmed by the same write.
   */
  async takeStep(userId: number, step: number, confirmAt: string | null, unit?: UnitOfWork): Promise<boolean> {
    const result = await executorOf(this.#db, unit)
      .updateTable('two_factor_secrets')
      .set(confirmAt ? { last_step: step, confirmed_at: confirmAt } : { last_step: step })
      .where('user_id', '=', userId)
      .where((eb) => eb.or([eb('last_step', 'is', null), eb('last_step', '<', step)]))
      .where('confirmed_at', confirmAt ? 'is' : 'is not', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async replaceRecoveryCodes(userId: number, codes: Array<{ id: string; code_hash: string }>, now: string, unit?: UnitOfWork): Promise<void> {
    const db = executorOf(this.#db, unit);
    await db.deleteFrom('two_factor_recovery_codes').where('user_id', '=', userId).execute();
    await db
      .insertInto('two_factor_recovery_codes')
      .values(codes.map((code) => ({ ...code, user_id: userId, used_at: null, created_at: now })))
      .execute();
  }

  /** Uses a recovery code once: true when this call took it. */
  async useRecoveryCode(userId: number, codeHash: string, now: string): Promise<boolean> {
    const result = await this.#db
      .updateTable('two_factor_recovery_codes')
      .set({ used_at: now })
      .where('user_id', '=', userId)
      .where('code_hash', '=', codeHash)
      .where('used_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async recoveryCodesLeft(userId: number): Promise<number> {
    const row = await this.#db
      .selectFrom('two_factor_recovery_codes')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('user_id', '=', userId)
      .where('used_at', 'is', null)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** Turns two-step sign-in off: the secret and the codes go. */
  async remove(userId: number, unit?: UnitOfWork): Promise<boolean> {
    const db = executorOf(this.#db, unit);
    await db.deleteFrom('two_factor_recovery_codes').where('user_id', '=', userId).execute();
    const removed = await db.deleteFrom('two_factor_secrets').where('user_id', '=', userId).executeTakeFirst();
    return Number(removed.numDeletedRows) === 1;
  }
}
