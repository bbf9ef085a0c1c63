import { Redis } from 'ioredis';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { AppError } from '../../lib/app-error.ts';
import { peekState, type RateLimiter, type RateLimitState, type RateRule, rateState } from './rate-limiter.ts';

/** How long one command may wait for Redis, queued while reconnecting or sent. */
const COMMAND_TIMEOUT_MS = 1000;

/**
 * Fixed-window counters in Redis (REDIS_URL), for instances that share a Redis server, counted by
 * rate-limiter-flexible (decision 130). Its keys are the ones this limiter always used,
 * `playport:rate:<prefix><rule>:<subject>`, so counters survive an upgrade.
 */
export class RedisRateLimiter implements RateLimiter {
  readonly #redis: Redis;
  readonly #prefix: string;
  /** One library limiter per rule: its limit and window are fixed at construction. */
  readonly #limiters = new Map<string, RateLimiterRedis>();
  #closing: Promise<void> | null = null;

  constructor(url: string, options: { prefix?: string } = {}) {
    this.#prefix = `playport:rate:${options.prefix ?? ''}`;
    // Fail fast when Redis is away: ioredis queues commands while it reconnects (forever, by
    // default); commandTimeout bounds that wait, queued or sent, so the caller can fall back to
    // the database (FallbackRateLimiter) within a second. Reconnection goes on in the background.
    this.#redis = new Redis(url, {
      maxRetriesPerRequest: 1,
      connectTimeout: 2000,
      commandTimeout: COMMAND_TIMEOUT_MS,
      lazyConnect: true,
      retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
    });
    this.#redis.on('error', () => {
      // Connection errors surface on the commands that fail; this keeps them off the process's error path.
    });
  }

  async consume(rule: RateRule, subject: string): Promise<RateLimitState> {
    // The library rejects with the counter itself once it is over the limit; the count goes on.
    const counter = await this.#run(() => this.#limiter(rule).consume(subject), true);
    return rateState(rule, counter.consumedPoints, counter.msBeforeNext);
  }

  async peek(rule: RateRule, subject: string): Promise<RateLimitState> {
    const counter = await this.#run(() => this.#limiter(rule).get(subject));
    const left = counter && counter.msBeforeNext > 0 ? counter.msBeforeNext : rule.windowSeconds * 1000;
    return peekState(rule, counter?.consumedPoints ?? 0, left);
  }

  async refund(rule: RateRule, subject: string): Promise<void> {
    // A counter is never taken below zero, nor created by a refund.
    const counter = await this.#run(() => this.#limiter(rule).get(subject));
    if (counter && counter.consumedPoints > 0) await this.#run(() => this.#limiter(rule).reward(subject, 1));
  }

  async reset(rule: RateRule, subject: string): Promise<void> {
    await this.#run(() => this.#limiter(rule).delete(subject));
  }

  async pingStore(): Promise<void> {
    await this.#run(() => this.#redis.ping());
  }

  /** Closes the connection; closing again is harmless (an instance and its test may both close). */
  async close(): Promise<void> {
    if (this.#closing) return this.#closing;
    // QUIT only on a live connection: queued while Redis is away, it would wait for its return.
    this.#closing =
      this.#redis.status === 'ready'
        ? this.#redis.quit().then(
            () => undefined,
            () => this.#redis.disconnect(),
          )
        : Promise.resolve(this.#redis.disconnect());
    return this.#closing;
  }

  #limiter(rule: RateRule): RateLimiterRedis {
    let limiter = this.#limiters.get(rule.name);
    if (!limiter || limiter.points !== rule.limit || limiter.duration !== rule.windowSeconds) {
      limiter = new RateLimiterRedis({ storeClient: this.#redis, keyPrefix: this.#prefix + rule.name, points: rule.limit, duration: rule.windowSeconds });
      this.#limiters.set(rule.name, limiter);
    }
    return limiter;
  }

  /** Runs a command; `overLimit` accepts the library's rejection with a counter as the answer. */
  async #run<T>(command: () => Promise<T>, overLimit = false): Promise<T> {
    try {
      return await command();
    } catch (cause) {
      if (overLimit && cause instanceof RateLimiterRes) return cause as T;
      throw new AppError('unavailable', { cause });
    }
  }
}
