import type { Kysely } from 'kysely';
import type { Database } from '#server/db/schema.ts';

export interface MemberRow {
  id: number;
  username: string | null;
  nickname: string | null;
  email: string | null;
  phone: string | null;
  is_guest: number;
  disabled_at: string | null;
  created_at: string;
  deletion_requested_at: string | null;
  erased_at: string | null;
}

const MEMBER_COLUMNS = ['id', 'username', 'nickname', 'email', 'phone', 'is_guest', 'disabled_at', 'created_at', 'deletion_requested_at', 'erased_at'] as const;

/** What operators see of members and change on them (decision 098); every change takes the audit entry's writer. */
export class ConsoleMembersRepository {
  readonly #db: Kysely<Database>;
  constructor(db: Kysely<Database>) {
    this.#db = db;
  }

  /** Members by id, username, e-mail or phone (exact, case-insensitive for names and e-mails). */
  find(query: string, limit: number): Promise<MemberRow[]> {
    const lower = query.toLowerCase();
    const id = /^\d{1,15}$/.test(query) ? Number(query) : null;
    return this.#db
      .selectFrom('users')
      .select(MEMBER_COLUMNS)
      .where((eb) =>
        eb.or([
          eb('username_normalized', '=', lower),
          eb(eb.fn('lower', ['email']), '=', lower),
          eb('phone', '=', query),
          ...(id !== null ? [eb('id', '=', id)] : []),
        ]),
      )
      .orderBy('id')
      .limit(limit)
      .execute();
  }

  member(userId: number): Promise<MemberRow | undefined> {
    return this.#db.selectFrom('users').select(MEMBER_COLUMNS).where('id', '=', userId).executeTakeFirst();
  }

  /** How the member can sign in: password, passkeys, social accounts (WhatsApp among them), device, open sessions. */
  async signInMethods(userId: number) {
    const [user, passkeys, social, sessions] = await Promise.all([
      this.#db.selectFrom('users').select(['password_hash', 'fingerprint_hash', 'device_id_hash']).where('id', '=', userId).executeTakeFirstOrThrow(),
      this.#db.selectFrom('webauthn_credentials').select(['name', 'created_at', 'last_used_at']).where('user_id', '=', userId).orderBy('id').execute(),
      this.#db
        .selectFrom('social_accounts')
        .select(['platform', 'provider_user_id', 'display_name', 'created_at'])
        .where('user_id', '=', userId)
        .orderBy('id')
        .execute(),
      this.#db
        .selectFrom('access_tokens')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('user_id', '=', userId)
        .executeTakeFirstOrThrow(),
    ]);
    return {
      password: user.password_hash !== null,
      device: user.fingerprint_hash !== null && user.device_id_hash !== null,
      passkeys,
      social,
      sessions: Number(sessions.n),
    };
  }

  /** Usernames of operators, for the audit log. */
  async usernames(userIds: number[]): Promise<Map<number, string | null>> {
    if (userIds.length === 0) return new Map();
    const rows = await this.#db.selectFrom('users').select(['id', 'username']).where('id', 'in', userIds).execute();
    return new Map(rows.map((row) => [row.id, row.username]));
  }

  /** The overview's counts. */
  async counts() {
    const [members, disabled, paid, refunded, audit, deletions] = await Promise.all([
      this.#db
        .selectFrom('users')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('is_guest', '=', 0)
        .executeTakeFirstOrThrow(),
      this.#db
        .selectFrom('users')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('disabled_at', 'is not', null)
        .executeTakeFirstOrThrow(),
      this.#db
        .selectFrom('orders')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('status', '=', 'paid')
        .executeTakeFirstOrThrow(),
      this.#db
        .selectFrom('orders')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('status', '=', 'refunded')
        .executeTakeFirstOrThrow(),
      this.#db
        .selectFrom('audit_log')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .executeTakeFirstOrThrow(),
      // Accounts closed by their members and not erased yet (decision 147).
      this.#db
        .selectFrom('users')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('deletion_requested_at', 'is not', null)
        .where('erased_at', 'is', null)
        .executeTakeFirstOrThrow(),
    ]);
    return {
      members: Number(members.n),
      deletionsPending: Number(deletions.n),
      disabledMembers: Number(disabled.n),
      paidOrders: Number(paid.n),
      refundedOrders: Number(refunded.n),
      auditEntries: Number(audit.n),
    };
  }
}
