import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { GuestChallenge } from '#common/api/accounts.schema.ts';
import { solves } from '#common/proof-of-work.ts';
import type { Clock } from '#server/lib/clock.ts';
import type { RateLimiter, RateRule } from '#server/adapters/rate-limits/rate-limiter.ts';

/**
 * About 2^15 SHA-256 hashes: measured at ~25 ms (median) on one desktop core in Node and
 * Chromium, a few hundred ms on a slow phone (decision 054). A script has to do the same work for
 * every account, and cannot skip it.
 */
const GUEST_CHALLENGE_DIFFICULTY = 15;
const CHALLENGE_TTL_SECONDS = 10 * 60;
/** One use per challenge, remembered in the shared limiter store until the challenge expires. */
const CHALLENGE_USE: RateRule = { name: 'guest-challenge', limit: 1, windowSeconds: CHALLENGE_TTL_SECONDS };

/**
 * Signed, stateless proof-of-work challenges for new guest accounts:
 * `v1.{expires ms}.{difficulty}.{random}.{HMAC}`. Any instance with the same APP_SECRET can check
 * one; a solution is accepted once, before the challenge expires.
 */
export class GuestChallenges {
  readonly #secret: string;
  readonly #limiter: RateLimiter;
  readonly #clock: Clock;
  readonly #difficulty: number;

  constructor(options: { secret: string; limiter: RateLimiter; clock: Clock; difficulty?: number }) {
    this.#secret = options.secret;
    this.#limiter = options.limiter;
    this.#clock = options.clock;
    this.#difficulty = options.difficulty ?? GUEST_CHALLENGE_DIFFICULTY;
  }

  issue(): GuestChallenge {
    const body = `v1.${this.#clock.now().getTime() + CHALLENGE_TTL_SECONDS * 1000}.${this.#difficulty}.${randomBytes(12).toString('hex')}`;
    return { challenge: `${body}.${this.#mac(body)}`, difficulty: this.#difficulty };
  }

  /** Whether the solution is good: our signature, not expired, solved, and never used before. */
  async redeem(challenge: string | undefined, nonce: string | undefined): Promise<boolean> {
    if (!challenge || !nonce) return false;
    const parts = challenge.split('.');
    if (parts.length !== 5 || parts[0] !== 'v1') return false;
    const [, expires, difficulty, random, mac] = parts as [string, string, string, string, string];
    const expected = Buffer.from(this.#mac(parts.slice(0, 4).join('.')));
    const given = Buffer.from(mac);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return false;
    if (Number(expires) <= this.#clock.now().getTime()) return false;
    if (!solves(challenge, nonce, Number(difficulty))) return false;
    return (await this.#limiter.consume(CHALLENGE_USE, random)).allowed;
  }

  #mac(body: string): string {
    return createHmac('sha256', this.#secret).update(`guest-challenge:${body}`).digest('base64url');
  }
}
