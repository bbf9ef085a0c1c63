import { Redis } from 'ioredis';
import { AppError } from './app-error.ts';
import { peekState, type RateLimiter, type RateLimitState, type RateRule, rateKey, rateState } from './rate-limiter.ts';

// INCR and the expiry in one script: the first event of a window sets its end, later ones keep it.
const CONSUME = `
local count = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {count, ttl}`;

// The count and the time left, read together; a missing key is an empty window.
const PEEK = `
local count = tonumber(redis.call('GET', KEYS[1]) or '0')
local ttl = redis.call('PTTL', KEYS[1])
return {count, ttl}`;

// DECR keeps the key's expiry; a missing or zero counter stays as it is.
const REFUND = `
local value = tonumber(redis.call('GET', KEYS[1]) or '0')
if value > 0 then redis.call('DECR', KEYS[1]) end
return 0`;

/** How long one command may wait for Redis, queued while reconnecting or sent. */
const COMMAND_TIMEOUT_MS = 1000;

/** Fixed-window counters in Redis (REDIS_URL), for instances that share a Redis server. */
export class RedisRateLimiter implements RateLimiter {
  readonly #redis: Redis;
  readonly #prefix: string;
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
    const result = (await this.#run(() => this.#redis.eval(CONSUME, 1, this.#key(rule, subject), String(rule.windowSeconds * 1000)))) as [number, number];
    return rateState(rule, Number(result[0]), Number(result[1]));
  }

  async peek(rule: RateRule, subject: string): Promise<RateLimitState> {
    const [count, ttl] = (await this.#run(() => this.#redis.eval(PEEK, 1, this.#key(rule, subject)))) as [number, number];
    return peekState(rule, Number(count), Number(ttl) > 0 ? Number(ttl) : rule.windowSeconds * 1000);
  }

  async refund(rule: RateRule, subject: string): Promise<void> {
    await this.#run(() => this.#redis.eval(REFUND, 1, this.#key(rule, subject)));
  }

  async reset(rule: RateRule, subject: string): Promise<void> {
    await this.#run(() => this.#redis.del(this.#key(rule, subject)));
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

  #key(rule: RateRule, subject: string): string {
    return this.#prefix + rateKey(rule, subject);
  }

  async #run<T>(command: () => Promise<T>): Promise<T> {
    try {
      return await command();
    } catch (cause) {
      throw new AppError('unavailable', { cause });
    }
  }
}
