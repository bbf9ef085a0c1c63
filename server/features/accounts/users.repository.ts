import type { Expression, ExpressionBuilder, Kysely, SqlBool } from 'kysely';
import type { Database, UserRow, UserUpdate } from '#server/db/schema.ts';
import { isUniqueViolation } from '#server/db/unique-violation.ts';
import { executorOf, inUnitOfWork, type UnitOfWork } from '#server/db/unit-of-work.ts';

/**
 * A guest that holds nothing private or of its own (decisions 052, 054 and 081): no password,
 * email, phone, uploaded avatar, social account, passkey, order, cloud save or favourite. The one
 * definition device sign-in and the clean-up of unused guests share; play history is not in it.
 */
function holdsNothingPrivate(eb: ExpressionBuilder<Database, 'users'>): Expression<SqlBool> {
  return eb.and([
    eb('users.is_guest', '=', 1),
    eb('users.password_hash', 'is', null),
    eb('users.email', 'is', null),
    eb('users.phone', 'is', null),
    eb('users.avatar', 'is', null),
    eb.not(
      eb.or([
        eb.exists(eb.selectFrom('social_accounts').select('social_accounts.id').whereRef('social_accounts.user_id', '=', 'users.id')),
        eb.exists(eb.selectFrom('webauthn_credentials').select('webauthn_credentials.id').whereRef('webauthn_credentials.user_id', '=', 'users.id')),
        eb.exists(eb.selectFrom('orders').select('orders.id').whereRef('orders.user_id', '=', 'users.id')),
        eb.exists(eb.selectFrom('game_saves').select('game_saves.user_id').whereRef('game_saves.user_id', '=', 'users.id')),
        eb.exists(eb.selectFrom('favourites').select('favourites.user_id').whereRef('favourites.user_id', '=', 'users.id')),
        eb.exists(eb.selectFrom('inventory').select('inventory.user_id').whereRef('inventory.user_id', '=', 'users.id')),
        eb.exists(eb.selectFrom('leaderboard_scores').select('leaderboard_scores.user_id').whereRef('leaderboard_scores.user_id', '=', 'users.id')),
        eb.exists(eb.selectFrom('achievement_unlocks').select('achievement_unlocks.user_id').whereRef('achievement_unlocks.user_id', '=', 'users.id')),
      ]),
    ),
  ]);
}

/** The keyed hashes of a device's fingerprint and device id, as stored. */
export interface DeviceHashes {
  fingerprintHash: string;
  deviceIdHash: string;
}

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

  /** Runs `work` in one transaction: every call given its unit of work commits with the others, or none does. */
  transaction<T>(work: (unit: UnitOfWork) => Promise<T>): Promise<T> {
    return inUnitOfWork(this.#db, work);
  }

  /** Disables (a time) or enables (null) an account; disabling deletes every token of it. False when it was in that state already. */
  async setDisabled(userId: number, disabledAt: string | null, unit: UnitOfWork): Promise<boolean> {
    const trx = executorOf(this.#db, unit);
    const result = await trx
      .updateTable('users')
      .set({ disabled_at: disabledAt })
      .where('id', '=', userId)
      .where('disabled_at', disabledAt === null ? 'is not' : 'is', null)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) return false;
    if (disabledAt !== null) await trx.deleteFrom('access_tokens').where('user_id', '=', userId).execute();
    return true;
  }

  /**
   * Closes an account whose member asked to delete it (decision 147): marks when, and deletes every
   * session token, in `unit`. False when it was closed already (or is gone, or erased).
   */
  async markDeletionRequested(userId: number, now: string, unit: UnitOfWork): Promise<boolean> {
    const trx = executorOf(this.#db, unit);
    const result = await trx
      .updateTable('users')
      .set({ deletion_requested_at: now, deletion_restored_at: null, updated_at: now })
      .where('id', '=', userId)
      .where('deletion_requested_at', 'is', null)
      .where('erased_at', 'is', null)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) return false;
    await trx.deleteFrom('access_tokens').where('user_id', '=', userId).execute();
    return true;
  }

  /** Takes the mark off a closed account (an operator restoring it); false when there was none. */
  async clearDeletionRequest(userId: number, now: string, unit: UnitOfWork): Promise<boolean> {
    const result = await executorOf(this.#db, unit)
      .updateTable('users')
      .set({ deletion_requested_at: null, deletion_restored_at: now })
      .where('id', '=', userId)
      .where('deletion_requested_at', 'is not', null)
      .where('erased_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Accounts closed before `cutoff` and not erased yet, oldest first. */
  async dueForErasure(cutoff: string, limit: number): Promise<number[]> {
    const rows = await this.#db
      .selectFrom('users')
      .select('id')
      .where('deletion_requested_at', '<', cutoff)
      .where('erased_at', 'is', null)
      .orderBy('deletion_requested_at')
      .orderBy('id')
      .limit(limit)
      .execute();
    return rows.map((row) => row.id);
  }

  /**
   * Claims a closed account for its erasure in `unit` (a row lock on PostgreSQL, so a sign-in
   * restoring it waits, then finds it erased): its contact details, which other features' steps
   * erase by, or undefined when it was restored or erased meanwhile.
   */
  async claimForErasure(userId: number, cutoff: string, unit: UnitOfWork) {
    const trx = executorOf(this.#db, unit);
    const claimed = await trx
      .updateTable('users')
      .set({ erased_at: cutoff })
      .where('id', '=', userId)
      .where('deletion_requested_at', '<', cutoff)
      .where('erased_at', 'is', null)
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) === 0) return undefined;
    return trx.selectFrom('users').select(['id', 'username_normalized', 'email', 'phone', 'avatar']).where('id', '=', userId).executeTakeFirstOrThrow();
  }

  /**
   * Erases what the account itself holds (decision 147): every personal column is emptied and the
   * nickname becomes `nickname` (the anonymous name kept scores show); its session tokens and
   * refused sign-ins (by the account, or by `identifiers` typed) go. The row stays, an opaque id that kept scores and orders point to.
   */
  async erase(userId: number, identifiers: string[], nickname: string, now: string, unit: UnitOfWork): Promise<void> {
    const trx = executorOf(this.#db, unit);
    await trx.deleteFrom('access_tokens').where('user_id', '=', userId).execute();
    await trx.deleteFrom('sign_in_failures').where('user_id', '=', userId).execute();
    // Refused sign-ins that reached no account are kept by what was typed: the account's own names go too.
    if (identifiers.length > 0) await trx.deleteFrom('sign_in_failures').where('identifier', 'in', identifiers).execute();
    await trx
      .updateTable('users')
      .set({
        nickname,
        avatar: null,
        username: null,
        username_normalized: null,
        password_hash: null,
        email: null,
        phone: null,
        fingerprint_hash: null,
        fingerprint_at: null,
        device_id_hash: null,
        last_network: null,
        last_seen_at: null,
        webauthn_user_id: null,
        campaign: null,
        is_guest: 0,
        created_at: now,
        updated_at: now,
        disabled_at: null,
        first_app_id: null,
        first_played_at: null,
        email_verified_at: null,
        mail_locale: null,
        deletion_requested_at: null,
        deletion_restored_at: null,
        erased_at: now,
      })
      .where('id', '=', userId)
      .execute();
  }

  async insertGuest(row: { nickname: string; device: DeviceHashes | null; network: string; campaign: string | null; now: string }): Promise<number> {
    const inserted = await this.#db
      .insertInto('users')
      .values({
        nickname: row.nickname,
        fingerprint_hash: row.device?.fingerprintHash ?? null,
        device_id_hash: row.device?.deviceIdHash ?? null,
        fingerprint_at: row.device ? row.now : null,
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
   * Records a guest's device (fingerprint and device id) once: a guest that has one, or an
   * account that is no longer a guest, is left as it is. A guest recorded before device ids
   * (a fingerprint alone) records its device again. True when it was recorded.
   */
  async recordGuestDevice(id: number, device: DeviceHashes, now: string): Promise<boolean> {
    const result = await this.#db
      .updateTable('users')
      .set({ fingerprint_hash: device.fingerprintHash, device_id_hash: device.deviceIdHash, fingerprint_at: now })
      .where('id', '=', id)
      .where('is_guest', '=', 1)
      .where('device_id_hash', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async findById(id: number): Promise<UserWithPasskey | undefined> {
    const row = await this.#db
      .selectFrom('users')
      .selectAll('users')
      .select((eb) =>
        eb
          .exists(eb.selectFrom('webauthn_credentials').select('webauthn_credentials.id').whereRef('webauthn_credentials.user_id', '=', 'users.id'))
          .as('has_passkey'),
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
   * The guest account a device sign-in may reach (decisions 052 and 081): recorded with this
   * fingerprint and this device id, last used from this network, and holding nothing private
   * (`holdsNothingPrivate`). The guest that recorded them first: a later one never shadows it.
   */
  async findDeviceGuest(device: DeviceHashes, network: string): Promise<number | undefined> {
    const row = await this.#db
      .selectFrom('users')
      .select('users.id')
      .where('users.fingerprint_hash', '=', device.fingerprintHash)
      .where('users.device_id_hash', '=', device.deviceIdHash)
      .where('users.last_network', '=', network)
      .where(holdsNothingPrivate)
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
      .where(holdsNothingPrivate)
      // Plays too: a guest with a history is someone's, though device sign-in may still reach it.
      .where((eb) => eb.not(eb.exists(eb.selectFrom('played_games').select('played_games.user_id').whereRef('played_games.user_id', '=', 'users.id'))))
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
   * Deletes up to `limit` guest accounts nobody has used since `cutoff`: holding nothing private
   * (`holdsNothingPrivate`), not seen, no token used and no plays. Their tokens go with them
   * (foreign keys cascade). Returns how many were deleted.
   */
  async deleteUnusedGuests(cutoff: string, limit: number): Promise<number> {
    const unused = this.#db
      .selectFrom('users')
      .select('users.id')
      .where(holdsNothingPrivate)
      .where((eb) => eb(eb.fn.coalesce('users.last_seen_at', 'users.created_at'), '<', cutoff))
      .where((eb) =>
        eb.not(
          eb.or([
            eb.exists(
              eb
                .selectFrom('access_tokens')
                .select('access_tokens.id')
                .whereRef('access_tokens.user_id', '=', 'users.id')
                .where('access_tokens.last_used_at', '>=', cutoff),
            ),
            eb.exists(eb.selectFrom('played_games').select('played_games.user_id').whereRef('played_games.user_id', '=', 'users.id')),
          ]),
        ),
      )
      .orderBy('users.id')
      .limit(limit);
    const result = await this.#db.deleteFrom('users').where('id', 'in', unused).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /** Members (not guests, not disabled) whose confirmed address is `email`, any case: one address may serve several accounts. */
  membersWithVerifiedEmail(email: string) {
    return this.#db
      .selectFrom('users')
      .select(['id', 'nickname', 'username', 'email'])
      .where((eb) => eb(eb.fn('lower', ['email']), '=', email.toLowerCase()))
      .where('email_verified_at', 'is not', null)
      .where('is_guest', '=', 0)
      .where('disabled_at', 'is', null)
      .orderBy('id')
      .limit(10)
      .execute();
  }

  async socialPlatforms(userId: number): Promise<string[]> {
    const rows = await this.#db.selectFrom('social_accounts').select('platform').where('user_id', '=', userId).orderBy('platform').execute();
    return rows.map((r) => r.platform);
  }

  async update(id: number, fields: UserUpdate, unit?: UnitOfWork): Promise<void> {
    await executorOf(this.#db, unit).updateTable('users').set(fields).where('id', '=', id).execute();
  }

  /** A guest made a member in `unit`, with `nickname` when one is given; a member is left as it is. */
  async secureGuest(id: number, nickname: string | null, now: string, unit: UnitOfWork): Promise<void> {
    await executorOf(this.#db, unit)
      .updateTable('users')
      .set({ is_guest: 0, updated_at: now, ...(nickname ? { nickname } : {}) })
      .where('id', '=', id)
      .where('is_guest', '=', 1)
      .execute();
  }

  /** A new member account, signed in by another feature's way (a provider account bound in the same unit). */
  async insertMember(row: { nickname: string; campaign: string | null; now: string }, unit: UnitOfWork): Promise<number> {
    const inserted = await executorOf(this.#db, unit)
      .insertInto('users')
      .values({ nickname: row.nickname, is_guest: 0, campaign: row.campaign, created_at: row.now, updated_at: row.now, last_seen_at: row.now })
      .returning('id')
      .executeTakeFirstOrThrow();
    return inserted.id;
  }

  /** Sets the account's passkey handle unless one is set already (two tabs at once); answers the one that stands. */
  async ensureWebauthnHandle(userId: number, handle: string): Promise<string> {
    await this.#db.updateTable('users').set({ webauthn_user_id: handle }).where('id', '=', userId).where('webauthn_user_id', 'is', null).execute();
    const row = await this.#db.selectFrom('users').select('webauthn_user_id').where('id', '=', userId).executeTakeFirst();
    return row!.webauthn_user_id!;
  }

  /**
   * Sets username and password; false when another account took the username meanwhile
   * (the unique index decides, so two instances cannot both succeed).
   */
  async setCredentials(
    id: number,
    fields: { username: string; usernameNormalized: string; passwordHash: string; now: string },
    unit?: UnitOfWork,
  ): Promise<boolean> {
    try {
      await executorOf(this.#db, unit)
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

  /** What the account itself holds about a member, for "Download my data" (decision 144): no hash, no device secret. */
  async personalDataOf(userId: number) {
    const row = await this.#db
      .selectFrom('users')
      .select([
        'id',
        'nickname',
        'avatar',
        'username',
        'email',
        'email_verified_at',
        'phone',
        'is_guest',
        'campaign',
        'created_at',
        'updated_at',
        'last_seen_at',
        'first_played_at',
      ])
      .select((eb) => [eb('password_hash', 'is not', null).as('has_password'), eb('fingerprint_hash', 'is not', null).as('has_device_sign_in')])
      .where('id', '=', userId)
      .executeTakeFirst();
    return row;
  }
}
