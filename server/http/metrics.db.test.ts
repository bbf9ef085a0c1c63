import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPortal } from '../app.ts';
import { loadConfig } from '../config.ts';
import { createServices, type Services } from '../services.ts';
import { insertDeveloperGame } from '../testing/developer-games.ts';
import { insertUser } from '../testing/test-api.ts';
import { openTestDatabase, type TestDatabase } from '../testing/test-database.ts';
import { parseMetrics, type Sample } from '../testing/metrics-text.ts';

const TOKEN = 'metrics-test-token-0123456789';

async function openPortal(
  database: TestDatabase,
  env: Record<string, string>,
): Promise<{ portal: FastifyInstance; gamesOrigin: FastifyInstance; services: Services; close(): Promise<void> }> {
  const config = loadConfig({ APP_ENV: 'test', LOG_LEVEL: 'silent', ...env });
  const services = createServices(database, config);
  // Stands for the games origin (server/main.ts builds it first and hands it over): a server of the same process.
  const gamesOrigin = Fastify({ logger: false });
  gamesOrigin.get('/*', async (_request, reply) => reply.code(404).send('No game here.'));
  const portal = await buildPortal({
    gamesOrigin,
    config,
    services,
    getBuild: () => Promise.reject(new Error('no pages in this test')),
    buildId: 'test',
    mode: 'production',
    clientDir: mkdtempSync(join(tmpdir(), 'playport-client-')),
    logger: false,
  });
  return {
    portal,
    gamesOrigin,
    services,
    async close() {
      await portal.close();
      await gamesOrigin.close();
      await services.rateLimiter.close();
    },
  };
}

/** The samples of one scrape. */
const scrapeSamples = async (app: FastifyInstance) =>
  parseMetrics((await app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } })).body);
/** The sum of the samples of a metric that carry these labels. */
const count = (samples: Sample[], name: string, labels: Record<string, string>) =>
  samples.filter((s) => s.name === name && Object.entries(labels).every(([key, value]) => s.labels[key] === value)).reduce((sum, s) => sum + s.value, 0);

describe('GET /metrics', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(async () => {
    await database?.drop();
  });

  it('is not there without METRICS_TOKEN', async () => {
    const { portal, close } = await openPortal(database, {});
    try {
      const response = await portal.inject({ method: 'GET', url: '/metrics', headers: { authorization: 'Bearer ' } });
      expect(response.statusCode).not.toBe(200);
      expect(response.body).not.toContain('http_requests_total');
    } finally {
      await close();
    }
  });

  it('answers the bearer of the token with requests by route pattern, Node, the outboxes and the database', async () => {
    const { portal, gamesOrigin, services, close } = await openPortal(database, { METRICS_TOKEN: TOKEN });
    try {
      for (const authorization of [undefined, 'Bearer wrong-token-0123456789', `Bearer ${TOKEN}x`, TOKEN, `Basic ${TOKEN}`]) {
        const refused = await portal.inject({ method: 'GET', url: '/metrics', headers: authorization ? { authorization } : {} });
        expect(refused.statusCode, authorization).toBe(404);
        expect(refused.body).not.toContain('http_requests_total');
      }

      await services.mail.enqueue({ to: 'metrics@example.test', locale: 'en', template: 'test-message', params: { nickname: 'Metrics' } });
      await portal.inject({ method: 'GET', url: '/healthz' });
      await portal.inject({ method: 'GET', url: '/serve/api/csrf' });
      for (const id of [918273, 918274]) await portal.inject({ method: 'GET', url: `/serve/api/game/config/${id}` });
      await portal.inject({ method: 'GET', url: '/serve/api/no-such/918275' });
      await portal.inject({ method: 'PROPFIND', url: '/healthz' });
      // The games origin's answer: a host with no game.
      await gamesOrigin.inject({ method: 'GET', url: '/index.html', headers: { host: 'no-such-game.games.localhost' } });

      const scrape = await portal.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
      expect(scrape.statusCode).toBe(200);
      expect(scrape.headers['content-type']).toContain('text/plain');
      const samples = parseMetrics(scrape.body);
      const find = (name: string, labels: Record<string, string> = {}) =>
        samples.filter((s) => s.name === name && Object.entries(labels).every(([key, value]) => s.labels[key] === value));
      const value = (name: string, labels: Record<string, string> = {}) => find(name, labels).reduce((sum, s) => sum + s.value, 0);

      expect(value('http_requests_total', { server: 'portal', method: 'GET', route: '/healthz', status: '200' })).toBe(1);
      expect(value('http_requests_total', { server: 'games', method: 'GET', status: '404' })).toBe(1);
      expect(value('http_requests_total', { server: 'games' })).toBe(1);
      expect(value('http_requests_total', { method: 'GET', route: '/serve/api/game/config/:app_id' })).toBe(2);
      expect(value('http_requests_total', { route: '/serve/api/*', status: '404' })).toBe(1);
      expect(find('http_requests_total', { method: 'OTHER' }).length).toBe(1);
      expect(value('http_request_duration_seconds_count', { method: 'GET', route: '/healthz', status: '200' })).toBe(1);
      expect(find('http_request_duration_seconds_bucket', { route: '/healthz', le: '+Inf' }).length).toBe(1);

      expect(value('outbox_depth', { outbox: 'mail' })).toBeGreaterThanOrEqual(1);
      expect(find('outbox_depth', { outbox: 'webhooks' }).length).toBe(1);
      expect(find('outbox_oldest_age_seconds', { outbox: 'mail' })[0]?.value).toBeGreaterThanOrEqual(0);
      expect(value('database_up')).toBe(1);
      for (const name of ['nodejs_eventloop_lag_p99_seconds', 'process_resident_memory_bytes', 'nodejs_heap_size_used_bytes']) {
        expect(find(name).length, name).toBeGreaterThan(0);
      }

      // Bounded labels: no value holds a path a client chose or an id.
      const values = samples.flatMap((s) => Object.values(s.labels));
      expect(values.filter((v) => /\/\d+(\/|$)|91827|no-such|PROPFIND/.test(v))).toEqual([]);
    } finally {
      await close();
    }
  });

  it('says the database is down when it does not answer', async () => {
    const { portal, close } = await openPortal(database, { METRICS_TOKEN: TOKEN });
    const second = await openTestDatabase();
    const { portal: broken, close: closeBroken } = await openPortal(second, { METRICS_TOKEN: TOKEN });
    try {
      await second.drop();
      const scrape = await broken.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
      expect(scrape.statusCode).toBe(200);
      const samples: Sample[] = parseMetrics(scrape.body);
      expect(samples.find((s) => s.name === 'database_up')?.value).toBe(0);
      expect(samples.some((s) => s.name === 'outbox_depth')).toBe(false);
      const healthy = parseMetrics((await portal.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } })).body);
      expect(healthy.find((s) => s.name === 'database_up')?.value).toBe(1);
    } finally {
      await closeBroken();
      await close();
    }
  });
  it('times queries by statement, shows the pool on PostgreSQL, counts open build uploads and says whether Redis answers', async () => {
    const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
    const { portal, services, close } = await openPortal(database, { METRICS_TOKEN: TOKEN, REDIS_URL: redisUrl });
    // A port nothing listens on: Redis is down for this one.
    const { portal: noRedis, close: closeNoRedis } = await openPortal(database, { METRICS_TOKEN: TOKEN, REDIS_URL: 'redis://127.0.0.1:1' });
    try {
      const before = await scrapeSamples(portal);
      const open = count(before, 'build_uploads_in_progress', {});
      const userId = await insertUser(services);
      const game = await insertDeveloperGame(services.database.db, userId);
      await services.buildUploads.open(userId, game.id, 1024);
      const inserts = count(before, 'database_query_duration_seconds_count', { statement: 'insert', outcome: 'ok' });
      await services.database.db
        .selectFrom('no_such_table' as 'users')
        .select('id')
        .execute()
        .catch(() => undefined);

      const after = await scrapeSamples(portal);
      expect(count(after, 'build_uploads_in_progress', {})).toBe(open + 1);
      expect(count(after, 'database_query_duration_seconds_count', { statement: 'insert', outcome: 'ok' })).toBeGreaterThan(inserts);
      expect(count(after, 'database_query_duration_seconds_count', { statement: 'select', outcome: 'error' })).toBeGreaterThanOrEqual(1);
      expect(after.filter((s) => s.name === 'database_query_duration_seconds_bucket' && s.labels.le === '+Inf').length).toBeGreaterThan(0);
      const pool = after.filter((s) => s.name === 'database_pool_connections');
      if (services.database.kind === 'postgres') {
        expect(pool.map((s) => s.labels.state).sort()).toEqual(['idle', 'in_use', 'max', 'waiting']);
        expect(count(after, 'database_pool_connections', { state: 'max' })).toBeGreaterThan(0);
      } else {
        expect(pool).toEqual([]);
      }
      expect(count(after, 'redis_up', {})).toBe(1);
      expect(count(await scrapeSamples(noRedis), 'redis_up', {})).toBe(0);
      // Without REDIS_URL there is no Redis to report on.
      const { portal: plain, close: closePlain } = await openPortal(database, { METRICS_TOKEN: TOKEN });
      try {
        expect((await scrapeSamples(plain)).some((s) => s.name === 'redis_up')).toBe(false);
      } finally {
        await closePlain();
      }
    } finally {
      await closeNoRedis();
      await close();
    }
  });
});
