import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { Clock } from './clock.ts';
import type { RateLimiter } from './rate-limiter.ts';
import { DatabaseRateLimiter } from './rate-limits.repository.ts';
import { RedisRateLimiter } from './redis-rate-limiter.ts';

/** Redis when REDIS_URL is set (counters off the database), else the database's `rate_limits` table. */
export function createRateLimiter(options: { redisUrl: string | undefined; redisPrefix: string; db: Kysely<Database>; clock: Clock }): RateLimiter {
  return options.redisUrl ? new RedisRateLimiter(options.redisUrl, { prefix: options.redisPrefix }) : new DatabaseRateLimiter(options.db, options.clock);
}
