// PostgreSQL and Redis stopped under load and started again, on private instances: requests that
// need the stopped service answer 503 with Retry-After (API envelope, or a plain page), the
// process stays up, service returns by itself, and rate limits keep counting in the database
// while Redis is away (decision 077).
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  Client,
  createRedis,
  freshPostgresDatabase,
  postgresAt,
  type PrivatePostgres,
  type PrivateRedis,
  type Server,
  killServers,
  sleep,
  startServer,
  waitFor,
} from './support.ts';

let postgres: PrivatePostgres;
let redis: PrivateRedis;
let server: Server;
let client: Client;
let member: { token: string; uid: number };
let appId: number;

beforeAll(async () => {
  const { postgresDir, postgresPort } = inject('faults');
  postgres = postgresAt(postgresDir, postgresPort);
  redis = createRedis();
  server = await startServer({ DATABASE_URL: await freshPostgresDatabase(postgres), REDIS_URL: redis.url, DATABASE_POOL_SIZE: '4' });
  client = new Client(server.origin);
  member = await client.newMember(`out_${randomBytes(4).toString('hex')}`);
  appId = (await client.call<{ items: Array<{ id: number }> }>('GET', '/app/list/')).data.items[0]!.id;
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await killServers();
  // Leave the shared cluster running for the next file, even when a test failed while it was stopped.
  if (postgres && !existsSync(join(postgres.dir, 'data/postmaster.pid'))) postgres.start();
  redis?.stop();
});

/** Calls that need the database, a read and a write, over and over until stopped; every answer's status is kept. */
function load(workers: number) {
  const answers: Array<{ at: number; status: number; retryAfter: string | null; code?: number }> = [];
  const state = { running: true };
  const loops = Array.from({ length: workers }, async (_, worker) => {
    while (state.running) {
      const answer =
        worker % 2 === 0
          ? await client.call('GET', '/member/info/', { token: member.token }).catch(() => null)
          : await client.call('POST', '/member/played/', { token: member.token, body: { app_id: appId } }).catch(() => null);
      answers.push(
        answer
          ? { at: Date.now(), status: answer.status, retryAfter: answer.headers.get('retry-after'), code: answer.code }
          : { at: Date.now(), status: 0, retryAfter: null },
      );
      await sleep(20);
    }
  });
  return {
    answers,
    stop: async () => {
      state.running = false;
      await Promise.all(loops);
    },
  };
}

describe('PostgreSQL stopped under load', () => {
  it('answers 503 with Retry-After while it is away, stays up, and serves again by itself when it returns', async () => {
    const traffic = load(4);
    await sleep(500);
    postgres.stop('fast');
    const stoppedAt = Date.now();

    const api = await waitFor('a 503 from the API', async () => {
      const answer = await client.call('GET', '/member/info/', { token: member.token });
      return answer.status === 503 ? answer : undefined;
    });
    expect(api.code).toBe(503);
    expect(api.message).toBe('The service is temporarily unavailable.');
    expect(Number(api.headers.get('retry-after'))).toBeGreaterThan(0);

    const page = await fetch(`${server.origin}/zh-CN`);
    expect(page.status).toBe(503);
    expect(page.headers.get('retry-after')).toBeTruthy();
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(await page.text()).toContain('服务暂时不可用');
    expect((await fetch(`${server.origin}/readyz`)).status).toBe(503);

    await sleep(Math.max(0, 3000 - (Date.now() - stoppedAt)));
    postgres.start();
    const startedAt = Date.now();
    await waitFor(
      'the API to serve again',
      async () => ((await client.call('GET', '/member/info/', { token: member.token })).status === 200 ? true : undefined),
      30_000,
      50,
    );
    const recoveryMs = Date.now() - startedAt;
    await sleep(300);
    await traffic.stop();

    console.info(`PostgreSQL: API served again ${recoveryMs} ms after the database accepted connections`);
    expect(recoveryMs).toBeLessThan(10_000);
    expect(server.child.exitCode).toBeNull();
    const during = traffic.answers.filter((a) => a.at > stoppedAt && a.at < startedAt);
    expect(during.length).toBeGreaterThan(10);
    // Every answer is a success or the outage's 503 with Retry-After: no 500, no dropped connection.
    for (const answer of traffic.answers) {
      if (answer.status === 503) expect(answer).toMatchObject({ code: 503, retryAfter: expect.stringMatching(/^\d+$/) });
      else expect([200, 201]).toContain(answer.status);
    }
    expect(during.some((a) => a.status === 503)).toBe(true);
    expect((await fetch(`${server.origin}/zh-CN`)).status).toBe(200);
    expect(server.output()).not.toMatch(/Unhandled|uncaught/i);
  }, 60_000);

  it('survives a crash of PostgreSQL (immediate stop, recovery from its WAL)', async () => {
    postgres.stop('immediate');
    expect((await client.call('POST', '/member/played/', { token: member.token, body: { app_id: appId } })).status).toBe(503);
    postgres.start();
    const startedAt = Date.now();
    await waitFor(
      'the API to serve again',
      async () => ((await client.call('POST', '/member/played/', { token: member.token, body: { app_id: appId } })).status === 200 ? true : undefined),
      30_000,
      50,
    );
    console.info(`PostgreSQL after a crash: writes accepted again ${Date.now() - startedAt} ms after it accepted connections`);
    expect(server.child.exitCode).toBeNull();
  }, 60_000);
});

/** The rate-limit counters in the private Redis. */
function redisKeys(): string[] {
  return execFileSync('redis-cli', ['-u', redis.url, '--scan', '--pattern', 'playport:rate:*']).toString().split('\n').filter(Boolean);
}

describe('Redis stopped under load', () => {
  it('keeps the sign-in limit in the database while Redis is away, then counts in Redis again', async () => {
    const username = `red_${randomBytes(4).toString('hex')}`;
    await client.newMember(username);
    const traffic = load(2);
    redis.stop();
    const stoppedAt = Date.now();

    // login-pair allows 10 failed attempts per 15 minutes: the 11th is refused, Redis or not.
    const statuses: number[] = [];
    const started = Date.now();
    for (let attempt = 0; attempt < 11; attempt++) {
      statuses.push((await client.call('POST', '/username/login/', { body: { username, password: 'Wrong-Password-1234' } })).status);
    }
    const elapsed = Date.now() - started;
    expect(statuses).toEqual([...Array(10).fill(401), 429]);
    expect(server.output()).toContain('rate limits count in the database');
    console.info(`Redis away: 11 sign-in attempts took ${elapsed} ms (password hashing included)`);

    await sleep(Math.max(0, 2000 - (Date.now() - stoppedAt)));
    redis.start();
    const startedAt = Date.now();
    const other = `back_${randomBytes(4).toString('hex')}`;
    await waitFor(
      'limits counted in Redis again',
      async () => {
        await client.call('POST', '/username/login/', { body: { username: other, password: 'Wrong-Password-1234' } });
        return redisKeys().some((key) => key.includes(`login-pair:${other}`)) ? true : undefined;
      },
      30_000,
      200,
    );
    const recoveryMs = Date.now() - startedAt;
    await traffic.stop();
    console.info(`Redis: limits counted in Redis again ${recoveryMs} ms after it started`);
    expect(recoveryMs).toBeLessThan(15_000);
    // Requests that do not use Redis were never refused.
    expect(traffic.answers.every((a) => a.status === 200 || a.status === 201)).toBe(true);
    expect(server.child.exitCode).toBeNull();
  }, 60_000);
});
