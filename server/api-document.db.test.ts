import Fastify, { type RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerApiStandalone } from './api.ts';
import { loadConfig } from './config.ts';
import { createServices, type Services } from './services.ts';
import { openTestDatabase, type TestDatabase } from './testing/test-database.ts';

/** The calls of spec section 7, as method and path below /serve/api. */
const SPEC_CALLS = [
  'GET /app/list/', 'GET /app/info/', 'GET /app/tag/', 'GET /article/list/{column}', 'GET /article/column/info/{column}',
  'GET /article/info/{id}', 'GET /game/config/{app_id}', 'GET /page/info/', 'GET /webauthn/create/options/',
  'GET /webauthn/login/options/', 'GET /webauthn/credential/list/', 'GET /csrf', 'POST /member/played/', 'POST /member/avatar/',
  'POST /username/login/', 'POST /fingerprint/login/', 'POST /logout/', 'POST /session/check', 'POST /payment/xsolla/create/',
  'POST /game/login/{app_id}', 'POST /game/pay/{app_id}', 'POST /oauth/link/{platform}', 'POST /oauth/login/{platform}',
  'POST /webauthn/create/verification/', 'POST /webauthn/login/verification/', 'PATCH /member/nickname/', 'PATCH /member/password/',
  'PATCH /member/social/unbind/{platform}', 'DELETE /webauthn/credential/{id}',
];

interface Operation {
  operationId?: string;
  summary?: string;
  responses: Record<string, { content?: Record<string, { schema: { properties?: { data?: unknown } } }> }>;
}

describe('the OpenAPI document', () => {
  let database: TestDatabase;
  let services: Services;
  let close: () => Promise<void>;
  const registered: Array<{ method: string; path: string }> = [];
  let paths: Record<string, Record<string, Operation>>;

  beforeAll(async () => {
    database = await openTestDatabase();
    const config = loadConfig({ APP_ENV: 'test', LOG_LEVEL: 'silent' });
    services = createServices(database, config);
    const app = Fastify({ logger: false });
    // Fastify's own list of what the plugin registers, webhooks and raw routes included.
    app.addHook('onRoute', (route: RouteOptions) => {
      for (const method of [route.method].flat()) registered.push({ method, path: route.url });
    });
    await registerApiStandalone(app, { config, services });
    await app.ready();
    paths = (await app.inject({ method: 'GET', url: '/serve/api/openapi.json' })).json().paths;
    close = async () => {
      await app.close();
      await services.rateLimiter.close();
    };
  });

  afterAll(async () => {
    await close();
    await database.drop();
  });

  const documented = () =>
    Object.entries(paths).flatMap(([path, item]) => Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`));

  it('lists every route the API registers, and nothing else', () => {
    const routes = registered
      // HEAD answers are Fastify's own copies of the GET routes; /* is the envelope's 404 for unknown paths.
      .filter(({ method, path }) => method !== 'HEAD' && !path.endsWith('/*'))
      .map(({ method, path }) => `${method} ${path.replace(/^\/serve\/api/, '').replace(/:([A-Za-z_]+)/g, '{$1}')}`);
    expect(routes.length).toBeGreaterThan(50);
    expect(new Set(routes).size).toBe(routes.length);
    expect(documented().toSorted()).toEqual(routes.toSorted());
  });

  it('has every call of spec section 7', () => {
    expect(documented()).toEqual(expect.arrayContaining(SPEC_CALLS));
  });

  it('names and sums up every operation, with unique operation ids', () => {
    const operations = Object.values(paths).flatMap((item) => Object.values(item));
    for (const operation of operations) {
      expect(operation.operationId, JSON.stringify(operation.summary)).toMatch(/^[a-z][A-Za-z0-9]+$/);
      expect(operation.summary?.length).toBeGreaterThan(5);
    }
    expect(new Set(operations.map((o) => o.operationId)).size).toBe(operations.length);
  });

  it('describes the data of every success envelope', () => {
    for (const [path, item] of Object.entries(paths)) {
      for (const [method, operation] of Object.entries(item)) {
        const success = Object.entries(operation.responses).find(([status]) => status.startsWith('2'));
        expect(success, `${method} ${path}`).toBeDefined();
        const schema = success![1].content?.['application/json']?.schema;
        // 204 answers carry nothing; every JSON answer says what its data (or its whole body) is.
        if (success![0] === '204') continue;
        expect(schema, `${method} ${path}`).toBeDefined();
        const data = schema!.properties?.data ?? schema;
        expect(Object.keys(data as object).length, `${method} ${path}`).toBeGreaterThan(0);
      }
    }
  });
});
