import { resolve } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { importCatalogue } from './features/catalogue/catalogue.import.ts';
import type { Services } from './services.ts';

/** Imports the demo content shipped in content/ (idempotent: importing again changes nothing). */
export async function importDemoContent(services: Services, root = process.cwd()) {
  const catalogue = await importCatalogue(services.catalogueImport, {
    folder: resolve(root, 'content/catalogue'),
    gamesFolder: resolve(root, 'games'),
  });
  return { catalogue };
}

/** Fills an empty database on first start. */
export async function seedIfEmpty(services: Services, log: FastifyBaseLogger): Promise<void> {
  const existing = await services.database.db.selectFrom('apps').select('id').limit(1).executeTakeFirst();
  if (existing) return;
  const report = await importDemoContent(services);
  log.info({ report }, 'demo content imported into the empty database');
}
