import { AppError } from '../../lib/app-error.ts';

/** A fixed-window limit: at most `limit` events per `windowSeconds` for one subject. */
export interface RateRule {
  /** Namespace of the counters ("login-account"); part of every key. */
  name: string;
  limit: number;
  windowSeconds: number;
}

/** A counter after an event was counted. */
export interface RateLimitState {
  /** false once the count passed the limit within the window. */
  allowed: boolean;
  count: number;
  limit: number;
  /** Whole seconds until the window ends (at least 1). */
  retryAfterSeconds: number;
}

/** Counters shared by every instance of the server (database or Redis). */
export interface RateLimiter {
  /** Counts one event for the subject and tells whether it is within the limit. */
  consume(rule: RateRule, subject: string): Promise<RateLimitState>;
  /**
   * Reads the subject's counter without counting: `allowed` tells whether one more event fits.
   * For limits charged only on failure (a wrong password), checked before the attempt.
   */
  peek(rule: RateRule, subject: string): Promise<RateLimitState>;
  /** Takes one event back (a counted attempt that turned out fine). */
  refund(rule: RateRule, subject: string): Promise<void>;
  /** Forgets the subject's counter. */
  reset(rule: RateRule, subject: string): Promise<void>;
  /** Resolves when the shared store (Redis) answers; absent where counters live in the database only. */
  pingStore?(): Promise<void>;
  close(): Promise<void>;
}

export function rateKey(rule: RateRule, subject: string): string {
  return `${rule.name}:${subject}`;
}

/** Builds the state from a count and the milliseconds left in its window. */
export function rateState(rule: RateRule, count: number, msLeft: number): RateLimitState {
  return {
    allowed: count <= rule.limit,
    count,
    limit: rule.limit,
    retryAfterSeconds: Math.max(1, Math.ceil(msLeft / 1000)),
  };
}

/** The state of a counter read without counting: room for one more event or not. */
export function peekState(rule: RateRule, count: number, msLeft: number): RateLimitState {
  return { ...rateState(rule, count, msLeft), allowed: count < rule.limit };
}

/** The 429 answer for a counter over its limit: Retry-After header and the seconds in the message. */
export function rateLimitError(state: RateLimitState): AppError {
  const seconds = state.retryAfterSeconds;
  return new AppError('rate_limited', {
    values: { seconds },
    headers: { 'Retry-After': String(seconds) },
    data: { retryAfter: seconds },
  });
}

/** Throws 429 for the first counter over its limit, with the longest wait among them. */
export function assertAllowed(...states: RateLimitState[]): void {
  const over = states.filter((s) => !s.allowed);
  if (over.length === 0) return;
  throw rateLimitError(over.reduce((a, b) => (b.retryAfterSeconds > a.retryAfterSeconds ? b : a)));
}
