import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiInstance, csrfHeadersFor, openApiInstance, openSecondInstance } from '#server/testing/api-instance.ts';
import { openTestApi, type TestApi } from '#server/testing/test-api.ts';
import { ACCOUNT_LIMITS } from './accounts.service.ts';
import { solvedChallenge } from '#server/testing/guest-challenge.ts';

const API = '/serve/api';
const PASSWORD = 'correct horse battery';

/** Sign-in limits hold across two server instances that share one store. */
function limitsAcrossInstances(open: () => Promise<{ first: FastifyInstance; second: FastifyInstance; close(): Promise<void> }>) {
  let first: FastifyInstance;
  let second: FastifyInstance;
  let close: () => Promise<void>;
  let csrf: Record<string, string>;
  // Unique names and addresses per run: the Redis store outlives a test run.
  const run = randomBytes(3).toString('hex');
  const address = (n: number) => `10.${parseInt(run.slice(0, 2), 16)}.${parseInt(run.slice(2, 4), 16)}.${n}`;

  beforeAll(async () => {
    ({ first, second, close } = await open());
    csrf = await csrfHeadersFor(first);
  });
  afterAll(() => close());

  const login = (app: FastifyInstance, username: string, password: string, remoteAddress: string) =>
    app.inject({ method: 'POST', url: `${API}/username/login/`, headers: csrf, payload: { username, password }, remoteAddress });

  async function member(username: string) {
    const guest = await first.inject({
      method: 'POST',
      url: `${API}/guest/login/`,
      headers: csrf,
      payload: await solvedChallenge(second),
      remoteAddress: address(250),
    });
    const token = guest.json().data.token as string;
    const set = await second.inject({
      method: 'PATCH',
      url: `${API}/member/password/`,
      headers: { ...csrf, authorization: `Bearer ${token}` },
      payload: { username, password: PASSWORD },
    });
    expect(set.statusCode, set.body).toBe(200);
  }

  it('ten wrong passwords from one client stop that client for that username, never the owner elsewhere', async () => {
    const username = `acct_${run}`;
    await member(username);
    const attacker = address(1);
    const { limit, windowSeconds } = ACCOUNT_LIMITS.loginPair;
    for (let i = 0; i < limit; i++) {
      const response = await login(i % 2 ? second : first, username, 'wrong password', attacker);
      expect(response.statusCode, `attempt ${i + 1}`).toBe(401);
    }
    for (const app of [first, second]) {
      const limited = await login(app, username, 'wrong password', attacker);
      expect(limited.statusCode).toBe(429);
      const seconds = Number(limited.headers['retry-after']);
      expect(seconds).toBeGreaterThan(0);
      expect(seconds).toBeLessThanOrEqual(windowSeconds);
      expect(limited.json().message).toBe(`Too many attempts. Please try again in ${seconds} seconds.`);
    }
    // The attacker cannot even try the right password from there.
    expect((await login(second, username, PASSWORD, attacker)).statusCode).toBe(429);
    // The owner, from their own address, signs in with the right password, on either instance.
    expect((await login(first, username.toUpperCase(), PASSWORD, address(101))).statusCode).toBe(200);
    // The same attacker may still sign into another account of their own.
    const other = `other_${run}`;
    await member(other);
    expect((await login(first, other, PASSWORD, attacker)).statusCode).toBe(200);
  });

  it('ten addresses with ten wrong passwords each never lock the owner out: a right password from a fresh address signs in', async () => {
    const username = `many_${run}`;
    await member(username);
    const { limit } = ACCOUNT_LIMITS.loginAccount;
    // A distributed guess: ten addresses, each at its own limit for this username.
    for (let i = 0; i < limit; i++) {
      const response = await login(i % 2 ? second : first, username, 'wrong password', address(100 + Math.floor(i / 10)));
      expect(response.statusCode, `attempt ${i + 1}`).toBe(401);
    }
    // Each of the guessing addresses is held back by its own failures, right password or not.
    expect((await login(first, username, PASSWORD, address(105))).statusCode).toBe(429);
    // The owner, from an address with no failures of its own, signs in on either instance.
    expect((await login(second, username, PASSWORD, address(240))).statusCode).toBe(200);
    expect((await login(first, username, PASSWORD, address(241))).statusCode).toBe(200);
  }, 120000);

  it('past the ceiling a wrong password from a fresh address is refused with 429 and holds that address back, while a right one still signs in', async () => {
    const username = `ceil_${run}`;
    await member(username);
    const { limit } = ACCOUNT_LIMITS.loginAccount;
    for (let i = 0; i < limit; i++)
      expect((await login(i % 2 ? second : first, username, 'wrong password', address(110 + Math.floor(i / 10)))).statusCode).toBe(401);
    const fresh = address(242);
    const refused = await login(first, username, 'wrong password', fresh);
    expect(refused.statusCode).toBe(429);
    const seconds = Number(refused.headers['retry-after']);
    expect(seconds).toBeGreaterThan(ACCOUNT_LIMITS.loginPair.windowSeconds);
    expect(seconds).toBeLessThanOrEqual(ACCOUNT_LIMITS.loginHeld.windowSeconds);
    expect(refused.json().data).toEqual({ retryAfter: seconds });
    // That address used its one check of the hour: even the right password waits there, on either instance.
    expect((await login(second, username, PASSWORD, fresh)).statusCode).toBe(429);
    // Unknown usernames past the ceiling answer the same way: the 429 tells nothing about the account.
    const nobody = `ghost_${run}`;
    for (let i = 0; i < limit; i++) expect((await login(first, nobody, 'wrong password', address(120 + Math.floor(i / 10)))).statusCode).toBe(401);
    expect((await login(second, nobody, 'wrong password', address(243))).statusCode).toBe(429);
    // Another fresh address with the right password signs in, and that clears the username's ceiling.
    expect((await login(second, username, PASSWORD, address(244))).statusCode).toBe(200);
    expect((await login(first, username, 'wrong password', address(245))).statusCode).toBe(401);
  }, 120000);

  it("a signed-in owner changes the password after others' failures, and their own wrong current passwords are limited", async () => {
    const username = `change_${run}`;
    await member(username);
    const session = await login(first, username, PASSWORD, address(246));
    const token = session.json().data.token as string;
    const { limit } = ACCOUNT_LIMITS.loginAccount;
    // Others push the username past its ceiling, some of them from the owner's own address.
    for (let i = 0; i < limit + 1; i++)
      await login(i % 2 ? second : first, username, 'wrong password', i < 10 ? address(246) : address(130 + Math.floor(i / 10)));
    const change = (app: FastifyInstance, currentPassword: string, password: string, bearer = token) =>
      app.inject({
        method: 'PATCH',
        url: `${API}/member/password/`,
        headers: { ...csrf, authorization: `Bearer ${bearer}` },
        payload: { password, currentPassword },
        remoteAddress: address(246),
      });
    const changed = await change(second, PASSWORD, 'a brand new passphrase');
    expect(changed.statusCode, changed.body).toBe(200);
    // The change rotated the session; the new token's wrong current passwords count against its own account only.
    const rotated = changed.json().data.token as string;
    const { limit: own } = ACCOUNT_LIMITS.passwordChange;
    for (let i = 0; i < own; i++)
      expect((await change(i % 2 ? first : second, 'not the password', 'another new passphrase', rotated)).statusCode, `attempt ${i + 1}`).toBe(422);
    expect((await change(first, 'a brand new passphrase', 'another new passphrase', rotated)).statusCode).toBe(429);
  }, 120000);

  it('limits failed sign-ins per client across usernames, whatever the instance', async () => {
    const { limit } = ACCOUNT_LIMITS.loginAddress;
    const from = address(200);
    for (let i = 0; i < limit; i++) {
      const response = await login(i % 2 ? second : first, `nobody_${run}_${i}`, 'wrong password', from);
      expect(response.statusCode, `attempt ${i + 1}`).toBe(401);
    }
    const limited = await login(second, `nobody_${run}_x`, 'wrong password', from);
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // Device sign-in failures count towards the same client limit.
    const device = await first.inject({
      method: 'POST',
      url: `${API}/fingerprint/login/`,
      headers: csrf,
      payload: { fingerprint: 'abcdefabcdefabcdefabcdefabcdef00', deviceId: 'a-device-id-of-this-test-00' },
      remoteAddress: from,
    });
    expect(device.statusCode).toBe(429);
    // Another address still gets the normal answer.
    expect((await login(first, `nobody_${run}_y`, 'wrong password', address(201))).statusCode).toBe(401);
  });

  it("a right password clears the username's counters", async () => {
    const username = `reset_${run}`;
    await member(username);
    const { limit } = ACCOUNT_LIMITS.loginPair;
    for (let i = 0; i < limit - 1; i++) expect((await login(first, username, 'wrong password', address(150))).statusCode).toBe(401);
    expect((await login(second, username, PASSWORD, address(150))).statusCode).toBe(200);
    for (let i = 0; i < limit - 1; i++) expect((await login(second, username, 'wrong password', address(150))).statusCode).toBe(401);
    expect((await login(first, username, PASSWORD, address(150))).statusCode).toBe(200);
  });

  it('limits how many usernames one account or client may try at registration', async () => {
    const taken = `taken_${run}`;
    await member(taken);
    const guest = await first.inject({
      method: 'POST',
      url: `${API}/guest/login/`,
      headers: csrf,
      payload: await solvedChallenge(first),
      remoteAddress: address(230),
    });
    const token = guest.json().data.token as string;
    const { limit } = ACCOUNT_LIMITS.registerAccount;
    const register = (username: string) =>
      (limit % 2 ? first : second).inject({
        method: 'PATCH',
        url: `${API}/member/password/`,
        headers: { ...csrf, authorization: `Bearer ${token}` },
        payload: { username, password: PASSWORD },
        remoteAddress: address(231),
      });
    for (let i = 0; i < limit; i++) {
      const response = await register(taken);
      expect(response.statusCode, `attempt ${i + 1}: ${response.body}`).toBe(422);
    }
    const limited = await register(taken);
    expect(limited.statusCode).toBe(429);
    // Refused before the name is looked up: a free name gets the same 429.
    expect((await register(`free_${run}`)).statusCode).toBe(429);
  });
}

/** The two instances as `limitsAcrossInstances` takes them; closing closes the second, then the API. */
function bothInstances(api: TestApi, second: ApiInstance) {
  return {
    first: api.app,
    second: second.app,
    async close() {
      await second.close();
      await api.close();
    },
  };
}

describe('sign-in limits on the database, two instances', () => {
  let api: TestApi;
  let second: ApiInstance;

  limitsAcrossInstances(async () => {
    api = await openTestApi();
    second = await openSecondInstance(api.database);
    return bothInstances(api, second);
  });

  it('keeps the counters in the rate_limits table', async () => {
    const rows = await api.services.database.db.selectFrom('rate_limits').select('key').execute();
    expect(rows.some((r) => r.key.startsWith(`${ACCOUNT_LIMITS.loginAccount.name}:`))).toBe(true);
  });
});

describe('sign-in limits on Redis, two instances', () => {
  let api: TestApi;
  let second: ApiInstance;
  // Each run's own keys: user ids start again in every fresh test database, Redis keeps its counters.
  const env = { REDIS_URL: 'redis://127.0.0.1:6379', REDIS_PREFIX: `test-${randomBytes(4).toString('hex')}:` };

  limitsAcrossInstances(async () => {
    api = await openTestApi(env);
    second = await openApiInstance(api.database, { env });
    return bothInstances(api, second);
  });

  it('leaves the rate_limits table empty', async () => {
    expect(await api.services.database.db.selectFrom('rate_limits').selectAll().execute()).toEqual([]);
  });
});
