import { AppError } from '../../lib/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import type { RateLimiter, RateLimitState, RateRule } from './rate-limiter.ts';

/** After Redis failed, counters stay in the database this long before Redis is tried again. */
export const FALLBACK_HOLD_MS = 5000;

/**
 * Counts in the primary (Redis) and, while it is away, in the fallback (the database), so a
 * Redis outage neither opens the limits nor refuses every limited request (decision 077). After
 * a failure the primary is left alone for FALLBACK_HOLD_MS, so requests during an outage do not
 * each wait for Redis's timeout. Counts made during the outage stay in the database: a subject
 * may get up to twice its limit in the window that spans the switch.
 */
export class FallbackRateLimiter implements RateLimiter {
  readonly #primary: RateLimiter;
  readonly #fallback: RateLimiter;
  readonly #clock: Clock;
  readonly #onSwitch: (to: 'fallback' | 'primary', cause?: unknown) => void;
  #primaryAwayUntil = 0;
  #usingFallback = false;

  constructor(primary: RateLimiter, fallback: RateLimiter, options: { clock: Clock; onSwitch?: (to: 'fallback' | 'primary', cause?: unknown) => void }) {
    this.#primary = primary;
    this.#fallback = fallback;
    this.#clock = options.clock;
    this.#onSwitch = options.onSwitch ?? (() => undefined);
  }

  consume(rule: RateRule, subject: string): Promise<RateLimitState> {
    return this.#run((limiter) => limiter.consume(rule, subject));
  }

  peek(rule: RateRule, subject: string): Promise<RateLimitState> {
    return this.#run((limiter) => limiter.peek(rule, subject));
  }

  refund(rule: RateRule, subject: string): Promise<void> {
    return this.#run((limiter) => limiter.refund(rule, subject));
  }

  reset(rule: RateRule, subject: string): Promise<void> {
    return this.#run((limiter) => limiter.reset(rule, subject));
  }

  /** Asks the primary itself, even while counting in the fallback: the metrics tell when Redis returns. */
  async pingStore(): Promise<void> {
    if (!this.#primary.pingStore) throw new Error('the primary rate limiter has no store to ping');
    await this.#primary.pingStore();
  }

  async close(): Promise<void> {
    await Promise.all([this.#primary.close(), this.#fallback.close()]);
  }

  async #run<T>(operation: (limiter: RateLimiter) => Promise<T>): Promise<T> {
    if (this.#clock.now().getTime() < this.#primaryAwayUntil) return operation(this.#fallback);
    try {
      const result = await operation(this.#primary);
      if (this.#usingFallback) {
        this.#usingFallback = false;
        this.#onSwitch('primary');
      }
      return result;
    } catch (error) {
      if (!(error instanceof AppError && error.code === 'unavailable')) throw error;
      this.#primaryAwayUntil = this.#clock.now().getTime() + FALLBACK_HOLD_MS;
      if (!this.#usingFallback) {
        this.#usingFallback = true;
        this.#onSwitch('fallback', error.cause);
      }
      return operation(this.#fallback);
    }
  }
}
