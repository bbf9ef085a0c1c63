import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPortal } from '../app.ts';
import { loadConfig } from '../config.ts';
import { createServices } from '../services.ts';
import { openApiInstance } from '../testing/api-instance.ts';
import { openTestDatabase, type TestDatabase } from '../testing/test-database.ts';

const RANDOM_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('the request id', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(async () => {
    await database?.drop();
  });

  it('is answered by the API and carried by its log lines', async () => {
    const lines: Array<Record<string, unknown>> = [];
    const stream = { write: (line: string) => lines.push(JSON.parse(line) as Record<string, unknown>) };
    const instance = await openApiInstance(database, { logger: { level: 'info', stream } });
    try {
      const fresh = await instance.app.inject({ method: 'GET', url: '/serve/api/csrf' });
      const id = String(fresh.headers['x-request-id']);
      expect(id).toMatch(RANDOM_ID);
      expect(lines.filter((line) => line.reqId === id).length).toBeGreaterThan(0);

      const echoed = await instance.app.inject({ method: 'GET', url: '/serve/api/no-such-route', headers: { 'x-request-id': 'edge-7f3a9b21c4' } });
      expect(echoed.statusCode).toBe(404);
      expect(echoed.headers['x-request-id']).toBe('edge-7f3a9b21c4');
      expect(lines.some((line) => line.reqId === 'edge-7f3a9b21c4')).toBe(true);

      for (const bad of ['x'.repeat(129), 'abcdefgh\tijk', 'abc']) {
        const replaced = await instance.app.inject({ method: 'GET', url: '/serve/api/csrf', headers: { 'x-request-id': bad } });
        expect(replaced.headers['x-request-id'], bad).toMatch(RANDOM_ID);
      }
      expect(lines.every((line) => typeof line.reqId !== 'string' || line.reqId.length <= 128)).toBe(true);
    } finally {
      await instance.close();
    }
  });

  it('is answered by the portal outside the API too', async () => {
    const config = loadConfig({ APP_ENV: 'test', LOG_LEVEL: 'silent' });
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
    try {
      for (const url of ['/healthz', '/builds/latest.json', '/serve/api/csrf', '/en/messages.json']) {
        const response = await portal.inject({ method: 'GET', url, headers: { 'x-request-id': 'edge-0123456789' } });
        expect(response.headers['x-request-id'], url).toBe('edge-0123456789');
      }
      const bad = await portal.inject({ method: 'GET', url: '/healthz', headers: { 'x-request-id': 'edge\u00010123456789' } });
      expect(bad.headers['x-request-id']).toMatch(RANDOM_ID);
    } finally {
      await portal.close();
      await services.rateLimiter.close();
    }
  });
});
