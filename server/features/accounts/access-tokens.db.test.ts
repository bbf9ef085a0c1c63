import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '#server/testing/clocks.ts';
import { openTestDatabase, type TestDatabase } from '#server/testing/test-database.ts';
import { AccessTokensRepository } from './access-tokens.repository.ts';
import { AccessTokensService, TOKEN_IDLE_DAYS } from './access-tokens.service.ts';

const DAY = 24 * 60 * 60 * 1000;

describe('access tokens', () => {
  let database: TestDatabase;
  let clock: ManualClock;
  let tokens: AccessTokensService;
  let userId: number;

  beforeAll(async () => {
    database = await openTestDatabase();
    clock = new ManualClock();
    // A lifetime beyond the idle limit, so the idle limit alone is what these tests see.
    tokens = new AccessTokensService(new AccessTokensRepository(database.db), clock, { maxAgeDays: 3650 });
    const now = clock.now().toISOString();
    userId = (
      await database.db
        .insertInto('users')
        .values({ nickname: 'idle', is_guest: 1, created_at: now, updated_at: now })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  });
  afterAll(() => database.drop());

  const lastUsed = async (tokenId: number) =>
    (await database.db.selectFrom('access_tokens').select('last_used_at').where('id', '=', tokenId).executeTakeFirst())?.last_used_at;

  it('records the last use, at most once a minute', async () => {
    const { token, tokenId } = await tokens.issue(userId, 'test');
    const issuedAt = clock.now().toISOString();
    clock.time += 30_000;
    expect(await tokens.verify(token)).toEqual({ userId, tokenId });
    expect(await lastUsed(tokenId)).toBe(issuedAt);
    clock.time += 60_000;
    await tokens.verify(token);
    expect(await lastUsed(tokenId)).toBe(clock.now().toISOString());
  });

  it(`stops working after ${TOKEN_IDLE_DAYS} days unused, and is deleted; use keeps it alive`, async () => {
    const kept = await tokens.issue(userId, 'used');
    const idle = await tokens.issue(userId, 'idle');
    for (let month = 0; month < 13; month++) {
      clock.time += 30 * DAY;
      expect(await tokens.verify(kept.token), `month ${month + 1}`).not.toBeNull();
    }
    // 390 days since the idle token was last used.
    expect(await tokens.verify(idle.token)).toBeNull();
    expect(await lastUsed(idle.tokenId)).toBeUndefined();
    clock.time += (TOKEN_IDLE_DAYS - 1) * DAY;
    expect(await tokens.verify(kept.token)).not.toBeNull();
    clock.time += (TOKEN_IDLE_DAYS + 1) * DAY;
    // A day past a year since its last use.
    expect(await tokens.verify(kept.token)).toBeNull();
  });

  it('rotation revokes every earlier token, the one in hand included', async () => {
    const a = await tokens.issue(userId, 'a');
    const b = await tokens.issue(userId, 'b');
    const fresh = await tokens.rotate(userId, 'c');
    expect(await tokens.verify(a.token)).toBeNull();
    expect(await tokens.verify(b.token)).toBeNull();
    expect(await tokens.verify(fresh.token)).toEqual({ userId, tokenId: fresh.tokenId });
  });
});
