import type { Kysely } from 'kysely';
import type { Database } from '#server/db/schema.ts';
import { executorOf, inUnitOfWork, type UnitOfWork } from '#server/db/unit-of-work.ts';

/**
 * The accounts' part of the guest merge (decisions 063 and 137): the transaction, the claim of the
 * guest's row and its deletion with its tokens. What the guest holds in other features' tables
 * moves by their own repositories, in the same unit of work.
 */
export class GuestMergeRepository {
  readonly #db: Kysely<Database>;
  constructor(db: Kysely<Database>) {
    this.#db = db;
  }

  /** Whether an operator disabled the account (decision 098). */
  async isDisabled(userId: number): Promise<boolean> {
    const row = await this.#db.selectFrom('users').select('disabled_at').where('id', '=', userId).executeTakeFirst();
    return row?.disabled_at != null;
  }

  /** Runs `work` in one transaction: every repository call given its unit of work commits with the others, or none does. */
  transaction<T>(work: (unit: UnitOfWork) => Promise<T>): Promise<T> {
    return inUnitOfWork(this.#db, work);
  }

  /**
   * Claims a guest for a merge: answers false when the account is no guest (a member, or gone).
   * An update rather than a read: it locks the row until commit (one writer on SQLite), and a
   * merge of the same guest waiting on it re-reads the row and finds it deleted.
   */
  async claimGuest(guestId: number, unit: UnitOfWork): Promise<boolean> {
    const claimed = await executorOf(this.#db, unit)
      .updateTable('users')
      .set({ is_guest: 1 })
      .where('id', '=', guestId)
      .where('is_guest', '=', 1)
      .returning('id')
      .executeTakeFirst();
    return claimed !== undefined;
  }

  /** Deletes a claimed guest; its tokens and whatever rows were left with it go by the foreign keys' cascade. */
  async deleteGuest(guestId: number, unit: UnitOfWork): Promise<void> {
    await executorOf(this.#db, unit).deleteFrom('users').where('id', '=', guestId).execute();
  }
}
