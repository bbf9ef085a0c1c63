// Content command: `npm run content -- import <folder>` imports a content folder into the
// configured database. The folder may hold catalogue/ (categories.yaml, tags.yaml, apps/*.yaml)
// and articles/ (columns.yaml and Markdown files with front matter); a folder that itself holds
// columns.yaml is imported as articles alone. pages/ (<slug>.<locale>.md) and redirects.yaml are
// imported when present. `npm run content -- game-secret <slug>` makes a new secret for the game's
// backend (decisions 092 and 110) and prints it once; the previous one keeps working for 24 hours.
// It stores the secret sealed under APP_SECRET, so it refuses unless its APP_SECRET and database
// are the ones a server recorded (a secret the server cannot read would never work).
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

/** Why the command makes no secret, by what this process's APP_SECRET is to the one the server recorded. */
const KEY_REFUSALS = {
  none: (where: string) =>
    `No server has recorded its APP_SECRET in ${where} yet, so a secret made here might not be readable by it. Start the server once on this database, then run this again with the same APP_SECRET and DATABASE_URL.`,
  previous: (where: string) =>
    `This APP_SECRET is the one before the server's current one (its APP_SECRET_PREVIOUS) in ${where}: a secret sealed with it would stop working when APP_SECRET_PREVIOUS is removed. Run this with the server's APP_SECRET.`,
  other: (where: string) =>
    `This APP_SECRET is not the one the server uses with ${where}: the server could not read a secret made here. Run this with the server's APP_SECRET (and DATABASE_URL).`,
} as const;

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
    const keyInUse = await services.gameSecrets.keyInUse();
    if (keyInUse !== 'current') throw new ContentError([KEY_REFUSALS[keyInUse](database.description)]);
    const made = await services.records.newBackendSecretFor(folderArg).catch(() => null);
    if (!made) throw new ContentError([`${folderArg}: no such game in ${database.description}`]);
    const overlap = made.previousExpiresAt ? `the previous one keeps working until ${made.previousExpiresAt}` : 'the game had none before';
    console.log(`A new backend secret for "${folderArg}" (shown once; ${overlap}):\n${made.secret}`);
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
    // Images next to an entry (not in games/<slug>/) are copied to the uploads (the folder or the bucket).
    const report = await importCatalogue(services.catalogueImport, { folder: catalogueFolder, gamesFolder: resolve('games'), uploads: services.uploads });
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
