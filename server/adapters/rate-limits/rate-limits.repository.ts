import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { Clock } from '../../lib/clock.ts';
import { peekState, type RateLimiter, type RateLimitState, type RateRule, rateKey, rateState } from './rate-limiter.ts';

/** Expired rows are deleted at most this often per instance, so the table stays small. */
const PRUNE_INTERVAL_MS = 60_000;

/**
 * Fixed-window counters in the `rate_limits` table. One upsert counts and reads in one
 * statement, so instances sharing the database never lose a count (SQLite and PostgreSQL).
 */
export class DatabaseRateLimiter implements RateLimiter {
  readonly #db: Kysely<Database>;
  readonly #clock: Clock;
  #prunedAt = 0;

  constructor(db: Kysely<Database>, clock: Clock) {
    this.#db = db;
    this.#clock = clock;
  }

  async consume(rule: RateRule, subject: string): Promise<RateLimitState> {
    const now = this.#clock.now().getTime();
    await this.#pruneNow(now);
    const resetAt = now + rule.windowSeconds * 1000;
    const expired = sql<boolean>`${sql.ref('rate_limits.reset_at')} <= ${now}`;
    const row = await this.#db
      .insertInto('rate_limits')
      .values({ key: rateKey(rule, subject), count: 1, reset_at: resetAt })
      .onConflict((oc) =>
        oc.column('key').doUpdateSet({
          // Both expressions read the row as it was: a window that has ended starts again at 1.
          count: sql<number>`case when ${expired} then 1 else ${sql.ref('rate_limits.count')} + 1 end`,
          reset_at: sql<number>`case when ${expired} then ${resetAt} else ${sql.ref('rate_limits.reset_at')} end`,
        }),
      )
      .returning(['count', 'reset_at'])
      .executeTakeFirstOrThrow();
    return rateState(rule, Number(row.count), Number(row.reset_at) - now);
  }

  async peek(rule: RateRule, subject: string): Promise<RateLimitState> {
    const now = this.#clock.now().getTime();
    const row = await this.#db
      .selectFrom('rate_limits')
      .select(['count', 'reset_at'])
      .where('key', '=', rateKey(rule, subject))
      .where('reset_at', '>', now)
      .executeTakeFirst();
    return row ? peekState(rule, Number(row.count), Number(row.reset_at) - now) : peekState(rule, 0, rule.windowSeconds * 1000);
  }

  async refund(rule: RateRule, subject: string): Promise<void> {
    const now = this.#clock.now().getTime();
    await this.#db
      .updateTable('rate_limits')
      .set({ count: sql<number>`${sql.ref('count')} - 1` })
      .where('key', '=', rateKey(rule, subject))
      .where('count', '>', 0)
      .where('reset_at', '>', now)
      .execute();
  }

  async reset(rule: RateRule, subject: string): Promise<void> {
    await this.#db.deleteFrom('rate_limits').where('key', '=', rateKey(rule, subject)).execute();
  }

  async close(): Promise<void> {}

  async #pruneNow(now: number): Promise<void> {
    if (now - this.#prunedAt < PRUNE_INTERVAL_MS) return;
    this.#prunedAt = now;
    await this.#db.deleteFrom('rate_limits').where('reset_at', '<=', now).execute();
  }
}
