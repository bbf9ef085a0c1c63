import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../db/client.ts';
import { openTestDatabase, type TestDatabase } from '../../testing/test-database.ts';
import type { Clock } from '../../lib/clock.ts';
import { type RateLimiter, type RateRule, rateLimitError } from './rate-limiter.ts';
import { AppError } from '../../lib/app-error.ts';
import { FALLBACK_HOLD_MS, FallbackRateLimiter } from './fallback-rate-limiter.ts';
import { DatabaseRateLimiter } from './rate-limits.repository.ts';
import { RedisRateLimiter } from './redis-rate-limiter.ts';

/** The local Redis the tests use (the machine's service on the standard port). */
const REDIS_URL = 'redis://127.0.0.1:6379';

class ManualClock implements Clock {
  time = Date.parse('2026-11-22T10:00:00.000Z');
  now() {
    return new Date(this.time);
  }
  advance(ms: number) {
    this.time += ms;
  }
}

const rule = (limit: number, windowSeconds = 60): RateRule => ({ name: `test-${randomBytes(4).toString('hex')}`, limit, windowSeconds });

/** The behaviour both implementations share; `a` and `b` are two instances on one store. */
function sharedBehaviour(instances: () => { a: RateLimiter; b: RateLimiter }) {
  it('counts events from both instances in one window, and refuses past the limit', async () => {
    const { a, b } = instances();
    const limit = rule(3, 60);
    const counts = [];
    for (const limiter of [a, b, a]) counts.push(await limiter.consume(limit, 'subject'));
    expect(counts.map((s) => [s.count, s.allowed])).toEqual([
      [1, true],
      [2, true],
      [3, true],
    ]);
    const over = await b.consume(limit, 'subject');
    expect(over).toMatchObject({ allowed: false, count: 4, limit: 3 });
    expect(over.retryAfterSeconds).toBeGreaterThan(0);
    expect(over.retryAfterSeconds).toBeLessThanOrEqual(60);
    // Other subjects and other rules have their own counters.
    expect((await a.consume(limit, 'other')).count).toBe(1);
    expect((await a.consume(rule(3), 'subject')).count).toBe(1);
  });

  it('loses no count when both instances count at the same time', async () => {
    const { a, b } = instances();
    const limit = rule(100, 60);
    const states = await Promise.all(Array.from({ length: 30 }, (_, i) => (i % 2 ? a : b).consume(limit, 'burst')));
    expect(states.map((s) => s.count).sort((x, y) => x - y)).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
  });

  it('peeks without counting: room for one more until the limit is reached', async () => {
    const { a, b } = instances();
    const limit = rule(2, 60);
    expect(await a.peek(limit, 'p')).toMatchObject({ allowed: true, count: 0 });
    await a.consume(limit, 'p');
    expect(await b.peek(limit, 'p')).toMatchObject({ allowed: true, count: 1 });
    expect(await b.peek(limit, 'p')).toMatchObject({ allowed: true, count: 1 });
    await b.consume(limit, 'p');
    const full = await a.peek(limit, 'p');
    expect(full).toMatchObject({ allowed: false, count: 2 });
    expect(full.retryAfterSeconds).toBeGreaterThan(0);
    expect(full.retryAfterSeconds).toBeLessThanOrEqual(60);
  });

  it('takes a count back on refund and forgets the subject on reset', async () => {
    const { a, b } = instances();
    const limit = rule(2, 60);
    await a.consume(limit, 's');
    await a.consume(limit, 's');
    await b.refund(limit, 's');
    expect((await a.consume(limit, 's')).count).toBe(2);
    await b.reset(limit, 's');
    expect((await a.consume(limit, 's')).count).toBe(1);
    // A refund never goes below zero.
    await b.refund(limit, 'unknown');
    expect((await a.consume(limit, 'unknown')).count).toBe(1);
  });
}

describe('DatabaseRateLimiter', () => {
  let database: TestDatabase;
  let second: DatabaseHandle;
  const clock = new ManualClock();
  let a: DatabaseRateLimiter;
  let b: DatabaseRateLimiter;

  beforeAll(async () => {
    database = await openTestDatabase();
    // The second instance has its own connections to the same database, as another server would.
    second = await database.reopen();
    a = new DatabaseRateLimiter(database.db, clock);
    b = new DatabaseRateLimiter(second.db, clock);
  });
  afterAll(async () => {
    await second.close();
    await database.drop();
  });

  sharedBehaviour(() => ({ a, b }));

  it('starts a new window when the old one has ended, and says how long is left', async () => {
    const limit = rule(2, 60);
    await a.consume(limit, 'w');
    clock.advance(20_000);
    await b.consume(limit, 'w');
    const over = await a.consume(limit, 'w');
    expect(over).toMatchObject({ allowed: false, count: 3, retryAfterSeconds: 40 });
    clock.advance(39_500);
    expect((await b.consume(limit, 'w')).retryAfterSeconds).toBe(1);
    clock.advance(500);
    expect(await a.consume(limit, 'w')).toMatchObject({ allowed: true, count: 1, retryAfterSeconds: 60 });
  });

  it('deletes ended windows as it goes', async () => {
    const limit = rule(5, 1);
    await a.consume(limit, 'old');
    clock.advance(120_000);
    await a.consume(rule(5), 'new');
    const keys = await database.db.selectFrom('rate_limits').select('key').execute();
    expect(keys.map((k) => k.key)).not.toContain(`${limit.name}:old`);
  });
});

describe('RedisRateLimiter (local Redis)', () => {
  const prefix = `test-${randomBytes(6).toString('hex')}:`;
  let a: RedisRateLimiter;
  let b: RedisRateLimiter;

  beforeAll(() => {
    a = new RedisRateLimiter(REDIS_URL, { prefix });
    b = new RedisRateLimiter(REDIS_URL, { prefix });
  });
  afterAll(async () => {
    await a.close();
    await b.close();
  });

  sharedBehaviour(() => ({ a, b }));

  it('ends the window after its length', async () => {
    const limit = rule(1, 1);
    await a.consume(limit, 'short');
    expect((await b.consume(limit, 'short')).allowed).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect(await a.consume(limit, 'short')).toMatchObject({ allowed: true, count: 1 });
  });

  it('answers 503 when Redis cannot be reached', async () => {
    const away = new RedisRateLimiter('redis://127.0.0.1:1', { prefix });
    await expect(away.consume(rule(1), 'x')).rejects.toMatchObject({ code: 'unavailable' });
    await away.close();
  });
});

describe('FallbackRateLimiter (Redis away, then back)', () => {
  let test: TestDatabase;
  beforeAll(async () => {
    test = await openTestDatabase();
  });
  afterAll(() => test?.drop());

  it('counts in the database while Redis does not answer, with the limit still enforced', async () => {
    const clock = new ManualClock();
    const switches: string[] = [];
    const away = new RedisRateLimiter('redis://127.0.0.1:1', { prefix: 'fallback-test:' });
    const limiter = new FallbackRateLimiter(away, new DatabaseRateLimiter(test.db, clock), { clock, onSwitch: (to) => switches.push(to) });
    const limit = rule(2);
    const states = [];
    for (let n = 0; n < 3; n++) states.push(await limiter.consume(limit, 'subject'));
    expect(states.map((s) => [s.count, s.allowed])).toEqual([
      [1, true],
      [2, true],
      [3, false],
    ]);
    expect(switches).toEqual(['fallback']);
    await limiter.close();
  });

  it('tries Redis again after the hold and switches back when it answers', async () => {
    const clock = new ManualClock();
    const switches: string[] = [];
    let redisAway = true;
    const database = new DatabaseRateLimiter(test.db, clock);
    // Stands in for Redis: the database limiter, failing as RedisRateLimiter does while it is away.
    const primary: RateLimiter = {
      consume: (r, s) => (redisAway ? Promise.reject(new AppError('unavailable')) : database.consume(r, `redis:${s}`)),
      peek: (r, s) => database.peek(r, s),
      refund: (r, s) => database.refund(r, s),
      reset: (r, s) => database.reset(r, s),
      close: async () => undefined,
    };
    const limiter = new FallbackRateLimiter(primary, database, { clock, onSwitch: (to) => switches.push(to) });
    const limit = rule(5);
    await limiter.consume(limit, 'subject');
    redisAway = false;
    // Within the hold the database keeps counting, without asking Redis.
    expect((await limiter.consume(limit, 'subject')).count).toBe(2);
    clock.advance(FALLBACK_HOLD_MS);
    expect((await limiter.consume(limit, 'subject')).count).toBe(1);
    expect(switches).toEqual(['fallback', 'primary']);
  });
});

describe('rateLimitError', () => {
  it('carries Retry-After and the seconds', () => {
    const error = rateLimitError({ allowed: false, count: 4, limit: 3, retryAfterSeconds: 42 });
    expect(error.code).toBe('rate_limited');
    expect(error.options).toMatchObject({ headers: { 'Retry-After': '42' }, values: { seconds: 42 }, data: { retryAfter: 42 } });
  });
});
