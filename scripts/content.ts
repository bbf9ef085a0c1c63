// Content command: `npm run content -- import <folder>` imports a content folder into the
// configured database. The folder may hold catalogue/ (categories.yaml, tags.yaml, apps/*.yaml).
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadConfig } from '../server/config.ts';
import { ContentError } from '../server/content/files.ts';
import { openDatabase } from '../server/db/client.ts';
import { migrateToLatest } from '../server/db/migrate.ts';
import { importCatalogue } from '../server/features/catalogue/catalogue.import.ts';
import { createServices } from '../server/services.ts';

const [command, folderArg] = process.argv.slice(2);
if (command !== 'import' || !folderArg) {
  console.error('usage: npm run content -- import <folder>   (for example: npm run content -- import content)');
  process.exit(2);
}
const folder = resolve(folderArg);
const config = loadConfig();
const database = await openDatabase(config.databaseUrl, { poolSize: 2, schema: config.databaseSchema });
try {
  await migrateToLatest(database.db, database.kind);
  const services = createServices(database, config);
  const catalogueFolder = existsSync(resolve(folder, 'catalogue')) ? resolve(folder, 'catalogue') : folder;
  const report = await importCatalogue(services.catalogueImport, { folder: catalogueFolder, gamesFolder: resolve('games') });
  console.log(`imported into ${database.description}: ${report.categories} categories, ${report.tags} tags, ${report.apps} apps`);
} catch (error) {
  if (error instanceof ContentError) {
    console.error(error.message);
    process.exitCode = 1;
  } else throw error;
} finally {
  await database.close();
}
