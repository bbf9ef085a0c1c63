import { createHmac } from 'node:crypto';
import {
  type AvatarUploadResult,
  type FingerprintLoginBody,
  type GuestDeviceBody,
  type GuestChallenge,
  type GuestLoginBody,
  type GuestSession,
  type MemberUpdate,
  type PasswordBody,
  type PasswordUpdate,
  type Profile,
  type Session,
  USERNAME_MAX,
  USERNAME_MIN,
  USERNAME_PATTERN,
  type UserInfo,
} from '#common/api/accounts.schema.ts';
import type { Locale } from '#common/locales.ts';
import type { UnitOfWork } from '#server/db/unit-of-work.ts';
import { type Caller, type ClientFacts, tokenName } from '#server/lib/caller.ts';
import { AppError, fieldError } from '#server/lib/app-error.ts';
import { type Clock, isoNow } from '#server/lib/clock.ts';
import { clientSubject, networkOf } from '#server/lib/network.ts';
import { assertAllowed, type RateLimiter, type RateLimitState, type RateRule, rateLimitError } from '#server/adapters/rate-limits/rate-limiter.ts';
import type { AccessTokensService } from './access-tokens.service.ts';
import type { AvatarsService } from './avatars.service.ts';
import type { GuestMergeService } from './guest-merge.service.ts';
import { guestNickname } from './guest-nicknames.ts';
import type { PasswordHasher } from './password-hasher.ts';
import type { GuestChallenges } from './guest-challenges.ts';
import type { PasswordPolicy } from './password-policy.ts';
import type { DeviceHashes, UsersRepository, UserWithPasskey } from './users.repository.ts';
import type { ConversionsService } from '../tracking/conversions.service.ts';
import type { SignInFailuresService } from './sign-in-failures.service.ts';

/** The rate limits of the accounts calls (fixed windows, shared by every instance). */
export const ACCOUNT_LIMITS = {
  /**
   * Failed password checks per username from one client (address, or IPv6 /64): a guesser is
   * stopped while the owner, elsewhere, still signs in (decision 052).
   */
  loginPair: { name: 'login-pair', limit: 10, windowSeconds: 15 * 60 },
  /**
   * Consecutive failed password checks per username from anywhere (NIST SP 800-63B: at most 100);
   * a success clears it. Past it, a wrong password is answered 429 and holds its client back
   * (`loginHeld`); a right one still signs in (decision 081).
   */
  loginAccount: { name: 'login-account', limit: 100, windowSeconds: 24 * 60 * 60 },
  /** While the username is past its ceiling: one password check per client per hour for it. */
  loginHeld: { name: 'login-held', limit: 1, windowSeconds: 60 * 60 },
  /**
   * Failed current-password checks of one account from its own sessions: only a holder of one of
   * its sessions can charge it, so other people's failures never block the owner's change.
   */
  passwordChange: { name: 'password-change', limit: 10, windowSeconds: 15 * 60 },
  /** Failed sign-ins (password or device) per client, across usernames: credential stuffing. */
  loginAddress: { name: 'login-address', limit: 30, windowSeconds: 15 * 60 },
  /** Device sign-in attempts per fingerprint, from anywhere: a fingerprint cannot be tried across many networks. */
  deviceFingerprint: { name: 'device-fingerprint', limit: 10, windowSeconds: 60 * 60 },
  /** Device sign-in attempts per client. */
  deviceAddress: { name: 'device-address', limit: 20, windowSeconds: 15 * 60 },
  /** Usernames tried at registration per client and per account: whether a name is taken is an answer too. */
  registerAddress: { name: 'register-address', limit: 30, windowSeconds: 15 * 60 },
  registerAccount: { name: 'register-account', limit: 10, windowSeconds: 15 * 60 },
  /**
   * New guest accounts per client (IPv4 address, IPv6 /64). High on purpose: a school, an office
   * or a carrier's shared address puts hundreds of people behind one address; the proof of work
   * is what each account costs (decision 054).
   */
  guestAddress: { name: 'guest-address', limit: 1000, windowSeconds: 60 * 60 },
  /** Avatar uploads per user: decoding images costs CPU. */
  avatarUser: { name: 'avatar-user', limit: 20, windowSeconds: 60 * 60 },
} satisfies Record<string, RateRule>;

/** Guests nobody used for this long, with no plays, favourites or anything of their own, are deleted. */
const UNUSED_GUEST_DAYS = 30;

/** How often a guest's last use is written at most, unless its network changed. */
const SEEN_WRITE_INTERVAL_MS = 60 * 60 * 1000;

/** The network device sign-in is tied to: IPv4 /24, IPv6 /48 (decision 052). */
export function deviceNetwork(address: string): string {
  return networkOf(address, 24, 48);
}

/** What the server knows of the client making a call. */
export interface AccountsDependencies {
  users: UsersRepository;
  tokens: AccessTokensService;
  /** The guest merge of every sign-in that reaches an existing account. */
  guestMerge: Pick<GuestMergeService, 'mergeCallerInto'>;
  hasher: PasswordHasher;
  passwordPolicy: PasswordPolicy;
  challenges: GuestChallenges;
  limiter: RateLimiter;
  avatars: AvatarsService;
  clock: Clock;
  /** Keys the fingerprint hashes, so a leaked table cannot be matched against fingerprints. */
  appSecret: string;
  /** The server's copy of advertising conversions (decision 065); none when not configured. */
  conversions?: Pick<ConversionsService, 'registration'>;
  /** Where failed sign-ins are noted for operators (decision 098). */
  signInFailures?: Pick<SignInFailuresService, 'record'>;
}

/** A password change; `becameMember` is true when a guest just became a member (registration). */
export interface PasswordChange extends PasswordUpdate {
  becameMember: boolean;
}

/**
 * Member accounts: guest, password and device sign-in, sign-out, user info and the profile
 * fields. Tokens are `{id}|{random}` (AccessTokensService); passwords are argon2id hashes.
 */
export class AccountsService {
  readonly #users: UsersRepository;
  readonly #tokens: AccessTokensService;
  readonly #guestMerge: Pick<GuestMergeService, 'mergeCallerInto'>;
  readonly #hasher: PasswordHasher;
  readonly #passwordPolicy: PasswordPolicy;
  readonly #challenges: GuestChallenges;
  readonly #limiter: RateLimiter;
  readonly #avatars: AvatarsService;
  readonly #clock: Clock;
  readonly #appSecret: string;
  readonly #conversions: Pick<ConversionsService, 'registration'> | null;
  readonly #signInFailures: Pick<SignInFailuresService, 'record'> | null;
  #dummyHash: Promise<string> | undefined;

  constructor(deps: AccountsDependencies) {
    this.#users = deps.users;
    this.#tokens = deps.tokens;
    this.#guestMerge = deps.guestMerge;
    this.#hasher = deps.hasher;
    this.#passwordPolicy = deps.passwordPolicy;
    this.#challenges = deps.challenges;
    this.#limiter = deps.limiter;
    this.#avatars = deps.avatars;
    this.#clock = deps.clock;
    this.#appSecret = deps.appSecret;
    this.#conversions = deps.conversions ?? null;
    this.#signInFailures = deps.signInFailures ?? null;
  }

  /** A proof-of-work challenge for a new guest account. */
  guestChallenge(): GuestChallenge {
    return this.#challenges.issue();
  }

  /**
   * Anonymous sign-in. A caller that already holds a valid token keeps its session
   * (`created: false`); anyone else who solved a challenge gets a new guest account and token
   * (`created: true`); without a solution, 403 and nothing is counted or created.
   */
  async guestLogin(input: GuestLoginBody, client: ClientFacts, caller: Caller | null, presentedToken: string | null, locale: Locale): Promise<GuestSession> {
    if (caller && presentedToken) {
      await this.noteSeen(caller.userId, client);
      const userInfo = await this.userInfo(caller.userId);
      return { token: presentedToken, userInfo, created: false };
    }
    if (!(await this.#challenges.redeem(input.challenge, input.nonce))) throw new AppError('guest_challenge_failed', { messageKey: 'accounts:guestChallenge' });
    assertAllowed(await this.#limiter.consume(ACCOUNT_LIMITS.guestAddress, clientSubject(client.address)));
    const userId = await this.#users.insertGuest({
      // In the language of the page that made the guest (its calls' Locale header).
      nickname: guestNickname(locale),
      device: input.fingerprint && input.deviceId ? this.#deviceHashes({ fingerprint: input.fingerprint, deviceId: input.deviceId }) : null,
      network: deviceNetwork(client.address),
      campaign: client.campaign && Object.keys(client.campaign).length > 0 ? JSON.stringify(client.campaign) : null,
      now: isoNow(this.#clock),
    });
    return { ...(await this.#signIn(userId, 'guest', client)), created: true };
  }

  /** Records a guest's device (fingerprint and device id) for device sign-in, once (decisions 066 and 081). */
  async recordGuestDevice(userId: number, device: GuestDeviceBody): Promise<{ recorded: boolean }> {
    return { recorded: await this.#users.recordGuestDevice(userId, this.#deviceHashes(device), isoNow(this.#clock)) };
  }

  /** Whether the caller's account is a guest holding nothing (decision 050): a link's guest token may then replace it without a question. */
  async guestEmptiness(userId: number): Promise<{ empty: boolean }> {
    return { empty: await this.#users.isEmptyGuest(userId) };
  }

  /**
   * Username and password sign-in; every mistake gets the same answer, whether the username
   * exists or not. Only failures are counted (decisions 052 and 081): the client's own failures
   * (for this username, and across usernames) are checked before the attempt; the username's
   * failures from anywhere never refuse a right password. Past that ceiling each client gets one
   * check an hour for the username, and a wrong password is answered 429 instead of 401.
   * A guest caller is merged into the account (GuestMergeService).
   */
  async usernameLogin(input: { username: string; password: string }, client: ClientFacts, caller: Caller | null = null): Promise<Session> {
    const normalized = input.username.toLowerCase();
    const where = clientSubject(client.address);
    const pair: Counter = [ACCOUNT_LIMITS.loginPair, `${normalized}|${where}`];
    const own: Counter[] = [pair, [ACCOUNT_LIMITS.loginAddress, where]];
    const account: Counter = [ACCOUNT_LIMITS.loginAccount, normalized];
    const held: Counter = [ACCOUNT_LIMITS.loginHeld, `${normalized}|${where}`];
    const [accountBefore, ...ownStates] = await Promise.all([this.#peek(account), ...own.map((c) => this.#peek(c))]);
    // Under attack the hold is taken before the check, so parallel requests from one client get one check between them.
    const heldState = accountBefore.allowed ? await this.#peek(held) : await this.#limiter.consume(...held);
    assertAllowed(...ownStates, heldState);
    const user = isUsernameShape(normalized) ? await this.#users.findByUsername(normalized) : undefined;
    // An unknown user costs one hash check too, so timing does not tell which usernames exist.
    const valid = user?.password_hash
      ? await this.#hasher.verify(user.password_hash, input.password)
      : (await this.#hasher.verify(await this.#dummy(), input.password)) && false;
    if (!user || !valid) {
      const [accountAfter] = await Promise.all([
        this.#limiter.consume(...account),
        this.#countFailure(own),
        this.#signInFailures?.record({ userId: user?.id ?? null, identifier: normalized, method: 'password', address: client.address }),
      ]);
      if (!accountAfter.allowed) throw rateLimitError(accountBefore.allowed ? await this.#limiter.consume(...held) : heldState);
      throw invalidCredentials();
    }
    await Promise.all([pair, account, held].map(([rule, subject]) => this.#limiter.reset(rule, subject)));
    try {
      await this.#guestMerge.mergeCallerInto(caller, user.id);
      return await this.#signIn(user.id, 'password', client);
    } catch (error) {
      // The right password for an account an operator disabled: the member's to see in the Console, as a refusal.
      if (error instanceof AppError && error.code === 'account_disabled')
        await this.#signInFailures?.record({ userId: user.id, identifier: normalized, method: 'password', address: client.address });
      throw error;
    }
  }

  /**
   * Device sign-in (decisions 052 and 081). A fingerprint is no secret (any site can compute it),
   * so it only reaches a guest that holds nothing private, recorded with this fingerprint and the
   * device id this browser keeps, and last used from the caller's network; the oldest such guest.
   * A refusal and a miss get the same answer.
   * Attempts are limited per fingerprint and per client; misses also count towards the
   * client's failed sign-ins. A caller holding another guest is merged into it (GuestMergeService).
   */
  async fingerprintLogin(input: FingerprintLoginBody, client: ClientFacts, caller: Caller | null = null): Promise<Session> {
    const where = clientSubject(client.address);
    const device = this.#deviceHashes(input);
    assertAllowed(await this.#limiter.peek(ACCOUNT_LIMITS.loginAddress, where));
    assertAllowed(
      await this.#limiter.consume(ACCOUNT_LIMITS.deviceFingerprint, device.fingerprintHash),
      await this.#limiter.consume(ACCOUNT_LIMITS.deviceAddress, where),
    );
    const userId = await this.#users.findDeviceGuest(device, deviceNetwork(client.address));
    if (userId === undefined) {
      await this.#limiter.consume(ACCOUNT_LIMITS.loginAddress, where);
      throw new AppError('not_found', { messageKey: 'accounts:noDeviceAccount' });
    }
    await this.#guestMerge.mergeCallerInto(caller, userId);
    await this.noteSeen(userId, client);
    return this.#signIn(userId, 'device', client);
  }

  /**
   * The scheduled clean-up (decision 054): deletes guest accounts unused for 30 days, in batches,
   * so that guests made by visitors who never came back do not pile up. Safe to run on several
   * instances at once. Returns how many were deleted.
   */
  async removeUnusedGuests(): Promise<number> {
    const cutoff = new Date(this.#clock.now().getTime() - UNUSED_GUEST_DAYS * 24 * 60 * 60 * 1000).toISOString();
    let total = 0;
    for (let batch = 0; batch < 20; batch++) {
      const deleted = await this.#users.deleteUnusedGuests(cutoff, 500);
      total += deleted;
      if (deleted < 500) break;
    }
    return total;
  }

  /** A guest was used from the client's network (user info, sign-in): device sign-in follows it there. */
  async noteSeen(userId: number, client: ClientFacts): Promise<void> {
    const now = this.#clock.now();
    const staleBefore = new Date(now.getTime() - SEEN_WRITE_INTERVAL_MS).toISOString();
    await this.#users.noteGuestSeen(userId, deviceNetwork(client.address), now.toISOString(), staleBefore);
  }

  /**
   * Clears what locks a member out of password sign-in (decision 098): the username's failures
   * from anywhere, its hold and its failures from each address that failed (the addresses of the
   * recorded failures), and the failed current-password checks of the account's own sessions.
   */
  async clearSignInLimits(member: { id: number; username: string | null }, addresses: string[]): Promise<void> {
    const counters: Counter[] = [[ACCOUNT_LIMITS.passwordChange, String(member.id)]];
    if (member.username) {
      const normalized = member.username.toLowerCase();
      counters.push([ACCOUNT_LIMITS.loginAccount, normalized]);
      for (const where of new Set(addresses.map(clientSubject))) {
        counters.push([ACCOUNT_LIMITS.loginPair, `${normalized}|${where}`], [ACCOUNT_LIMITS.loginHeld, `${normalized}|${where}`]);
      }
    }
    await Promise.all(counters.map(([rule, subject]) => this.#limiter.reset(rule, subject)));
  }

  /**
   * Whether password sign-in is held back for the member: the username's failures from anywhere
   * passed their ceiling (decision 081), or its failures from one of `addresses` did.
   */
  async signInLocked(username: string | null, addresses: string[]): Promise<boolean> {
    if (!username) return false;
    const normalized = username.toLowerCase();
    const counters: Counter[] = [[ACCOUNT_LIMITS.loginAccount, normalized]];
    for (const where of new Set(addresses.map(clientSubject))) counters.push([ACCOUNT_LIMITS.loginPair, `${normalized}|${where}`]);
    const states = await Promise.all(counters.map((counter) => this.#peek(counter)));
    return states.some((state) => !state.allowed);
  }

  /** Revokes the caller's token; without one there is nothing to revoke. */
  async logout(caller: Caller | null): Promise<{ revoked: boolean }> {
    if (!caller) return { revoked: false };
    await this.#tokens.revoke(caller.tokenId);
    return { revoked: true };
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
    return this.#memberUpdate(userId);
  }

  async updateEmail(userId: number, email: string | null): Promise<MemberUpdate> {
    await this.#user(userId);
    await this.#users.update(userId, { email, updated_at: isoNow(this.#clock) });
    return this.#memberUpdate(userId);
  }

  async updatePhone(userId: number, phone: string | null): Promise<MemberUpdate> {
    await this.#user(userId);
    await this.#users.update(userId, { phone, updated_at: isoNow(this.#clock) });
    return this.#memberUpdate(userId);
  }

  /**
   * Sets the username and password. A guest becomes a member on the same user row, so
   * everything keyed by the user id (played games, purchases) stays. Changing an existing
   * password needs the current one. Either way the session is rotated: the answer carries a new
   * token and every earlier one stops working, the caller's included (decision 054).
   */
  async setPassword(caller: Caller, body: PasswordBody, client: ClientFacts): Promise<PasswordChange> {
    const user = await this.#user(caller.userId);
    if (user.password_hash) {
      if (!body.currentPassword) throw fieldError({ currentPassword: ['accounts:password.currentRequired'] });
      // Counted per account only: the caller holds one of its sessions, and sign-in failures by others never block it (decision 081).
      const counter: Counter = [ACCOUNT_LIMITS.passwordChange, String(user.id)];
      assertAllowed(await this.#peek(counter));
      if (!(await this.#hasher.verify(user.password_hash, body.currentPassword))) {
        await this.#limiter.consume(...counter);
        throw new AppError('password_incorrect', { fields: { currentPassword: ['accounts:password.currentIncorrect'] } });
      }
      await this.#limiter.reset(...counter);
    }
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
    return { ...(await this.#memberUpdate(user.id)), token, becameMember: user.is_guest === 1 };
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
    return { ...(await this.#memberUpdate(userId)), avatar: stored };
  }

  /** The stored form of a device fingerprint: HMAC-SHA256 keyed with APP_SECRET. */
  fingerprintHash(fingerprint: string): string {
    return createHmac('sha256', this.#appSecret).update(`fingerprint:${fingerprint}`).digest('hex');
  }

  /** The stored form of a device id: HMAC-SHA256 keyed with APP_SECRET, in its own domain. */
  deviceIdHash(deviceId: string): string {
    return createHmac('sha256', this.#appSecret).update(`device-id:${deviceId}`).digest('hex');
  }

  #deviceHashes(device: { fingerprint: string; deviceId: string }): DeviceHashes {
    return { fingerprintHash: this.fingerprintHash(device.fingerprint), deviceIdHash: this.deviceIdHash(device.deviceId) };
  }

  /** Reads a counter without counting: `allowed` tells whether one more failure fits. */
  #peek([rule, subject]: Counter): Promise<RateLimitState> {
    return this.#limiter.peek(rule, subject);
  }

  async #countFailure(counters: Counter[]): Promise<void> {
    await Promise.all(counters.map(([rule, subject]) => this.#limiter.consume(rule, subject)));
  }

  async #signIn(userId: number, method: string, client: ClientFacts): Promise<Session> {
    const { token } = await this.#tokens.issue(userId, tokenName(method, client));
    return { token, userInfo: await this.userInfo(userId) };
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

  async #memberUpdate(userId: number): Promise<MemberUpdate> {
    const user = await this.#user(userId);
    return { userInfo: await this.#userInfoOf(user), profile: this.#profileOf(user) };
  }

  #dummy(): Promise<string> {
    this.#dummyHash ??= this.#hasher.hash('timing-equaliser-not-a-password');
    return this.#dummyHash;
  }
}

type Counter = [RateRule, string];

function isUsernameShape(value: string): boolean {
  return value.length >= USERNAME_MIN && value.length <= USERNAME_MAX && USERNAME_PATTERN.test(value);
}

function invalidCredentials(): AppError {
  return new AppError('credentials_invalid', { messageKey: 'accounts:invalidCredentials' });
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
