import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { solve } from '#common/proof-of-work.ts';
import { AppError } from '#server/lib/app-error.ts';
import { systemClock } from '#server/lib/clock.ts';
import { peekState, type RateLimiter, type RateLimitState, type RateRule, rateKey, rateState } from '#server/adapters/rate-limits/rate-limiter.ts';
import { openTestDatabase, type TestDatabase } from '#server/testing/test-database.ts';
import { AccessTokensRepository } from './access-tokens.repository.ts';
import { AccessTokensService } from './access-tokens.service.ts';
import { ACCOUNT_LIMITS, AccountsService } from './accounts.service.ts';
import { DiskStorage } from '#server/adapters/storage/disk-storage.ts';
import { AvatarsService } from './avatars.service.ts';
import { Argon2PasswordHasher, type PasswordHasher } from './password-hasher.ts';
import { GuestChallenges } from './guest-challenges.ts';
import { GuestMergeRepository } from './guest-merge.repository.ts';
import { GuestMergeService } from './guest-merge.service.ts';
import { ZxcvbnPasswordPolicy } from './password-policy.ts';
import { UsersRepository } from './users.repository.ts';

/** The real hasher, counting its checks. */
class CountingHasher implements PasswordHasher {
  readonly inner = new Argon2PasswordHasher();
  verifies = 0;
  hash(password: string) {
    return this.inner.hash(password);
  }
  verify(hashed: string, password: string) {
    this.verifies++;
    return this.inner.verify(hashed, password);
  }
}

/** Counters in a map: what the service asked of the limiter is easy to read back. */
class MemoryLimiter implements RateLimiter {
  readonly counts = new Map<string, number>();
  async consume(rule: RateRule, subject: string): Promise<RateLimitState> {
    const key = rateKey(rule, subject);
    const count = (this.counts.get(key) ?? 0) + 1;
    this.counts.set(key, count);
    return rateState(rule, count, rule.windowSeconds * 1000);
  }
  async peek(rule: RateRule, subject: string): Promise<RateLimitState> {
    return peekState(rule, this.counts.get(rateKey(rule, subject)) ?? 0, rule.windowSeconds * 1000);
  }
  async refund(rule: RateRule, subject: string) {
    const key = rateKey(rule, subject);
    this.counts.set(key, Math.max(0, (this.counts.get(key) ?? 0) - 1));
  }
  async reset(rule: RateRule, subject: string) {
    this.counts.delete(rateKey(rule, subject));
  }
  async close() {}
}

/** A guest sign-in body with the challenge solved, as the browser sends it. */
async function solved(accounts: AccountsService) {
  const { challenge, difficulty } = accounts.guestChallenge();
  return { challenge, nonce: await solve(challenge, difficulty, async () => undefined) };
}

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (e: unknown) => e as AppError,
  );

describe('AccountsService', () => {
  let database: TestDatabase;
  let uploads: string;
  let accounts: AccountsService;
  const hasher = new CountingHasher();
  const limiter = new MemoryLimiter();
  const client = { address: '203.0.113.9', userAgent: 'test' };

  beforeAll(async () => {
    database = await openTestDatabase();
    uploads = mkdtempSync(join(tmpdir(), 'playport-svc-'));
    accounts = new AccountsService({
      users: new UsersRepository(database.db),
      tokens: new AccessTokensService(new AccessTokensRepository(database.db), systemClock),
      // No guest here is merged into another account: the merge needs none of the other features' steps.
      guestMerge: new GuestMergeService(new GuestMergeRepository(database.db), []),
      hasher,
      passwordPolicy: new ZxcvbnPasswordPolicy(['Playport']),
      challenges: new GuestChallenges({ secret: 'a-test-secret-of-at-least-32-characters', limiter, clock: systemClock }),
      limiter,
      avatars: new AvatarsService(new DiskStorage(uploads, '/uploads/')),
      clock: systemClock,
      appSecret: 'a-test-secret-of-at-least-32-characters',
    });
  });
  afterAll(async () => {
    await database.drop();
    rmSync(uploads, { recursive: true, force: true });
  });

  it('checks a hash for unknown and malformed usernames too, so timing tells nothing', async () => {
    const before = hasher.verifies;
    for (const username of ['nobody_at_all', 'x', 'bad name!']) {
      const error = await failure(accounts.usernameLogin({ username, password: 'whatever pass' }, client));
      expect(error?.options.messageKey).toBe('accounts:invalidCredentials');
    }
    expect(hasher.verifies - before).toBe(3);
  });

  it("counts only failures, per username and client, per username and per client; a success clears the username's counts", async () => {
    const guest = await accounts.guestLogin(await solved(accounts), client, null, null, 'en');
    const caller = (await new AccessTokensService(new AccessTokensRepository(database.db), systemClock).verify(guest.token))!;
    const change = await accounts.setPassword(caller, { username: 'Judy_10', password: 'correct horse' }, client);
    expect(change.becameMember).toBe(true);
    limiter.counts.clear();
    await failure(accounts.usernameLogin({ username: 'judy_10', password: 'wrong horse' }, client));
    await failure(accounts.usernameLogin({ username: 'JUDY_10', password: 'wrong horse' }, client));
    const keys = [
      rateKey(ACCOUNT_LIMITS.loginPair, `judy_10|${client.address}/32`),
      rateKey(ACCOUNT_LIMITS.loginAccount, 'judy_10'),
      rateKey(ACCOUNT_LIMITS.loginAddress, `${client.address}/32`),
    ];
    expect(keys.map((key) => limiter.counts.get(key))).toEqual([2, 2, 2]);
    await accounts.usernameLogin({ username: 'Judy_10', password: 'correct horse' }, client);
    expect(keys.map((key) => limiter.counts.get(key))).toEqual([undefined, undefined, 2]);
  });

  it('reports whether a call created the account (the registration seam)', async () => {
    const guest = await accounts.guestLogin(await solved(accounts), client, null, null, 'en');
    expect(guest.created).toBe(true);
    const caller = (await new AccessTokensService(new AccessTokensRepository(database.db), systemClock).verify(guest.token))!;
    expect((await accounts.guestLogin({}, client, caller, guest.token, 'en')).created).toBe(false);
  });
});
