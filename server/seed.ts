import { resolve } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { importArticles } from './features/articles/articles.import.ts';
import { importCatalogue } from './features/catalogue/catalogue.import.ts';
import { importPages } from './features/pages/pages.import.ts';
import { importRedirects } from './features/redirects/redirects.import.ts';
import type { Services } from './services.ts';

/** Imports the demo content shipped in content/ (idempotent: importing again changes nothing). */
async function importDemoContent(services: Services, root = process.cwd(), parts = { catalogue: true, articles: true, pages: true }) {
  const catalogue = parts.catalogue
    ? await importCatalogue(services.catalogueImport, {
        folder: resolve(root, 'content/catalogue'),
        gamesFolder: resolve(root, 'games'),
      })
    : null;
  const articles = parts.articles ? await importArticles(services.articlesImport, { folder: resolve(root, 'content/articles') }) : null;
  const pages = parts.pages ? await importDemoPages(services, root) : null;
  // What was derived from the old content is forgotten at once, here and in the other instances.
  await services.contentChanges.announce();
  return { catalogue, articles, pages };
}

/** The static pages and the redirects: they change together with the site's own texts. */
async function importDemoPages(services: Services, root: string) {
  const pages = await importPages(services.pagesImport, resolve(root, 'content/pages'));
  const redirects = await importRedirects(services.redirectsImport, resolve(root, 'content/redirects.yaml'), services.clock);
  return { ...pages, ...redirects };
}

/** Fills an empty database on first start: the catalogue, the articles and the pages, each when it has none. */
export async function seedIfEmpty(services: Services, log: FastifyBaseLogger): Promise<void> {
  const { db } = services.database;
  const app = await db.selectFrom('apps').select('id').limit(1).executeTakeFirst();
  const article = await db.selectFrom('articles').select('id').limit(1).executeTakeFirst();
  const pagesEmpty = await services.pages.isEmpty();
  if (app && article && !pagesEmpty) return;
  const report = await importDemoContent(services, process.cwd(), { catalogue: !app, articles: !article, pages: pagesEmpty });
  log.info({ report }, 'demo content imported into the empty database');
}
