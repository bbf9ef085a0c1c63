import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify, { type RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerApiStandalone } from './api.ts';
import { buildPortal } from './app.ts';
import { loadConfig } from './config.ts';
import { createServices, type Services } from './services.ts';
import { openTestDatabase, type TestDatabase } from './testing/test-database.ts';

/** The calls of spec section 7, as method and path below /serve/api. */
const SPEC_CALLS = [
  'GET /app/list/',
  'GET /app/info/',
  'GET /app/tag/',
  'GET /article/list/{column}',
  'GET /article/column/info/{column}',
  'GET /article/info/{id}',
  'GET /game/config/{app_id}',
  'GET /page/info/',
  'GET /webauthn/create/options/',
  'GET /webauthn/login/options/',
  'GET /webauthn/credential/list/',
  'GET /csrf',
  'POST /member/played/',
  'POST /member/avatar/',
  'POST /username/login/',
  'POST /fingerprint/login/',
  'POST /logout/',
  'POST /session/check',
  'POST /payment/xsolla/create/',
  'POST /game/login/{app_id}',
  'POST /game/pay/{app_id}',
  'POST /oauth/link/{platform}',
  'POST /oauth/login/{platform}',
  'POST /webauthn/create/verification/',
  'POST /webauthn/login/verification/',
  'PATCH /member/nickname/',
  'PATCH /member/password/',
  'PATCH /member/social/unbind/{platform}',
  'DELETE /webauthn/credential/{id}',
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
  const METHODS = new Set(['get', 'put', 'post', 'delete', 'patch']);

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

  const documented = (portal = false) =>
    Object.entries(paths)
      .filter(([, item]) => 'servers' in item === portal)
      .flatMap(([path, item]) =>
        Object.keys(item)
          .filter((key) => METHODS.has(key))
          .map((method) => `${method.toUpperCase()} ${path}`),
      );

  it('lists every route the API registers, and nothing else', () => {
    const routes = registered
      // HEAD answers are Fastify's own copies of the GET routes; /* is the envelope's 404 for unknown paths.
      .filter(({ method, path }) => method !== 'HEAD' && !path.endsWith('/*'))
      .map(({ method, path }) => `${method} ${path.replace(/^\/serve\/api/, '').replace(/:([A-Za-z_]+)/g, '{$1}')}`);
    expect(routes.length).toBeGreaterThan(50);
    expect(new Set(routes).size).toBe(routes.length);
    expect(documented().toSorted()).toEqual(routes.toSorted());
  });

  it("lists the portal's endpoints outside the API: every route but pages and file trees", async () => {
    const portalRoutes: string[] = [];
    const config = loadConfig({ APP_ENV: 'test', LOG_LEVEL: 'silent', WHATSAPP_SENDER: 'development' });
    const portalServices = createServices(database, config);
    const portal = await buildPortal({
      config,
      services: portalServices,
      getBuild: () => Promise.reject(new Error('no pages in this test')),
      buildId: 'test',
      mode: 'production',
      // An empty folder: a build's files are routes of their own, one per file, and no interface.
      clientDir: mkdtempSync(join(tmpdir(), 'playport-client-')),
      logger: false,
      onRoute: (route) => {
        for (const method of [route.method].flat()) portalRoutes.push(`${method} ${route.url.replace(/:([A-Za-z_]+)/g, '{$1}')}`);
      },
    });
    await portal.close();
    await portalServices.rateLimiter.close();
    expect(portalRoutes.length).toBeGreaterThan(60);
    const endpoints = portalRoutes.filter(
      (route) =>
        !route.startsWith('HEAD ') &&
        !route.includes(' /serve/api') &&
        // Pages (React Router's catch-all) and file trees, which serve files rather than an interface.
        !/ (\/\*|\*|\/(assets|games|uploads|sdk)\/\*|\/_img\/.*)$/.test(route),
    );
    expect(endpoints).toContain('POST /oauth/{platform}/callback');
    expect(documented(true).toSorted()).toEqual(endpoints.toSorted());
  });

  it('has every call of spec section 7', () => {
    expect(documented()).toEqual(expect.arrayContaining(SPEC_CALLS));
  });

  it('names and sums up every operation, with unique operation ids', () => {
    const operations = Object.values(paths).flatMap((item) =>
      Object.entries(item)
        .filter(([key]) => METHODS.has(key))
        .map(([, operation]) => operation),
    );
    for (const operation of operations) {
      expect(operation.operationId, JSON.stringify(operation.summary)).toMatch(/^[a-z][A-Za-z0-9]+$/);
      expect(operation.summary?.length).toBeGreaterThan(5);
    }
    expect(new Set(operations.map((o) => o.operationId)).size).toBe(operations.length);
  });

  it('describes the data of every success envelope', () => {
    for (const [path, item] of Object.entries(paths)) {
      for (const [method, operation] of Object.entries(item).filter(([key]) => METHODS.has(key))) {
        // Only the portal's Apple callback answers with a redirect; every API operation has a 2XX.
        const success = Object.entries(operation.responses).find(([status]) => ('servers' in item ? /^[23]/ : /^2/).test(status));
        expect(success, `${method} ${path}`).toBeDefined();
        // 204 and 303 answers carry nothing; every other answer says what its data (or its whole body) is.
        if (success![0] === '204' || success![0] === '303') continue;
        const schema = Object.values(success![1].content ?? {})[0]?.schema;
        expect(schema, `${method} ${path}`).toBeDefined();
        const data = schema!.properties?.data ?? schema;
        expect(Object.keys(data as object).length, `${method} ${path}`).toBeGreaterThan(0);
      }
    }
  });
});
