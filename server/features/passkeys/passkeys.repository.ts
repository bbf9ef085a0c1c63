import type { Kysely, Selectable } from 'kysely';
import type { Database, WebauthnCredentialsTable } from '#server/db/schema.ts';
import { executorOf, inUnitOfWork, type UnitOfWork } from '#server/db/unit-of-work.ts';

export type CredentialRow = Selectable<WebauthnCredentialsTable>;

export interface NewCredential {
  credentialId: string;
  publicKey: string;
  counter: number;
  transports: string[];
  deviceType: string;
  backedUp: boolean;
  aaguid: string;
  name: string;
}

export interface ChallengeRow {
  challenge: string;
  purpose: 'passkey-create' | 'passkey-login';
  userId: number | null;
  /** The access token the ceremony was started with: only that session may finish it. */
  tokenId: number | null;
  expiresAt: string;
}

/** Passkeys, their one-time ceremony challenges, and each account's WebAuthn user handle. */
export class PasskeysRepository {
  readonly #db: Kysely<Database>;
  constructor(db: Kysely<Database>) {
    this.#db = db;
  }

  /** Erases the member's rows of this feature's tables in the erasure's unit of work (decision 147). */
  async eraseMember(userId: number, unit: UnitOfWork): Promise<void> {
    const db = executorOf(this.#db, unit);
    await db.deleteFrom('webauthn_credentials').where('user_id', '=', userId).execute();
    await db.deleteFrom('auth_challenges').where('user_id', '=', userId).execute();
  }

  async userHandle(userId: number): Promise<string | null> {
    const row = await this.#db.selectFrom('users').select('webauthn_user_id').where('id', '=', userId).executeTakeFirst();
    return row?.webauthn_user_id ?? null;
  }

  async userIdByHandle(handle: string): Promise<number | undefined> {
    const row = await this.#db.selectFrom('users').select('id').where('webauthn_user_id', '=', handle).executeTakeFirst();
    return row?.id;
  }

  listForUser(userId: number): Promise<CredentialRow[]> {
    return this.#db.selectFrom('webauthn_credentials').selectAll().where('user_id', '=', userId).orderBy('created_at', 'asc').orderBy('id', 'asc').execute();
  }

  findByCredentialId(credentialId: string): Promise<CredentialRow | undefined> {
    return this.#db.selectFrom('webauthn_credentials').selectAll().where('credential_id', '=', credentialId).executeTakeFirst();
  }

  /** Runs `work` in one transaction: every call given its unit of work commits with the others, or none does. */
  transaction<T>(work: (unit: UnitOfWork) => Promise<T>): Promise<T> {
    return inUnitOfWork(this.#db, work);
  }

  /** Stores a passkey; null when the credential is registered already (to anyone). */
  async addCredential(userId: number, credential: NewCredential, now: string, unit: UnitOfWork): Promise<CredentialRow | null> {
    const trx = executorOf(this.#db, unit);
    const taken = await trx.selectFrom('webauthn_credentials').select('id').where('credential_id', '=', credential.credentialId).executeTakeFirst();
    if (taken) return null;
    const row = await trx
      .insertInto('webauthn_credentials')
      .values({
        user_id: userId,
        credential_id: credential.credentialId,
        public_key: credential.publicKey,
        counter: credential.counter,
        transports: JSON.stringify(credential.transports),
        device_type: credential.deviceType,
        backed_up: credential.backedUp ? 1 : 0,
        aaguid: credential.aaguid,
        name: credential.name,
        created_at: now,
        last_used_at: null,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return row;
  }

  /** Records a sign-in: the new signature counter and the time. */
  async markUsed(id: number, counter: number, now: string): Promise<void> {
    await this.#db.updateTable('webauthn_credentials').set({ counter, last_used_at: now }).where('id', '=', id).execute();
  }

  /** The renamed passkey, or undefined when the user has none by that id. */
  rename(userId: number, id: number, name: string): Promise<CredentialRow | undefined> {
    return this.#db.updateTable('webauthn_credentials').set({ name }).where('id', '=', id).where('user_id', '=', userId).returningAll().executeTakeFirst();
  }

  async remove(userId: number, id: number): Promise<boolean> {
    const result = await this.#db.deleteFrom('webauthn_credentials').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** Whether the account can sign in without a passkey: a password, or a bound social account. */
  async hasOtherSignIn(userId: number): Promise<boolean> {
    const row = await this.#db
      .selectFrom('users')
      .select((eb) => [
        'users.password_hash',
        eb.exists(eb.selectFrom('social_accounts').select('social_accounts.id').whereRef('social_accounts.user_id', '=', 'users.id')).as('has_social'),
      ])
      .where('users.id', '=', userId)
      .executeTakeFirst();
    return Boolean(row && (row.password_hash !== null || row.has_social));
  }

  async saveChallenge(challenge: ChallengeRow, now: string): Promise<void> {
    await this.#db
      .insertInto('auth_challenges')
      .values({
        id: challenge.challenge,
        purpose: challenge.purpose,
        challenge: challenge.challenge,
        user_id: challenge.userId,
        payload: JSON.stringify({ tokenId: challenge.tokenId }),
        expires_at: challenge.expiresAt,
        created_at: now,
      })
      .execute();
  }

  /** Deletes the passkey challenges that expired unused; answers how many. */
  async deleteExpiredChallenges(now: string): Promise<number> {
    const result = await this.#db
      .deleteFrom('auth_challenges')
      .where('expires_at', '<', now)
      .where('purpose', 'in', ['passkey-create', 'passkey-login'])
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /** Takes a challenge out (single use: a second taker gets nothing), or undefined. */
  async takeChallenge(challenge: string, purpose: ChallengeRow['purpose']): Promise<ChallengeRow | undefined> {
    const row = await this.#db.deleteFrom('auth_challenges').where('id', '=', challenge).where('purpose', '=', purpose).returningAll().executeTakeFirst();
    if (!row) return undefined;
    const payload = JSON.parse(row.payload ?? '{}') as { tokenId?: number | null };
    return { challenge: row.challenge, purpose, userId: row.user_id, tokenId: payload.tokenId ?? null, expiresAt: row.expires_at };
  }

  /** A member's passkeys for "Download my data" (decision 144): their names and dates, not the keys. */
  personalDataOf(userId: number) {
    return this.#db
      .selectFrom('webauthn_credentials')
      .select(['name', 'device_type', 'backed_up', 'transports', 'created_at', 'last_used_at'])
      .where('user_id', '=', userId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
  }
}
