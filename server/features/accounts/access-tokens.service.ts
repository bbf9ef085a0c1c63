import type { MemberDataFile } from '../member-data/member-data.service.ts';
import { timingSafeEqual } from 'node:crypto';
import { AppError } from '#server/lib/app-error.ts';
import { SIGN_IN_METHODS, type SignedInSession, type SignedInSessionList, type SignInMethod, type SessionsEnded } from '#common/api/sessions.schema.ts';
import type { Caller } from '#server/lib/caller.ts';
import { type Clock, isoNow } from '#server/lib/clock.ts';
import { randomAlphanumeric, sha256Hex } from '#server/lib/random.ts';
import { browserAndSystem } from '#server/lib/user-agent.ts';
import type { AccessTokensRepository } from './access-tokens.repository.ts';

const SECRET_LENGTH = 48;
/** One token per device; beyond this many, the least recently used tokens of the user are revoked. */
const MAX_TOKENS_PER_USER = 20;
/**
 * A token unused this long stops working (and is deleted when presented): the token cookie lives
 * 365 days too (spec section 9), renewed by each sign-in, so an abandoned device's session ends.
 */
export const TOKEN_IDLE_DAYS = 365;
const TOKEN_IDLE_MS = TOKEN_IDLE_DAYS * 24 * 60 * 60 * 1000;
/** Writing last_used_at on every request would make each read a write; once a minute is enough. */
const TOUCH_INTERVAL_MS = 60_000;
/** The default absolute lifetime: the token cookie's own 365 days, so no session outlives its cookie. */
export const SESSION_MAX_AGE_DAYS_DEFAULT = 365;
const DAY_MS = 24 * 60 * 60 * 1000;

/** Issues and checks `{id}|{random}` bearer tokens (the spec's token shape, over 49 characters). */
export class AccessTokensService {
  readonly #tokens: AccessTokensRepository;
  readonly #clock: Clock;
  readonly #maxAgeMs: number;
  constructor(tokens: AccessTokensRepository, clock: Clock, options: { maxAgeDays?: number } = {}) {
    this.#tokens = tokens;
    this.#clock = clock;
    this.#maxAgeMs = (options.maxAgeDays ?? SESSION_MAX_AGE_DAYS_DEFAULT) * DAY_MS;
  }

  /**
   * Creates a token for a user and returns its plain value: the only time it is known. Every
   * sign-in ends here, so an account an operator disabled is refused here, whatever the method, and
   * an account its member closed to delete it is restored here (decision 147), whatever the method.
   */
  async issue(userId: number, name: string): Promise<{ token: string; tokenId: number }> {
    if (await this.#tokens.userDisabled(userId)) throw new AppError('account_disabled');
    await this.#tokens.restoreClosedAccount(userId, isoNow(this.#clock));
    const secret = randomAlphanumeric(SECRET_LENGTH);
    const tokenId = await this.#tokens.insert({
      userId,
      tokenHash: sha256Hex(secret),
      name: name.slice(0, 400),
      createdAt: isoNow(this.#clock),
      expiresAt: null,
    });
    await this.#tokens.deleteLeastRecentlyUsed(userId, MAX_TOKENS_PER_USER);
    return { token: `${tokenId}|${secret}`, tokenId };
  }

  /** Resolves a plain token to its caller, or null when it is malformed, unknown, expired, idle too long or revoked. */
  async verify(token: string): Promise<Caller | null> {
    const match = /^(\d{1,15})\|([A-Za-z0-9]{20,128})$/.exec(token);
    if (!match) return null;
    const row = await this.#tokens.findById(Number(match[1]));
    // A disabled account's tokens are deleted; this also ends one issued in a race with the disabling.
    if (!row || row.disabled_at !== null) return null;
    const expected = Buffer.from(row.token_hash, 'hex');
    const actual = Buffer.from(sha256Hex(match[2]!), 'hex');
    if (expected.length !== actual.length || !timingSafeEqual(expected, actual)) return null;
    const now = this.#clock.now();
    if (row.expires_at && row.expires_at <= now.toISOString()) return null;
    const lastUsed = Date.parse(row.last_used_at ?? row.created_at);
    // Idle too long, or past the absolute lifetime however active (ASVS 7.3.2): the token goes.
    if (now.getTime() - lastUsed > TOKEN_IDLE_MS || now.getTime() - Date.parse(row.created_at) >= this.#maxAgeMs) {
      await this.#tokens.delete(row.id);
      return null;
    }
    if (!row.last_used_at || now.getTime() - Date.parse(row.last_used_at) > TOUCH_INTERVAL_MS) {
      await this.#tokens.touch(row.id, now.toISOString());
    }
    return { userId: row.user_id, tokenId: row.id };
  }

  /** The caller's sessions, newest first, the one in hand marked `current`. */
  async listSessions(caller: Caller): Promise<SignedInSessionList> {
    const rows = await this.#tokens.listForUser(caller.userId);
    return { items: rows.map((row) => this.#sessionOf(row, caller.tokenId)) };
  }

  /** Ends one of the caller's sessions; 404 for one that is not theirs (or no longer exists). */
  async endSession(caller: Caller, sessionId: number): Promise<SessionsEnded> {
    if (!(await this.#tokens.deleteForUser(caller.userId, sessionId))) throw new AppError('not_found', { messageKey: 'accounts:sessions.notFound' });
    return { ended: 1 };
  }

  /** Ends every session of the caller but the one in hand. */
  async endOtherSessions(caller: Caller): Promise<SessionsEnded> {
    return { ended: await this.#tokens.deleteAllForUser(caller.userId, caller.tokenId) };
  }

  #sessionOf(row: { id: number; name: string; created_at: string; last_used_at: string | null }, currentId: number): SignedInSession {
    // The name is "{method} {User-Agent}", written at sign-in (tokenName).
    const space = row.name.indexOf(' ');
    const first = space < 0 ? row.name : row.name.slice(0, space);
    const method: SignInMethod = (SIGN_IN_METHODS as readonly string[]).includes(first) ? (first as SignInMethod) : 'unknown';
    const lastUsedAt = row.last_used_at ?? row.created_at;
    const expires = Math.min(Date.parse(row.created_at) + this.#maxAgeMs, Date.parse(lastUsedAt) + TOKEN_IDLE_MS);
    return {
      id: row.id,
      method,
      ...browserAndSystem(space < 0 ? null : row.name.slice(space + 1)),
      createdAt: row.created_at,
      lastUsedAt,
      expiresAt: new Date(expires).toISOString(),
      current: row.id === currentId,
    };
  }

  /** Ends every session of the user (a password reset, decision 146); answers how many there were. */
  endAllSessions(userId: number): Promise<number> {
    return this.#tokens.deleteAllForUser(userId);
  }

  async revoke(tokenId: number): Promise<void> {
    await this.#tokens.delete(tokenId);
  }

  /**
   * A new session for a user whose credentials just changed (a guest becoming a member, a new
   * password): a new token, and every earlier token of the user revoked, the one in hand
   * included, so a token planted in the browser before the change is worth nothing after it.
   * The new token is stored before the old ones go: a crash in between leaves the old session.
   */
  async rotate(userId: number, name: string): Promise<{ token: string; tokenId: number }> {
    const issued = await this.issue(userId, name);
    await this.#tokens.deleteAllForUser(userId, issued.tokenId);
    return issued;
  }

  /** The member's sessions in "Download my data" (decision 144): how each was made, when, until when. */
  async memberData(userId: number): Promise<MemberDataFile[]> {
    return [{ name: 'sessions.json', content: await this.#tokens.sessionsOf(userId) }];
  }

  /** When the session was made (a sign-in, or a rotation on a credential change), or null when it is gone. */
  async issuedAt(tokenId: number): Promise<string | null> {
    return (await this.#tokens.findById(tokenId))?.created_at ?? null;
  }
}
