import type { Kysely } from 'kysely';
import type { Database } from '#server/db/schema.ts';
import { executorOf, type UnitOfWork } from '#server/db/unit-of-work.ts';

export interface OperatorRow {
  userId: number;
  email: string | null;
  username: string | null;
  grantedAt: string;
}

/** Who runs the portal (decision 095). Written only by the `operators` command. */
export class OperatorsRepository {
  readonly #db: Kysely<Database>;
  constructor(db: Kysely<Database>) {
    this.#db = db;
  }

  /** Erases the member's rows of this feature's tables in the erasure's unit of work (decision 147). */
  async eraseMember(userId: number, unit: UnitOfWork): Promise<void> {
    await executorOf(this.#db, unit).deleteFrom('operators').where('user_id', '=', userId).execute();
  }

  async isOperator(userId: number): Promise<boolean> {
    const row = await this.#db.selectFrom('operators').select('user_id').where('user_id', '=', userId).executeTakeFirst();
    return row !== undefined;
  }

  /** The member a command names, by e-mail, username or id; guests are never operators. */
  async findMember(identifier: string): Promise<{ id: number } | undefined> {
    const query = this.#db.selectFrom('users').select('id').where('is_guest', '=', 0);
    if (/^\d+$/.test(identifier)) return query.where('id', '=', Number(identifier)).executeTakeFirst();
    const lower = identifier.toLowerCase();
    return query.where((eb) => eb.or([eb(eb.fn('lower', ['email']), '=', lower), eb('username_normalized', '=', lower)])).executeTakeFirst();
  }

  async grant(userId: number, now: string): Promise<void> {
    await this.#db
      .insertInto('operators')
      .values({ user_id: userId, granted_at: now })
      .onConflict((oc) => oc.column('user_id').doNothing())
      .execute();
  }

  async revoke(userId: number): Promise<boolean> {
    const result = await this.#db.deleteFrom('operators').where('user_id', '=', userId).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async list(): Promise<OperatorRow[]> {
    const rows = await this.#db
      .selectFrom('operators')
      .innerJoin('users', 'users.id', 'operators.user_id')
      .select(['operators.user_id', 'users.email', 'users.username', 'operators.granted_at'])
      .orderBy('operators.granted_at')
      .execute();
    return rows.map((row) => ({ userId: row.user_id, email: row.email, username: row.username, grantedAt: row.granted_at }));
  }
}
