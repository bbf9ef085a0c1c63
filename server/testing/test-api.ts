import { resolve } from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { Config } from '../config.ts';
import type { DatabaseHandle } from '../db/client.ts';
import type { Clock } from '../lib/clock.ts';
import { importCatalogue } from '../features/catalogue/catalogue.import.ts';
import type { Services } from '../services.ts';
import { csrfHeadersFor, openApiInstance } from './api-instance.ts';
import { openTestDatabase, type TestDatabase } from './test-database.ts';

export interface CallOptions {
  token?: string | undefined;
  body?: unknown;
  headers?: Record<string, string>;
  address?: string;
}

export const FIXTURES = resolve(import.meta.dirname, 'fixtures');

export interface TestApi {
  app: FastifyInstance;
  services: Services;
  config: Config;
  /** The fresh database under the app (`reopen()` gives a second instance its own connections). */
  database: TestDatabase;
  /** Fetches a CSRF cookie and returns the headers a browser would send with it. */
  csrfHeaders(): Promise<Record<string, string>>;
  /**
   * An API call as a browser makes it: `path` below /serve/api, the CSRF cookie and header on
   * state-changing calls, the bearer token and a client address when given.
   */
  call(method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE', path: string, options?: CallOptions): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

/** The API alone on a fresh database, with the fixture catalogue imported, for inject() tests; `clock` moves time. */
export async function openTestApi(env: Record<string, string> = {}, instanceOptions: { clock?: Clock } = {}): Promise<TestApi> {
  const database = await openTestDatabase();
  const instance = await openApiInstance(database, { env, ...instanceOptions });
  await importCatalogue(instance.services.catalogueImport, { folder: resolve(FIXTURES, 'catalogue'), gamesFolder: resolve(FIXTURES, 'games') });
  let csrf: Record<string, string> | null = null;
  return {
    ...instance,
    database,
    csrfHeaders: () => csrfHeadersFor(instance.app),
    async call(method, path, options = {}) {
      if (method !== 'GET') csrf ??= await csrfHeadersFor(instance.app);
      return instance.app.inject({
        method,
        url: `/serve/api${path}`,
        headers: { ...(method === 'GET' ? {} : csrf), ...(options.token ? { authorization: `Bearer ${options.token}` } : {}), ...options.headers },
        ...(options.body === undefined ? {} : { payload: options.body as Record<string, unknown> }),
        ...(options.address ? { remoteAddress: options.address } : {}),
      });
    },
    async close() {
      await instance.close();
      await database.drop();
    },
  };
}

/** Inserts a user row directly (accounts has its own service for real sign-ups). */
export async function insertUser(services: Services, fields: { nickname?: string } = {}): Promise<number> {
  const now = new Date().toISOString();
  const row = await services.database.db
    .insertInto('users')
    .values({ nickname: fields.nickname ?? null, is_guest: 1, created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** The id of a catalogue app by its slug. */
export async function appIdOf(database: DatabaseHandle, slug: string): Promise<number> {
  return (await database.db.selectFrom('apps').select('id').where('slug', '=', slug).executeTakeFirstOrThrow()).id;
}

/** The fixture catalogue's games alpha, the one a test plays (`appId`), and beta, another game (`otherAppId`). */
export async function fixtureGameIds(database: DatabaseHandle): Promise<{ appId: number; otherAppId: number }> {
  return { appId: await appIdOf(database, 'alpha'), otherAppId: await appIdOf(database, 'beta') };
}
