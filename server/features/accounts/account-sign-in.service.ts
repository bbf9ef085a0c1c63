import { createHmac } from 'node:crypto';
import {
  type FingerprintLoginBody,
  type GuestChallenge,
  type GuestDeviceBody,
  type GuestLoginBody,
  type GuestSession,
  type Session,
  USERNAME_MAX,
  USERNAME_MIN,
  USERNAME_PATTERN,
} from '#common/api/accounts.schema.ts';
import type { Locale } from '#common/locales.ts';
import { type Caller, type ClientFacts, tokenName } from '#server/lib/caller.ts';
import { AppError, refusal } from '#server/lib/app-error.ts';
import { type Clock, isoNow } from '#server/lib/clock.ts';
import { clientSubject, networkOf } from '#server/lib/network.ts';
import { assertAllowed, type RateLimiter, type RateLimitState, rateLimitError } from '#server/adapters/rate-limits/rate-limiter.ts';
import { ACCOUNT_LIMITS, type Counter } from './account-limits.ts';
import type { AccountProfileService } from './account-profile.service.ts';
import type { AccessTokensService } from './access-tokens.service.ts';
import type { AccountNoticesService } from './account-notices.service.ts';
import type { AccountsDependencies } from './accounts-dependencies.ts';
import type { GuestMergeService } from './guest-merge.service.ts';
import { guestNickname } from './guest-nicknames.ts';
import type { PasswordHasher } from './password-hasher.ts';
import type { GuestChallenges } from './guest-challenges.ts';
import type { DeviceHashes, UsersRepository } from './users.repository.ts';
import type { SignInFailuresService } from './sign-in-failures.service.ts';

/** Guests nobody used for this long, with no plays, favourites or anything of their own, are deleted. */
const UNUSED_GUEST_DAYS = 30;

/** How often a guest's last use is written at most, unless its network changed. */
const SEEN_WRITE_INTERVAL_MS = 60 * 60 * 1000;

/** The network device sign-in is tied to: IPv4 /24, IPv6 /48 (decision 052). */
export function deviceNetwork(address: string): string {
  return networkOf(address, 24, 48);
}

/**
 * Guest, password and device sign-in, sign-out, and the rate limits that hold sign-in back.
 * Tokens are `{id}|{random}` (AccessTokensService); passwords are argon2id hashes.
 */
export class AccountSignInService {
  readonly #users: UsersRepository;
  readonly #tokens: AccessTokensService;
  readonly #guestMerge: Pick<GuestMergeService, 'mergeCallerInto'>;
  readonly #hasher: PasswordHasher;
  readonly #challenges: GuestChallenges;
  readonly #limiter: RateLimiter;
  readonly #clock: Clock;
  readonly #appSecret: string;
  readonly #signInFailures: Pick<SignInFailuresService, 'record'> | null;
  readonly #profile: Pick<AccountProfileService, 'userInfo'>;
  readonly #secondFactor: NonNullable<AccountsDependencies['secondFactor']> | null;
  #dummyHash: Promise<string> | undefined;
  readonly #notices: Pick<AccountNoticesService, 'signedIn'> | null;

  constructor(
    deps: Pick<
      AccountsDependencies,
      'users' | 'tokens' | 'guestMerge' | 'hasher' | 'challenges' | 'limiter' | 'clock' | 'appSecret' | 'signInFailures' | 'secondFactor'
    >,
    profile: Pick<AccountProfileService, 'userInfo'>,
    notices?: Pick<AccountNoticesService, 'signedIn'>,
  ) {
    this.#notices = notices ?? null;
    this.#users = deps.users;
    this.#tokens = deps.tokens;
    this.#guestMerge = deps.guestMerge;
    this.#hasher = deps.hasher;
    this.#challenges = deps.challenges;
    this.#limiter = deps.limiter;
    this.#clock = deps.clock;
    this.#appSecret = deps.appSecret;
    this.#signInFailures = deps.signInFailures ?? null;
    this.#profile = profile;
    this.#secondFactor = deps.secondFactor ?? null;
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
      const userInfo = await this.#profile.userInfo(caller.userId);
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
    // With two-step sign-in on, the right password earns a ticket; the code completes the sign-in (twoFactorLogin).
    if (await this.#secondFactor?.required(user.id)) {
      throw refusal('two_factor_required', { data: { ticket: this.#secondFactor!.ticketFor(user.id) } });
    }
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
    await this.#notices?.signedIn(userId, client);
    return { token, userInfo: await this.#profile.userInfo(userId) };
  }

  #dummy(): Promise<string> {
    this.#dummyHash ??= this.#hasher.hash('timing-equaliser-not-a-password');
    return this.#dummyHash;
  }

  /**
   * The second step of a password sign-in with two-step sign-in on (decision 145): the ticket the
   * password earned and a code from the app, or a recovery code. A guest caller is merged as at
   * any sign-in.
   */
  async twoFactorLogin(input: { ticket: string; code: string }, client: ClientFacts, caller: Caller | null = null): Promise<Session> {
    if (!this.#secondFactor) throw new AppError('credentials_invalid', { messageKey: 'accounts:twoFactor.ticketExpired' });
    const { userId } = await this.#secondFactor.verifySignIn(input.ticket, input.code);
    await this.#guestMerge.mergeCallerInto(caller, userId);
    return this.#signIn(userId, 'password', client);
  }
}

function isUsernameShape(value: string): boolean {
  return value.length >= USERNAME_MIN && value.length <= USERNAME_MAX && USERNAME_PATTERN.test(value);
}

function invalidCredentials(): AppError {
  return new AppError('credentials_invalid', { messageKey: 'accounts:invalidCredentials' });
}
