import type { Kysely } from 'kysely';
import type { Database, UserRow, UserUpdate } from '#server/db/schema.ts';

/** A user row with what user info needs besides it. */
export interface UserWithPasskey extends UserRow {
  has_passkey: boolean;
}

/** The users table and the facts about a user that other account tables hold. */
export class UsersRepository {
  readonly #db: Kysely<Database>;
  constructor(db: Kysely<Database>) {
    this.#db = db;
  }

  async insertGuest(row: { nickname: string; fingerprintHash: string | null; network: string; campaign: string | null; now: string }): Promise<number> {
    const inserted = await this.#db
      .insertInto('users')
      .values({
        nickname: row.nickname,
        fingerprint_hash: row.fingerprintHash,
        fingerprint_at: row.fingerprintHash ? row.now : null,
        last_network: row.network,
        last_seen_at: row.now,
        campaign: row.campaign,
        is_guest: 1,
        created_at: row.now,
        updated_at: row.now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return inserted.id;
  }

  /**
   * Records a guest's device fingerprint once: a guest that has one, or an account that is no
   * longer a guest, is left as it is. True when it was recorded.
   */
  async recordGuestDevice(id: number, fingerprintHash: string, now: string): Promise<boolean> {
    const result = await this.#db
      .updateTable('users')
      .set({ fingerprint_hash: fingerprintHash, fingerprint_at: now })
      .where('id', '=', id)
      .where('is_guest', '=', 1)
      .where('fingerprint_hash', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async findById(id: number): Promise<UserWithPasskey | undefined> {
    const row = await this.#db
      .selectFrom('users')
      .selectAll('users')
      .select((eb) =>
        eb.exists(eb.selectFrom('webauthn_credentials').select('webauthn_credentials.id').whereRef('webauthn_credentials.user_id', '=', 'users.id')).as('has_passkey'),
      )
      .where('users.id', '=', id)
      .executeTakeFirst();
    // PostgreSQL answers EXISTS with a boolean, SQLite with 0 or 1.
    return row ? { ...row, has_passkey: Boolean(row.has_passkey) } : undefined;
  }

  findByUsername(usernameNormalized: string): Promise<UserRow | undefined> {
    return this.#db.selectFrom('users').selectAll().where('username_normalized', '=', usernameNormalized).executeTakeFirst();
  }

  /**
   * The guest account a device sign-in may reach (decision 052): made with this fingerprint, last
   * used from this network, and holding nothing private or of its own to sign in with: no
   * password, email, phone, uploaded avatar, social account, passkey or order. The guest that
   * recorded the fingerprint first: a later one never shadows it.
   */
  async findDeviceGuest(fingerprintHash: string, network: string): Promise<number | undefined> {
    const row = await this.#db
      .selectFrom('users')
      .select('users.id')
      .where('users.fingerprint_hash', '=', fingerprintHash)
      .where('users.last_network', '=', network)
      .where('users.is_guest', '=', 1)
      .where('users.password_hash', 'is', null)
      .where('users.email', 'is', null)
      .where('users.phone', 'is', null)
      .where('users.avatar', 'is', null)
      .where((eb) =>
        eb.not(eb.exists(eb.selectFrom('social_accounts').select('social_accounts.id').whereRef('social_accounts.user_id', '=', 'users.id'))),
      )
      .where((eb) =>
        eb.not(
          eb.exists(eb.selectFrom('webauthn_credentials').select('webauthn_credentials.id').whereRef('webauthn_credentials.user_id', '=', 'users.id')),
        ),
      )
      .where((eb) => eb.not(eb.exists(eb.selectFrom('orders').select('orders.id').whereRef('orders.user_id', '=', 'users.id'))))
      .orderBy('users.fingerprint_at', 'asc')
      .orderBy('users.id', 'asc')
      .limit(1)
      .executeTakeFirst();
    return row?.id;
  }

  /**
   * Whether an account holds nothing a person would miss if another session replaced it (decision
   * 050): a guest with no plays, favourites, saves or orders, no credential, email, phone, avatar,
   * social account or passkey. A member, or an account that is gone, is never empty.
   */
  async isEmptyGuest(id: number): Promise<boolean> {
    const row = await this.#db
      .selectFrom('users')
      .select('users.id')
      .where('users.id', '=', id)
      .where('users.is_guest', '=', 1)
      .where('users.password_hash', 'is', null)
      .where('users.email', 'is', null)
      .where('users.phone', 'is', null)
      .where('users.avatar', 'is', null)
      .where((eb) =>
        eb.not(
          eb.or([
            eb.exists(eb.selectFrom('played_games').select('played_games.user_id').whereRef('played_games.user_id', '=', 'users.id')),
            eb.exists(eb.selectFrom('favourites').select('favourites.user_id').whereRef('favourites.user_id', '=', 'users.id')),
            eb.exists(eb.selectFrom('social_accounts').select('social_accounts.id').whereRef('social_accounts.user_id', '=', 'users.id')),
            eb.exists(eb.selectFrom('webauthn_credentials').select('webauthn_credentials.id').whereRef('webauthn_credentials.user_id', '=', 'users.id')),
            eb.exists(eb.selectFrom('orders').select('orders.id').whereRef('orders.user_id', '=', 'users.id')),
            eb.exists(eb.selectFrom('game_saves').select('game_saves.user_id').whereRef('game_saves.user_id', '=', 'users.id')),
          ]),
        ),
      )
      .executeTakeFirst();
    return row !== undefined;
  }

  /**
   * Notes that a guest was used from a network. Writes only when the network changed or the
   * last note is older than `staleBefore`, so a busy guest does not turn every read into a write.
   */
  async noteGuestSeen(id: number, network: string, now: string, staleBefore: string): Promise<void> {
    await this.#db
      .updateTable('users')
      .set({ last_network: network, last_seen_at: now })
      .where('id', '=', id)
      .where('is_guest', '=', 1)
      .where((eb) =>
        eb.or([eb('last_network', 'is', null), eb('last_network', '!=', network), eb('last_seen_at', 'is', null), eb('last_seen_at', '<', staleBefore)]),
      )
      .execute();
  }

  /**
   * Deletes up to `limit` guest accounts nobody has used since `cutoff`: not seen, no token used,
   * no plays, favourites, saves or orders, and nothing of their own (no credential, email, phone or avatar).
   * Their tokens go with them (foreign keys cascade). Returns how many were deleted.
   */
  async deleteUnusedGuests(cutoff: string, limit: number): Promise<number> {
    const unused = this.#db
      .selectFrom('users')
      .select('users.id')
      .where('users.is_guest', '=', 1)
      .where('users.password_hash', 'is', null)
      .where('users.email', 'is', null)
      .where('users.phone', 'is', null)
      .where('users.avatar', 'is', null)
      .where((eb) => eb(eb.fn.coalesce('users.last_seen_at', 'users.created_at'), '<', cutoff))
      .where((eb) =>
        eb.not(
          eb.or([
            eb.exists(eb.selectFrom('access_tokens').select('access_tokens.id').whereRef('access_tokens.user_id', '=', 'users.id').where('access_tokens.last_used_at', '>=', cutoff)),
            eb.exists(eb.selectFrom('played_games').select('played_games.user_id').whereRef('played_games.user_id', '=', 'users.id')),
            eb.exists(eb.selectFrom('favourites').select('favourites.user_id').whereRef('favourites.user_id', '=', 'users.id')),
            eb.exists(eb.selectFrom('social_accounts').select('social_accounts.id').whereRef('social_accounts.user_id', '=', 'users.id')),
            eb.exists(eb.selectFrom('webauthn_credentials').select('webauthn_credentials.id').whereRef('webauthn_credentials.user_id', '=', 'users.id')),
            eb.exists(eb.selectFrom('orders').select('orders.id').whereRef('orders.user_id', '=', 'users.id')),
            eb.exists(eb.selectFrom('game_saves').select('game_saves.user_id').whereRef('game_saves.user_id', '=', 'users.id')),
          ]),
        ),
      )
      .orderBy('users.id')
      .limit(limit);
    const result = await this.#db.deleteFrom('users').where('id', 'in', unused).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  async socialPlatforms(userId: number): Promise<string[]> {
    const rows = await this.#db.selectFrom('social_accounts').select('platform').where('user_id', '=', userId).orderBy('platform').execute();
    return rows.map((r) => r.platform);
  }

  async update(id: number, fields: UserUpdate): Promise<void> {
    await this.#db.updateTable('users').set(fields).where('id', '=', id).execute();
  }

  /**
   * Sets username and password; false when another account took the username meanwhile
   * (the unique index decides, so two instances cannot both succeed).
   */
  async setCredentials(id: number, fields: { username: string; usernameNormalized: string; passwordHash: string; now: string }): Promise<boolean> {
    try {
      await this.#db
        .updateTable('users')
        .set({
          username: fields.username,
          username_normalized: fields.usernameNormalized,
          password_hash: fields.passwordHash,
          is_guest: 0,
          updated_at: fields.now,
        })
        .where('id', '=', id)
        .execute();
      return true;
    } catch (error) {
      if (isUniqueViolation(error)) return false;
      throw error;
    }
  }
}

/** better-sqlite3 and pg report a unique-index conflict differently. */
function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === '23505';
}
