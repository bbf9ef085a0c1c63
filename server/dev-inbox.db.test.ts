import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPortal } from './app.ts';
import { loadConfig } from './config.ts';
import { createServices } from './services.ts';
import { openTestDatabase, type TestDatabase } from './testing/test-database.ts';

/** The portal built with this environment: its answer to GET /dev/whatsapp-inbox. */
async function inboxAnswer(database: TestDatabase, env: Record<string, string>): Promise<{ routes: string[]; status: number; type: string }> {
  const config = loadConfig({ APP_ENV: 'test', LOG_LEVEL: 'silent', ...env });
  const services = createServices(database, config);
  const routes: string[] = [];
  const portal = await buildPortal({
    config,
    services,
    // No pages: a path without a route of its own fails here instead of rendering the not-found page.
    getBuild: () => Promise.reject(new Error('no pages in this test')),
    buildId: 'test',
    mode: 'production',
    clientDir: mkdtempSync(join(tmpdir(), 'playport-client-')),
    logger: false,
    onRoute: (route) => routes.push(route.url),
  });
  try {
    const response = await portal.inject({ method: 'GET', url: '/dev/whatsapp-inbox' });
    return { routes, status: response.statusCode, type: String(response.headers['content-type'] ?? '') };
  } finally {
    await portal.close();
    await services.rateLimiter.close();
  }
}

/** The development sender's inbox shows everyone's codes: only a server on loopback over http has it. */
describe('the development WhatsApp inbox', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(async () => {
    await database?.drop();
  });

  it('is served on loopback over http', async () => {
    const answer = await inboxAnswer(database, { HOST: '127.0.0.1' });
    expect(answer.routes).toContain('/dev/whatsapp-inbox');
    expect(answer.status).toBe(200);
    expect(answer.type).toContain('text/html');
  });

  it('is not served when the server listens beyond loopback or its origin is https', async () => {
    for (const env of [{ HOST: '0.0.0.0' }, { PUBLIC_ORIGIN: 'https://play.example' }] as Array<Record<string, string>>) {
      const answer = await inboxAnswer(database, { ...env, APP_SECRET: 'dev-inbox-test-secret-0123456789abcdef' });
      expect(answer.routes, JSON.stringify(env)).not.toContain('/dev/whatsapp-inbox');
      expect(answer.status).not.toBe(200);
    }
  });
});
