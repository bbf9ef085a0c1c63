import { createHmac } from 'node:crypto';
import {
  type AvatarUploadResult,
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
import { type Caller, type ClientFacts, tokenName } from '#server/lib/caller.ts';
import { AppError, fieldError } from '#server/lib/app-error.ts';
import { type Clock, isoNow } from '#server/lib/clock.ts';
import { clientSubject, networkOf } from '#server/lib/network.ts';
import { assertAllowed, type RateLimiter, type RateRule } from '#server/lib/rate-limiter.ts';
import type { AccessTokensService } from './access-tokens.service.ts';
import type { AvatarsService } from './avatars.service.ts';
import { guestNickname } from './guest-nicknames.ts';
import type { PasswordHasher } from './password-hasher.ts';
import type { GuestChallenges } from './guest-challenges.ts';
import type { PasswordPolicy } from './password-policy.ts';
import type { UsersRepository, UserWithPasskey } from './users.repository.ts';
import type { ConversionsService } from '../tracking/conversions.service.ts';

/** The rate limits of the accounts calls (fixed windows, shared by every instance). */
export const ACCOUNT_LIMITS = {
  /**
   * Failed password checks per username from one client (address, or IPv6 /64): a guesser is
   * stopped while the owner, elsewhere, still signs in (decision 052).
   */
  loginPair: { name: 'login-pair', limit: 10, windowSeconds: 15 * 60 },
  /** Consecutive failed password checks per username from anywhere (NIST SP 800-63B: at most 100); a success clears it. */
  loginAccount: { name: 'login-account', limit: 100, windowSeconds: 24 * 60 * 60 },
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
  readonly #hasher: PasswordHasher;
  readonly #passwordPolicy: PasswordPolicy;
  readonly #challenges: GuestChallenges;
  readonly #limiter: RateLimiter;
  readonly #avatars: AvatarsService;
  readonly #clock: Clock;
  readonly #appSecret: string;
  readonly #conversions: Pick<ConversionsService, 'registration'> | null;
  #dummyHash: Promise<string> | undefined;

  constructor(deps: AccountsDependencies) {
    this.#users = deps.users;
    this.#tokens = deps.tokens;
    this.#hasher = deps.hasher;
    this.#passwordPolicy = deps.passwordPolicy;
    this.#challenges = deps.challenges;
    this.#limiter = deps.limiter;
    this.#avatars = deps.avatars;
    this.#clock = deps.clock;
    this.#appSecret = deps.appSecret;
    this.#conversions = deps.conversions ?? null;
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
    if (!(await this.#challenges.redeem(input.challenge, input.nonce))) throw new AppError('forbidden', { messageKey: 'accounts:guestChallenge' });
    assertAllowed(await this.#limiter.consume(ACCOUNT_LIMITS.guestAddress, clientSubject(client.address)));
    const userId = await this.#users.insertGuest({
      // In the language of the page that made the guest (its calls' Locale header).
      nickname: guestNickname(locale),
      fingerprintHash: input.fingerprint ? this.fingerprintHash(input.fingerprint) : null,
      network: deviceNetwork(client.address),
      campaign: client.campaign && Object.keys(client.campaign).length > 0 ? JSON.stringify(client.campaign) : null,
      now: isoNow(this.#clock),
    });
    return { ...(await this.#signIn(userId, 'guest', client)), created: true };
  }

  /** Records a guest's device fingerprint for device sign-in, once (decision 066). */
  async recordGuestDevice(userId: number, fingerprint: string): Promise<{ recorded: boolean }> {
    return { recorded: await this.#users.recordGuestDevice(userId, this.fingerprintHash(fingerprint), isoNow(this.#clock)) };
  }

  /**
   * Username and password sign-in; every mistake gets the same answer, whether the username
   * exists or not. Only failures are counted, and checked before the next attempt (decision 052).
   */
  async usernameLogin(input: { username: string; password: string }, client: ClientFacts): Promise<Session> {
    const normalized = input.username.toLowerCase();
    const counters = passwordCounters(normalized, client);
    await this.#assertRoom(counters);
    const user = isUsernameShape(normalized) ? await this.#users.findByUsername(normalized) : undefined;
    // An unknown user costs one hash check too, so timing does not tell which usernames exist.
    const valid = user?.password_hash
      ? await this.#hasher.verify(user.password_hash, input.password)
      : (await this.#hasher.verify(await this.#dummy(), input.password)) && false;
    if (!user || !valid) {
      await this.#countFailure(counters);
      throw invalidCredentials();
    }
    await this.#clearFailures(counters);
    return this.#signIn(user.id, 'password', client);
  }

  /**
   * Device sign-in (decision 052). A fingerprint is no secret (any site can compute it), so it
   * only reaches a guest that holds nothing private, made with this fingerprint and last used
   * from the caller's network; the oldest such guest. A refusal and a miss get the same answer.
   * Attempts are limited per fingerprint and per client; misses also count towards the
   * client's failed sign-ins.
   */
  async fingerprintLogin(input: { fingerprint: string }, client: ClientFacts): Promise<Session> {
    const where = clientSubject(client.address);
    const hash = this.fingerprintHash(input.fingerprint);
    assertAllowed(await this.#limiter.peek(ACCOUNT_LIMITS.loginAddress, where));
    assertAllowed(await this.#limiter.consume(ACCOUNT_LIMITS.deviceFingerprint, hash), await this.#limiter.consume(ACCOUNT_LIMITS.deviceAddress, where));
    const userId = await this.#users.findDeviceGuest(hash, deviceNetwork(client.address));
    if (userId === undefined) {
      await this.#limiter.consume(ACCOUNT_LIMITS.loginAddress, where);
      throw new AppError('not_found', { messageKey: 'accounts:noDeviceAccount' });
    }
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

  /** Revokes the caller's token; without one there is nothing to revoke. */
  async logout(caller: Caller | null): Promise<{ revoked: boolean }> {
    if (!caller) return { revoked: false };
    await this.#tokens.revoke(caller.tokenId);
    return { revoked: true };
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
      const counters = passwordCounters(user.username_normalized ?? `uid:${user.id}`, client);
      await this.#assertRoom(counters);
      if (!(await this.#hasher.verify(user.password_hash, body.currentPassword))) {
        await this.#countFailure(counters);
        throw fieldError({ currentPassword: ['accounts:password.currentIncorrect'] });
      }
      await this.#clearFailures(counters);
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

  /** Refuses (429) when any counter has no room left for another failure. */
  async #assertRoom(counters: Counter[]): Promise<void> {
    assertAllowed(...(await Promise.all(counters.map(([rule, subject]) => this.#limiter.peek(rule, subject)))));
  }

  async #countFailure(counters: Counter[]): Promise<void> {
    await Promise.all(counters.map(([rule, subject]) => this.#limiter.consume(rule, subject)));
  }

  /** A right password clears the username's counters; the client's count across usernames stays. */
  async #clearFailures(counters: Counter[]): Promise<void> {
    await Promise.all(counters.filter(([rule]) => rule !== ACCOUNT_LIMITS.loginAddress).map(([rule, subject]) => this.#limiter.reset(rule, subject)));
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

/** The counters a password check is judged by: this username from this client, this username, this client. */
function passwordCounters(username: string, client: ClientFacts): Counter[] {
  const where = clientSubject(client.address);
  return [
    [ACCOUNT_LIMITS.loginPair, `${username}|${where}`],
    [ACCOUNT_LIMITS.loginAccount, username],
    [ACCOUNT_LIMITS.loginAddress, where],
  ];
}

function isUsernameShape(value: string): boolean {
  return value.length >= USERNAME_MIN && value.length <= USERNAME_MAX && USERNAME_PATTERN.test(value);
}

function invalidCredentials(): AppError {
  return new AppError('unauthenticated', { messageKey: 'accounts:invalidCredentials' });
}

function usernameTaken(): AppError {
  return fieldError({ username: ['accounts:username.taken'] });
}

function safeDecode(value: string): string | null {
  try {
    return decodeURIComponent(value);
  } catch {
    return null;
  }
}
