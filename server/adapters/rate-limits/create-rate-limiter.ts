import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { Clock } from '../../lib/clock.ts';
import { FallbackRateLimiter } from './fallback-rate-limiter.ts';
import type { RateLimiter } from './rate-limiter.ts';
import { DatabaseRateLimiter } from './rate-limits.repository.ts';
import { RedisRateLimiter } from './redis-rate-limiter.ts';

/**
 * Redis when REDIS_URL is set (counters off the database), falling back to the database's
 * `rate_limits` table while Redis is away; the table alone without REDIS_URL.
 */
export function createRateLimiter(options: {
  redisUrl: string | undefined;
  redisPrefix: string;
  db: Kysely<Database>;
  clock: Clock;
  /** Told when counting moves to the database and back (one line each way in the log). */
  onSwitch?: (to: 'fallback' | 'primary', cause?: unknown) => void;
}): RateLimiter {
  const database = new DatabaseRateLimiter(options.db, options.clock);
  if (!options.redisUrl) return database;
  const redis = new RedisRateLimiter(options.redisUrl, { prefix: options.redisPrefix });
  return new FallbackRateLimiter(redis, database, { clock: options.clock, onSwitch: options.onSwitch ?? printSwitch });
}

function printSwitch(to: 'fallback' | 'primary', cause?: unknown): void {
  const reason = cause instanceof Error ? `: ${cause.message}` : '';
  console.warn(
    to === 'fallback' ? `Redis unreachable${reason}; rate limits count in the database until it returns.` : 'Redis is back; rate limits count in Redis again.',
  );
}
