import type { FastifyPluginAsync } from 'fastify';
import { isLocale } from '#common/locales.ts';
import type { Config } from '#server/config.ts';
import type { Services } from '#server/services.ts';
import { nullIfNotFound } from '#server/lib/app-error.ts';
import { atomFeed, feedPath } from './articles.feed.ts';

export interface ArticlePublicRoutesOptions {
  config: Config;
  services: Services;
}

const FEED_FILE = /^([A-Za-z]{3,20})\.([A-Za-z-]+)\.xml$/;

/**
 * Feeds and the sitemap: plain XML routes outside the API, registered before the pages'
 * catch-all. Short caches, so a scheduled article appears soon after its time.
 */
export const articlePublicRoutes: FastifyPluginAsync<ArticlePublicRoutesOptions> = async (app, { config, services }) => {
  app.get<{ Params: { file: string } }>('/feeds/:file', async (request, reply) => {
    const match = FEED_FILE.exec(request.params.file);
    const locale = match?.[2];
    const feed = match && isLocale(locale) ? await services.articles.feed(locale, match[1]!).catch(nullIfNotFound) : null;
    if (!match || !isLocale(locale) || !feed) return reply.code(404).type('text/plain; charset=utf-8').send('Not found');
    const xml = atomFeed({
      origin: config.publicOrigin,
      productName: config.productName,
      locale,
      column: feed.column,
      entries: feed.entries,
      selfPath: feedPath(feed.column.slug, locale),
      now: services.clock.now(),
    });
    return reply.type('application/atom+xml; charset=utf-8').header('Cache-Control', 'public, max-age=600').send(xml);
  });

  app.get('/sitemap.xml', async (_request, reply) => {
    const xml = await services.sitemap.xml(config.publicOrigin);
    return reply.type('application/xml; charset=utf-8').header('Cache-Control', 'public, max-age=3600').send(xml);
  });
};
