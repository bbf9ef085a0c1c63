import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPortal } from '../app.ts';
import { loadConfig } from '../config.ts';
import { createServices, type Services } from '../services.ts';
import { openTestDatabase, type TestDatabase } from '../testing/test-database.ts';
import { parseMetrics, type Sample } from '../testing/metrics-text.ts';

const TOKEN = 'metrics-test-token-0123456789';

async function openPortal(
  database: TestDatabase,
  env: Record<string, string>,
): Promise<{ portal: FastifyInstance; services: Services; close(): Promise<void> }> {
  const config = loadConfig({ APP_ENV: 'test', LOG_LEVEL: 'silent', ...env });
  const services = createServices(database, config);
  const portal = await buildPortal({
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
    services,
    async close() {
      await portal.close();
      await services.rateLimiter.close();
    },
  };
}

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
    const { portal, services, close } = await openPortal(database, { METRICS_TOKEN: TOKEN });
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

      const scrape = await portal.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
      expect(scrape.statusCode).toBe(200);
      expect(scrape.headers['content-type']).toContain('text/plain');
      const samples = parseMetrics(scrape.body);
      const find = (name: string, labels: Record<string, string> = {}) =>
        samples.filter((s) => s.name === name && Object.entries(labels).every(([key, value]) => s.labels[key] === value));
      const value = (name: string, labels: Record<string, string> = {}) => find(name, labels).reduce((sum, s) => sum + s.value, 0);

      expect(value('http_requests_total', { method: 'GET', route: '/healthz', status: '200' })).toBe(1);
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
});
