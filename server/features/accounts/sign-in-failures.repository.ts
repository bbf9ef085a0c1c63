import type { Kysely, Selectable } from 'kysely';
import type { Database, SignInFailuresTable } from '#server/db/schema.ts';

export type SignInFailureRow = Selectable<SignInFailuresTable>;

/** Failed sign-ins (decision 098), kept bounded: the newest few per identifier, and a ceiling in all. */
export class SignInFailuresRepository {
  readonly #db: Kysely<Database>;
  constructor(db: Kysely<Database>) {
    this.#db = db;
  }

  /** The member a WhatsApp number signs in: the social account, else the profile's phone. */
  async memberOfPhone(phone: string): Promise<number | null> {
    const social = await this.#db
      .selectFrom('social_accounts')
      .select('user_id')
      .where('platform', '=', 'whatsapp')
      .where('provider_user_id', '=', phone)
      .executeTakeFirst();
    if (social) return social.user_id;
    const user = await this.#db.selectFrom('users').select('id').where('phone', '=', phone).where('is_guest', '=', 0).executeTakeFirst();
    return user?.id ?? null;
  }

  /**
   * Appends a failure, then trims: rows of the same identifier beyond `perIdentifier`, and rows
   * older than the newest `total` (ids grow, so the oldest are the lowest).
   */
  async record(row: Omit<SignInFailureRow, 'id'>, limits: { perIdentifier: number; total: number }): Promise<void> {
    const { id } = await this.#db.insertInto('sign_in_failures').values(row).returning('id').executeTakeFirstOrThrow();
    const kept = this.#db
      .selectFrom('sign_in_failures')
      .select('id')
      .where('identifier', '=', row.identifier)
      .orderBy('id', 'desc')
      .limit(limits.perIdentifier);
    await this.#db.deleteFrom('sign_in_failures').where('identifier', '=', row.identifier).where('id', 'not in', kept).execute();
    await this.#db
      .deleteFrom('sign_in_failures')
      .where('id', '<=', id - limits.total)
      .execute();
  }

  /** A member's newest failures, and those naming their username or phone before the account was known. */
  recent(member: { id: number; identifiers: string[] }, limit: number): Promise<SignInFailureRow[]> {
    return this.#db
      .selectFrom('sign_in_failures')
      .selectAll()
      .where((eb) =>
        member.identifiers.length > 0 ? eb.or([eb('user_id', '=', member.id), eb('identifier', 'in', member.identifiers)]) : eb('user_id', '=', member.id),
      )
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
  }

  /** The refused sign-ins to a member's account, for "Download my data" (decision 144). */
  failuresOf(userId: number) {
    return this.#db
      .selectFrom('sign_in_failures')
      .select(['identifier', 'method', 'address', 'created_at'])
      .where('user_id', '=', userId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
  }
}
