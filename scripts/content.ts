// Content command: `npm run content -- import <folder>` imports a content folder into the
// configured database. The folder may hold catalogue/ (categories.yaml, tags.yaml, apps/*.yaml)
// and articles/ (columns.yaml and Markdown files with front matter); a folder that itself holds
// columns.yaml is imported as articles alone. pages/ (<slug>.<locale>.md) and redirects.yaml are
// imported when present. `npm run content -- game-secret <slug>` makes a new secret for the game's
// backend (decision 092), prints it once, and the previous one stops working.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadConfig } from '../server/config.ts';
import { ContentError } from '../server/content/files.ts';
import { openDatabase } from '../server/db/client.ts';
import { migrateToLatest } from '../server/db/migrate.ts';
import { importArticles } from '../server/features/articles/articles.import.ts';
import { importCatalogue } from '../server/features/catalogue/catalogue.import.ts';
import { importPages } from '../server/features/pages/pages.import.ts';
import { importRedirects } from '../server/features/redirects/redirects.import.ts';
import { createServices } from '../server/services.ts';

const [command, folderArg] = process.argv.slice(2);
if ((command !== 'import' && command !== 'game-secret') || !folderArg) {
  console.error('usage: npm run content -- import <folder>   (for example: npm run content -- import content)');
  console.error("       npm run content -- game-secret <slug>   (a new secret for the game backend's signed calls)");
  process.exit(2);
}
const folder = resolve(folderArg);
const config = loadConfig();
const database = await openDatabase(config.databaseUrl, { poolSize: 2, schema: config.databaseSchema });
try {
  await migrateToLatest(database.db, database.kind);
  const services = createServices(database, config);
  if (command === 'game-secret') {
    const secret = await services.records.newBackendSecretFor(folderArg).catch(() => null);
    if (!secret) throw new ContentError([`${folderArg}: no such game in ${database.description}`]);
    console.log(`A new backend secret for "${folderArg}" (shown once; the previous one no longer works):\n${secret}`);
  } else await importFolder(services);
  await services.contentChanges.close();
} catch (error) {
  if (error instanceof ContentError) {
    console.error(error.message);
    process.exitCode = 1;
  } else throw error;
} finally {
  await database.close();
}

async function importFolder(services: ReturnType<typeof createServices>): Promise<void> {
  const articlesOnly = existsSync(resolve(folder, 'columns.yaml'));
  if (!articlesOnly) {
    const catalogueFolder = existsSync(resolve(folder, 'catalogue')) ? resolve(folder, 'catalogue') : folder;
    // Images next to an entry (not in games/<slug>/) are copied to the uploads folder.
    const report = await importCatalogue(services.catalogueImport, { folder: catalogueFolder, gamesFolder: resolve('games'), uploadDir: config.uploadDir });
    console.log(`imported into ${database.description}: ${report.categories} categories, ${report.tags} tags, ${report.apps} apps`);
    if (report.keptConsoleListings.length > 0) {
      console.log(`kept as published or featured in the Console (decision 099): games ${report.keptConsoleListings.join(', ')}`);
    }
  }
  const articlesFolder = articlesOnly ? folder : resolve(folder, 'articles');
  if (existsSync(resolve(articlesFolder, 'columns.yaml'))) {
    const report = await importArticles(services.articlesImport, { folder: articlesFolder });
    console.log(
      `imported into ${database.description}: ${report.columns} article columns, ${report.articles} articles (${report.translations} files, ${report.changed} new or changed)`,
    );
    if (report.keptConsoleEdits.length > 0) {
      console.log(`kept as edited in the Console (decision 099): articles ${report.keptConsoleEdits.join(', ')}`);
    }
  }
  const pagesFolder = resolve(folder, 'pages');
  if (!articlesOnly && existsSync(pagesFolder)) {
    const report = await importPages(services.pagesImport, pagesFolder);
    console.log(`imported into ${database.description}: ${report.pages} pages`);
    if (report.keptConsoleEdits.length > 0) console.log(`kept as edited in the Console (decision 099): pages ${report.keptConsoleEdits.join(', ')}`);
  }
  const redirectsFile = resolve(folder, 'redirects.yaml');
  if (!articlesOnly && existsSync(redirectsFile)) {
    const report = await importRedirects(services.redirectsImport, redirectsFile, services.clock);
    console.log(`imported into ${database.description}: ${report.redirects} redirects`);
  }
  // Running instances drop their caches now instead of when they expire (with REDIS_URL).
  await services.contentChanges.announce();
}
