import { resolve } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';
import { importCatalogue } from '../features/catalogue/catalogue.import.ts';
import type { Services } from '../services.ts';
import { csrfHeadersFor, openApiInstance } from './api-instance.ts';
import { openTestDatabase, type TestDatabase } from './test-database.ts';

export const FIXTURES = resolve(import.meta.dirname, 'fixtures');

export interface TestApi {
  app: FastifyInstance;
  services: Services;
  config: Config;
  /** The fresh database under the app (`reopen()` gives a second instance its own connections). */
  database: TestDatabase;
  /** Fetches a CSRF cookie and returns the headers a browser would send with it. */
  csrfHeaders(): Promise<Record<string, string>>;
  close(): Promise<void>;
}

/** The API alone on a fresh database, with the fixture catalogue imported, for inject() tests. */
export async function openTestApi(env: Record<string, string> = {}): Promise<TestApi> {
  const database = await openTestDatabase();
  const instance = await openApiInstance(database, { env });
  await importCatalogue(instance.services.catalogueImport, { folder: resolve(FIXTURES, 'catalogue'), gamesFolder: resolve(FIXTURES, 'games') });
  return {
    ...instance,
    database,
    csrfHeaders: () => csrfHeadersFor(instance.app),
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
