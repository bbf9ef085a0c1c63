import type { MemberDataFile } from '../member-data/member-data.service.ts';
import {
  type AvatarUploadResult,
  type MemberUpdate,
  type PasswordBody,
  type PasswordUpdate,
  type Profile,
  type Session,
  type UserInfo,
} from '#common/api/accounts.schema.ts';
import type { UnitOfWork } from '#server/db/unit-of-work.ts';
import { type Caller, type ClientFacts, tokenName } from '#server/lib/caller.ts';
import { AppError, fieldError, refusal } from '#server/lib/app-error.ts';
import { type Clock, isoNow } from '#server/lib/clock.ts';
import { clientSubject } from '#server/lib/network.ts';
import { assertAllowed, type RateLimiter } from '#server/adapters/rate-limits/rate-limiter.ts';
import { ACCOUNT_LIMITS, type Counter } from './account-limits.ts';
import type { AccessTokensService } from './access-tokens.service.ts';
import type { AccountNoticesService } from './account-notices.service.ts';
import type { AccountsDependencies } from './accounts-dependencies.ts';
import type { AvatarsService } from './avatars.service.ts';
import type { PasswordHasher } from './password-hasher.ts';
import type { PasswordPolicy } from './password-policy.ts';
import type { UsersRepository, UserWithPasskey } from './users.repository.ts';
import type { ConversionsService } from '../tracking/conversions.service.ts';

/** A password change; `becameMember` is true when a guest just became a member (registration). */
export interface PasswordChange extends PasswordUpdate {
  becameMember: boolean;
}

/**
 * A member's account as it is: user info, the profile fields, the username and password, the
 * avatar, and the changes other features make to it (a passkey's handle, secured, created by a
 * social sign-in, disabled).
 */
/** How recent a sign-in stands in for the password of an account that has none (decision 145). */
const FRESH_SIGN_IN_MS = 10 * 60 * 1000;

export class AccountProfileService {
  readonly #users: UsersRepository;
  readonly #tokens: AccessTokensService;
  readonly #hasher: PasswordHasher;
  readonly #passwordPolicy: PasswordPolicy;
  readonly #limiter: RateLimiter;
  readonly #avatars: AvatarsService;
  readonly #clock: Clock;
  readonly #conversions: Pick<ConversionsService, 'registration'> | null;

  readonly #notices: Pick<AccountNoticesService, 'changed'> | null;

  constructor(
    deps: Pick<AccountsDependencies, 'users' | 'tokens' | 'hasher' | 'passwordPolicy' | 'limiter' | 'avatars' | 'clock' | 'conversions'>,
    notices?: Pick<AccountNoticesService, 'changed'>,
  ) {
    this.#notices = notices ?? null;
    this.#users = deps.users;
    this.#tokens = deps.tokens;
    this.#hasher = deps.hasher;
    this.#passwordPolicy = deps.passwordPolicy;
    this.#limiter = deps.limiter;
    this.#avatars = deps.avatars;
    this.#clock = deps.clock;
    this.#conversions = deps.conversions ?? null;
  }

  /** The account's passkey handle: `handle` unless another request set one first (decision 005's user handle). */
  ensurePasskeyHandle(userId: number, handle: string): Promise<string> {
    return this.#users.ensureWebauthnHandle(userId, handle);
  }

  /** Makes a guest a member in the caller's unit of work: a way to sign in was added (the same uid, nothing lost). */
  async markSecured(userId: number, now: string, unit: UnitOfWork): Promise<void> {
    await this.#users.update(userId, { is_guest: 0, updated_at: now }, unit);
  }

  /** Makes a guest a member in the caller's unit of work, named `nickname` when one is given; a member stays as it is. */
  async secureGuest(userId: number, nickname: string | null, now: string, unit: UnitOfWork): Promise<void> {
    await this.#users.secureGuest(userId, nickname, now, unit);
  }

  /** A new member account in the caller's unit of work (a social sign-in binds its provider account in the same one). */
  createMember(fields: { nickname: string; campaign: string | null; now: string }, unit: UnitOfWork): Promise<number> {
    return this.#users.insertMember(fields, unit);
  }

  /**
   * Disables (a time) or enables (null) an account, with `record` (the operator's audit entry) in
   * the same transaction; disabling ends every session at once. False when it was in that state already.
   */
  setDisabled(userId: number, disabledAt: string | null, record: (unit: UnitOfWork) => Promise<void>): Promise<boolean> {
    return this.#users.transaction(async (unit) => {
      if (!(await this.#users.setDisabled(userId, disabledAt, unit))) return false;
      await record(unit);
      return true;
    });
  }

  async userInfo(userId: number): Promise<UserInfo> {
    return this.#userInfoOf(await this.#user(userId));
  }

  /**
   * Resolves a token (as the token cookie holds it, URL-encoded or not) to its session, or null.
   * For page loaders: one token lookup and two small user queries.
   */
  async userInfoForToken(token: string | null | undefined): Promise<Session | null> {
    const value = token?.includes('%') ? safeDecode(token) : token;
    if (!value) return null;
    const caller = await this.#tokens.verify(value);
    if (!caller) return null;
    const user = await this.#users.findById(caller.userId);
    if (!user) return null;
    return { token: value, userInfo: await this.#userInfoOf(user) };
  }

  async profile(userId: number): Promise<Profile> {
    return this.#profileOf(await this.#user(userId));
  }

  async updateNickname(userId: number, nickname: string): Promise<MemberUpdate> {
    await this.#user(userId);
    await this.#users.update(userId, { nickname, updated_at: isoNow(this.#clock) });
    return this.memberUpdate(userId);
  }

  /** Saves the phone number; a member changing or removing a saved one proves it is them again (ASVS 7.5.1, decision 146). */
  async updatePhone(caller: Caller, body: { phone: string | null; currentPassword?: string }, client: ClientFacts): Promise<MemberUpdate> {
    const user = await this.#user(caller.userId);
    const changes = user.phone !== null && body.phone !== user.phone;
    if (changes && user.is_guest === 0) await this.confirmIdentity(caller, body.currentPassword);
    await this.#users.update(user.id, { phone: body.phone, updated_at: isoNow(this.#clock) });
    if (changes) await this.#notices?.changed(user.id, 'phone', client);
    return this.memberUpdate(user.id);
  }

  /**
   * Sets the username and password. A guest becomes a member on the same user row, so
   * everything keyed by the user id (played games, purchases) stays. Changing an existing
   * password needs the current one. Either way the session is rotated: the answer carries a new
   * token and every earlier one stops working, the caller's included (decision 054).
   */
  async setPassword(caller: Caller, body: PasswordBody, client: ClientFacts): Promise<PasswordChange> {
    const user = await this.#user(caller.userId);
    if (user.password_hash) await this.#checkCurrentPassword(user.id, user.password_hash, body.currentPassword);
    const username = body.username ?? user.username;
    if (!username) throw fieldError({ username: ['accounts:username.required'] });
    const weakness = await this.#passwordPolicy.problem(body.password, [username, user.nickname ?? '']);
    if (weakness) throw fieldError({ password: [weakness] });
    const normalized = username.toLowerCase();
    if (normalized !== user.username_normalized) {
      // Each name tried tells whether it is taken: as limited as a sign-in attempt.
      assertAllowed(
        await this.#limiter.consume(ACCOUNT_LIMITS.registerAddress, clientSubject(client.address)),
        await this.#limiter.consume(ACCOUNT_LIMITS.registerAccount, String(user.id)),
      );
      const owner = await this.#users.findByUsername(normalized);
      if (owner && owner.id !== user.id) throw usernameTaken();
    }
    const passwordHash = await this.#hasher.hash(body.password);
    const saved = await this.#users.setCredentials(user.id, { username, usernameNormalized: normalized, passwordHash, now: isoNow(this.#clock) });
    if (!saved) throw usernameTaken();
    const { token } = await this.#tokens.rotate(user.id, tokenName('password', client));
    if (user.is_guest === 1) this.#conversions?.registration(user.id, client);
    if (user.password_hash) await this.#notices?.changed(user.id, 'password', client);
    return { ...(await this.memberUpdate(user.id)), token, becameMember: user.is_guest === 1 };
  }

  /** Stores a new avatar (validated and re-encoded) and deletes the previous one's files. */
  async setAvatar(userId: number, bytes: Buffer): Promise<AvatarUploadResult> {
    const user = await this.#user(userId);
    assertAllowed(await this.#limiter.consume(ACCOUNT_LIMITS.avatarUser, String(userId)));
    const stored = await this.#avatars.store(userId, bytes);
    try {
      await this.#users.update(userId, { avatar: stored.url, updated_at: isoNow(this.#clock) });
    } catch (error) {
      if (stored.url !== user.avatar) await this.#avatars.remove(stored.url);
      throw error;
    }
    if (user.avatar !== stored.url) await this.#avatars.remove(user.avatar);
    return { ...(await this.memberUpdate(userId)), avatar: stored };
  }

  async #user(userId: number): Promise<UserWithPasskey> {
    const user = await this.#users.findById(userId);
    // Tokens are deleted with their user, so this only happens in a race with a deletion.
    if (!user) throw new AppError('unauthenticated');
    return user;
  }

  async #userInfoOf(user: UserWithPasskey): Promise<UserInfo> {
    return {
      uid: user.id,
      nickname: user.nickname,
      avatar: user.avatar,
      social_providers: await this.#users.socialPlatforms(user.id),
      webauthn: user.has_passkey,
      isGuest: user.is_guest === 1,
    };
  }

  #profileOf(user: UserWithPasskey): Profile {
    return {
      uid: user.id,
      username: user.username,
      nickname: user.nickname,
      avatar: user.avatar,
      avatarSizes: this.#avatars.sizesFor(user.avatar),
      email: user.email,
      phone: user.phone,
      hasPassword: user.password_hash !== null,
      isGuest: user.is_guest === 1,
    };
  }

  /** What a profile change answers: the user info and profile as they are now. */
  async memberUpdate(userId: number): Promise<MemberUpdate> {
    const user = await this.#user(userId);
    return { userInfo: await this.#userInfoOf(user), profile: this.#profileOf(user) };
  }

  /** The account's own file of "Download my data" (decision 144). */
  async memberData(userId: number): Promise<MemberDataFile[]> {
    const account = await this.#users.personalDataOf(userId);
    return account
      ? [
          {
            name: 'account.json',
            content: {
              ...account,
              is_guest: Boolean(account.is_guest),
              has_password: Boolean(account.has_password),
              has_device_sign_in: Boolean(account.has_device_sign_in),
            },
          },
        ]
      : [];
  }

  /**
   * The caller proves again that they hold the account before a sensitive change (ASVS 7.5.1):
   * its current password, or, for an account without one (passkey or social sign-in only), a
   * sign-in of the last 10 minutes (decision 145).
   */
  async confirmIdentity(caller: Caller, currentPassword: string | undefined): Promise<void> {
    const user = await this.#user(caller.userId);
    if (user.password_hash) return this.#checkCurrentPassword(user.id, user.password_hash, currentPassword);
    const signedInAt = await this.#tokens.issuedAt(caller.tokenId);
    if (!signedInAt || Date.parse(signedInAt) < this.#clock.now().getTime() - FRESH_SIGN_IN_MS) throw refusal('reauthentication_required');
  }

  /** The name an authenticator app shows for the account: its username, else its nickname; null for a guest. */
  async memberName(userId: number): Promise<string | null> {
    const user = await this.#user(userId);
    return user.is_guest === 1 ? null : (user.username ?? user.nickname ?? `#${user.id}`);
  }

  async #checkCurrentPassword(userId: number, passwordHash: string, currentPassword: string | undefined): Promise<void> {
    if (!currentPassword) throw fieldError({ currentPassword: ['accounts:password.currentRequired'] });
    // Counted per account only: the caller holds one of its sessions, and sign-in failures by others never block it (decision 081).
    const counter: Counter = [ACCOUNT_LIMITS.passwordChange, String(userId)];
    assertAllowed(await this.#limiter.peek(...counter));
    if (!(await this.#hasher.verify(passwordHash, currentPassword))) {
      await this.#limiter.consume(...counter);
      throw new AppError('password_incorrect', { fields: { currentPassword: ['accounts:password.currentIncorrect'] } });
    }
    await this.#limiter.reset(...counter);
  }
}

function usernameTaken(): AppError {
  return new AppError('username_taken', { fields: { username: ['accounts:username.taken'] } });
}

function safeDecode(value: string): string | null {
  try {
    return decodeURIComponent(value);
  } catch {
    return null;
  }
}
