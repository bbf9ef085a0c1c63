import type { Kysely } from 'kysely';
import type { Database } from '#server/db/schema.ts';
import { executorOf, inUnitOfWork, type UnitOfWork } from '#server/db/unit-of-work.ts';

/** A pop-up flow between the authorization request and the code exchange (decision 063). */
export interface OAuthFlowRow {
  /** SHA-256 of the state the provider carries: the state itself is never stored. */
  stateHash: string;
  platform: string;
  /** The opening page's flow id: the callback page names it so only that page takes the answer. */
  flowId: string;
  /** SHA-256 of the browser's flow cookie: only the browser that started the flow may finish it. */
  browserHash: string;
  /** The access token the flow was started with: only that session may finish it. */
  tokenId: number | null;
  codeVerifier: string | null;
  nonce: string;
  expiresAt: string;
}

/** A WhatsApp sign-in code: one live code per number, a new one replaces it. */
export interface PhoneCodeRow {
  phone: string;
  /** HMAC of the number and code under the app secret: six digits would be guessed back from a plain hash. */
  codeHash: string;
  expiresAt: string;
}

export interface SocialAccountRow {
  user_id: number;
  platform: string;
  provider_user_id: string;
}

const FLOW = 'oauth-flow';
const PHONE_CODE = 'whatsapp-code';

/** Social accounts, the pop-up flows and phone codes (both in the feature's one-time challenge table). */
export class SocialRepository {
  readonly #db: Kysely<Database>;
  constructor(db: Kysely<Database>) {
    this.#db = db;
  }

  /** Erases the member's rows of this feature's tables in the erasure's unit of work (decision 147). */
  async eraseMember(userId: number, unit: UnitOfWork): Promise<void> {
    await executorOf(this.#db, unit).deleteFrom('social_accounts').where('user_id', '=', userId).execute();
  }

  async saveFlow(flow: OAuthFlowRow, now: string): Promise<void> {
    const { stateHash, expiresAt, ...payload } = flow;
    await this.#db
      .insertInto('social_challenges')
      .values({
        id: `${FLOW}:${stateHash}`,
        purpose: FLOW,
        challenge: stateHash,
        payload: JSON.stringify(payload),
        expires_at: expiresAt,
        created_at: now,
      })
      .execute();
  }

  /** The flow a state names, left in place (the callback page only reads which page to answer). */
  async peekFlow(stateHash: string): Promise<OAuthFlowRow | undefined> {
    const row = await this.#db.selectFrom('social_challenges').selectAll().where('id', '=', `${FLOW}:${stateHash}`).executeTakeFirst();
    return row ? flowOf(row) : undefined;
  }

  /** Takes a flow out (single use: a second taker, or a replayed code, gets nothing). */
  async takeFlow(stateHash: string): Promise<OAuthFlowRow | undefined> {
    const row = await this.#db.deleteFrom('social_challenges').where('id', '=', `${FLOW}:${stateHash}`).returningAll().executeTakeFirst();
    return row ? flowOf(row) : undefined;
  }

  /** Stores a number's new code in place of any earlier one. */
  async savePhoneCode(code: PhoneCodeRow, now: string): Promise<void> {
    const id = `${PHONE_CODE}:${code.phone}`;
    const values = { purpose: PHONE_CODE, challenge: code.codeHash, payload: null, attempts: 0, expires_at: code.expiresAt, created_at: now };
    await this.#db
      .insertInto('social_challenges')
      .values({ id, ...values })
      .onConflict((oc) => oc.column('id').doUpdateSet(values))
      .execute();
  }

  /**
   * Counts a guess at the number's live code before it is checked, in one atomic update, and
   * answers the code to check it against; nothing once the code has had `maxAttempts` guesses or
   * expired. Guesses sent at once each take their own attempt, so no more than `maxAttempts` are
   * ever checked against one code.
   */
  async takePhoneCodeAttempt(phone: string, maxAttempts: number, now: string): Promise<(PhoneCodeRow & { attempts: number }) | undefined> {
    const row = await this.#db
      .updateTable('social_challenges')
      .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
      .where('id', '=', `${PHONE_CODE}:${phone}`)
      .where('attempts', '<', maxAttempts)
      .where('expires_at', '>', now)
      .returning(['challenge', 'attempts', 'expires_at'])
      .executeTakeFirst();
    return row ? { phone, codeHash: row.challenge, attempts: row.attempts, expiresAt: row.expires_at } : undefined;
  }

  /** Takes the code out if it is still the one checked: two requests with the right code cannot both use it. */
  async takePhoneCode(phone: string, codeHash: string): Promise<boolean> {
    const result = await this.#db
      .deleteFrom('social_challenges')
      .where('id', '=', `${PHONE_CODE}:${phone}`)
      .where('challenge', '=', codeHash)
      .executeTakeFirst();
    return Number(result.numDeletedRows) === 1;
  }

  /** Deletes a code that has had its last guess (not a newer code that replaced it meanwhile). */
  async deleteSpentPhoneCode(phone: string, codeHash: string, maxAttempts: number): Promise<void> {
    await this.#db
      .deleteFrom('social_challenges')
      .where('id', '=', `${PHONE_CODE}:${phone}`)
      .where('challenge', '=', codeHash)
      .where('attempts', '>=', maxAttempts)
      .execute();
  }

  async deletePhoneCode(phone: string): Promise<void> {
    await this.#db.deleteFrom('social_challenges').where('id', '=', `${PHONE_CODE}:${phone}`).execute();
  }

  /** Deletes flows and codes that expired unused; answers how many. */
  async deleteExpired(now: string): Promise<number> {
    const result = await this.#db.deleteFrom('social_challenges').where('expires_at', '<', now).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  findAccount(platform: string, providerUserId: string): Promise<SocialAccountRow | undefined> {
    return this.#db
      .selectFrom('social_accounts')
      .select(['user_id', 'platform', 'provider_user_id'])
      .where('platform', '=', platform)
      .where('provider_user_id', '=', providerUserId)
      .executeTakeFirst();
  }

  /** Runs `work` in one transaction: a binding commits with the account change made beside it, or neither does. */
  transaction<T>(work: (unit: UnitOfWork) => Promise<T>): Promise<T> {
    return inUnitOfWork(this.#db, work);
  }

  /** Binds a provider account to a user in `unit`; the unique constraints refuse a taken one (see `isBindConflict`). */
  async insertBinding(
    userId: number,
    account: { platform: string; providerUserId: string; displayName: string | null; email: string | null },
    now: string,
    unit: UnitOfWork,
  ): Promise<void> {
    await executorOf(this.#db, unit)
      .insertInto('social_accounts')
      .values({
        user_id: userId,
        platform: account.platform,
        provider_user_id: account.providerUserId,
        display_name: account.displayName,
        email: account.email,
        created_at: now,
      })
      .execute();
  }

  /** Whether the provider account, or the user's slot for this platform, is bound already: what a refused binding met. */
  async isBindConflict(userId: number, platform: string, providerUserId: string): Promise<boolean> {
    const row = await this.#db
      .selectFrom('social_accounts')
      .select('id')
      .where('platform', '=', platform)
      .where((eb) => eb.or([eb('provider_user_id', '=', providerUserId), eb('user_id', '=', userId)]))
      .executeTakeFirst();
    return row !== undefined;
  }

  /** The platform's binding of a user, removed unless it is the account's last way to sign in; answers what happened. */
  async unbind(userId: number, platform: string): Promise<'removed' | 'missing' | 'last'> {
    return this.#db.transaction().execute(async (trx) => {
      const ways = await trx
        .selectFrom('users')
        .select((eb) => [
          'users.password_hash',
          eb
            .selectFrom('social_accounts')
            .select((e) => e.fn.countAll<number>().as('n'))
            .whereRef('social_accounts.user_id', '=', 'users.id')
            .as('social'),
          eb
            .selectFrom('webauthn_credentials')
            .select((e) => e.fn.countAll<number>().as('n'))
            .whereRef('webauthn_credentials.user_id', '=', 'users.id')
            .as('passkeys'),
        ])
        .where('users.id', '=', userId)
        .executeTakeFirst();
      const bound = await trx.selectFrom('social_accounts').select('id').where('user_id', '=', userId).where('platform', '=', platform).executeTakeFirst();
      if (!ways || !bound) return 'missing';
      if (ways.password_hash === null && Number(ways.social) <= 1 && Number(ways.passkeys) === 0) return 'last';
      await trx.deleteFrom('social_accounts').where('id', '=', bound.id).execute();
      return 'removed';
    });
  }

  async isGuest(userId: number): Promise<boolean> {
    const row = await this.#db.selectFrom('users').select('is_guest').where('id', '=', userId).executeTakeFirst();
    return row?.is_guest === 1;
  }

  /** A member's bound provider accounts for "Download my data" (decision 144). */
  personalDataOf(userId: number) {
    return this.#db
      .selectFrom('social_accounts')
      .select(['platform', 'provider_user_id', 'display_name', 'email', 'created_at'])
      .where('user_id', '=', userId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
  }
}

function flowOf(row: { challenge: string; payload: string | null; expires_at: string }): OAuthFlowRow {
  const payload = JSON.parse(row.payload ?? '{}') as Omit<OAuthFlowRow, 'stateHash' | 'expiresAt'>;
  return { ...payload, stateHash: row.challenge, expiresAt: row.expires_at };
}
