import { extname, resolve } from 'node:path';
import compress from '@fastify/compress';
import cookie from '@fastify/cookie';
import fastifyStatic from '@fastify/static';
import Fastify, { type FastifyInstance, type FastifyRequest, type FastifyServerFactory, LogController, type RouteOptions } from 'fastify';
import type { ServerBuild } from 'react-router';
import { MESSAGES } from '#common/i18n/resources.ts';
import { TOKEN_COOKIE } from '#common/constants.ts';
import { isLocale, LOCALE_COOKIE, resolveLocale } from '#common/locales.ts';
import type { AppLoadContext } from './page-context.ts';
import { apiPlugin } from './api.ts';
import { type Config, trustProxyOption } from './config.ts';
import { pingDatabase } from './db/client.ts';
import { articlePublicRoutes } from './features/articles/articles-public.routes.ts';
import { sendKeySet } from './features/games/games.routes.ts';
import { clientFacts, isCrawler } from './http/client-facts.ts';
import { answerFrameworkError, errorEnvelope, statusOfError } from './http/errors.ts';
import { requestLocale } from './i18n.ts';
import { isServiceOutage, outageError } from './lib/service-outage.ts';
import { formPostCallbackRoute, whatsappInboxRoute } from './features/social/social.routes.ts';
import { DiskStorage } from './adapters/storage/disk-storage.ts';
import { isStorageKey } from './adapters/storage/file-storage.ts';
import { sendStoredObject } from './http/stored-object.ts';
import { imageEndpoint } from './features/catalogue/catalogue-images.ts';
import { PageCache, pageCacheKey } from './http/page-cache.ts';
import { reactRouterPlugin } from './http/react-router.ts';
import { answerRequestId, requestIdOptions } from './http/request-id.ts';
import { serveMetrics } from './http/metrics.ts';
import { securityHeaders, type SecurityHeadersOptions } from './http/security-headers.ts';
import { webManifest } from './http/web-manifest.ts';
import type { Services } from './services.ts';
import { pageServices } from './services/page-services.ts';

export interface PortalOptions {
  config: Config;
  services: Services;
  /** Server build loader; the production build by default. */
  getBuild: () => Promise<ServerBuild>;
  buildId: string;
  mode: 'production' | 'development';
  /** Folder of the built browser assets. */
  clientDir: string;
  serverFactory?: FastifyServerFactory;
  /** Told of every route as it is registered (the OpenAPI coverage test). */
  onRoute?: (route: RouteOptions) => void;
  logger?: boolean;
  /** The games origin of this process (decision 089), not yet listening: its answers count in the portal's metrics. */
  gamesOrigin?: FastifyInstance;
}

type ExtraSources = NonNullable<SecurityHeadersOptions['extraSources']>;
/** What Google's Ad Placement API loads, frames and calls (its script, its ad frames, its measurement). */
const GOOGLE_AD_SOURCES: ExtraSources = {
  'script-src': ['https://pagead2.googlesyndication.com', 'https://*.googlesyndication.com', 'https://*.google.com', 'https://*.adtrafficquality.google'],
  'connect-src': ['https://*.googlesyndication.com', 'https://*.google.com', 'https://*.doubleclick.net', 'https://*.adtrafficquality.google'],
  'frame-src': ['https://*.googlesyndication.com', 'https://*.doubleclick.net', 'https://www.google.com', 'https://*.adtrafficquality.google'],
  'img-src': ['https://*.googlesyndication.com', 'https://*.doubleclick.net', 'https://*.google.com', 'https://*.adtrafficquality.google'],
};
const ONE_YEAR = 31_536_000;
/** The content types of what members and imports upload (images, article media), when streamed from a bucket. */
const UPLOAD_TYPES: Record<string, string> = {
  '.webp': 'image/webp',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.avif': 'image/avif',
  '.svg': 'image/svg+xml',
  '.ico': 'image/x-icon',
  '.mp4': 'video/mp4',
  '.webm': 'video/webm',
  '.mp3': 'audio/mpeg',
  '.ogg': 'audio/ogg',
  '.pdf': 'application/pdf',
  '.txt': 'text/plain; charset=utf-8',
};
const ONE_DAY = 86_400;

/** The portal's one process: pages, API, messages, manifests, health checks and static files. */
export async function buildPortal(options: PortalOptions): Promise<FastifyInstance> {
  const { config, services } = options;
  const app = Fastify({
    logger:
      options.logger === false
        ? false
        : {
            level: config.logLevel,
            // Tokens, cookies and CSRF values never reach the logs.
            // A token may arrive in a page's query (spec section 4): keep it out of request logs.
            serializers: { req: (req) => ({ method: req.method, url: redactTokenInUrl(req.url), id: req.id }) },
            redact: ['req.headers.authorization', 'req.headers.cookie', 'req.headers["x-xsrf-token"]', 'res.headers["set-cookie"]'],
          },
    trustProxy: trustProxyOption(config.trustProxy),
    ...requestIdOptions,
    // One line per request costs throughput; request logs are on at debug level.
    logController: new LogController({ disableRequestLogging: config.logLevel !== 'debug' && config.logLevel !== 'trace' }),
    bodyLimit: 1_048_576,
    frameworkErrors: answerFrameworkError,
    ...(options.serverFactory ? { serverFactory: options.serverFactory } : {}),
  });

  // Routes outside the API (feeds, sitemap, images) answer 503 too while the database is away.
  app.setErrorHandler((error, request, reply) => {
    if (!isServiceOutage(error)) throw error;
    request.log.warn({ err: error }, 'service unavailable');
    const outage = outageError(error);
    return reply
      .code(503)
      .headers(outage.options.headers ?? {})
      .send(errorEnvelope(outage, requestLocale(request.headers.locale, request.query)));
  });
  if (options.onRoute) app.addHook('onRoute', options.onRoute);
  answerRequestId(app);
  const pageCache = new PageCache(options.mode === 'production' ? config.pageCacheSeconds : 0);
  services.contentChanges.onChange(() => pageCache.clear());
  if (config.metricsToken) {
    serveMetrics(app, {
      token: config.metricsToken,
      ...(options.gamesOrigin ? { gamesOrigin: options.gamesOrigin } : {}),
      sources: {
        outboxes: { webhooks: () => services.webhooks.outboxState(), mail: () => services.mail.outboxState() },
        pingDatabase: () => pingDatabase(services.database.db),
        pageCache: () => pageCache.lookups,
        database: services.database,
        ...(services.rateLimiter.pingStore ? { pingRedis: () => services.rateLimiter.pingStore!() } : {}),
        uploadsInProgress: () => services.buildUploads.inProgress(),
      },
    });
  }
  app.addHook('onResponse', async (request, reply) => {
    if (reply.statusCode >= 500) request.log.warn({ url: redactTokenInUrl(request.url), status: reply.statusCode }, 'server error response');
  });

  await app.register(cookie);
  await app.register(compress, { global: true, threshold: 1024, encodings: ['br', 'gzip'], brotliOptions: { params: { 1: 4 } } });
  // The pixel's origins are allowed only when a pixel is configured (decision 065).
  const pixelSources: ExtraSources | undefined = config.pixel
    ? {
        'script-src': ['https://connect.facebook.net'],
        'img-src': ['https://www.facebook.com'],
        'connect-src': ['https://www.facebook.com', 'https://connect.facebook.net'],
      }
    : undefined;
  // The play page frames games from their own hosts below the games origin (decision 089), the QA
  // page builds' previews from theirs below the previews origin (decision 108).
  const games = new URL(config.games.origin);
  const previews = new URL(config.previewsOrigin);
  const gameFrames = [`${games.protocol}//*.${games.host}`, `${previews.protocol}//*.${previews.host}`];
  // Google's Ad Placement API (decision 093): its script, frames and requests only when it is the configured provider.
  const adSources: ExtraSources = config.ads.provider === 'google' ? GOOGLE_AD_SOURCES : {};
  const sources = (directive: keyof ExtraSources) => [...(pixelSources?.[directive] ?? []), ...(adSources[directive] ?? [])];
  await app.register(securityHeaders, {
    isProduction: config.isProduction,
    extraSources: {
      'script-src': sources('script-src'),
      'img-src': sources('img-src'),
      'connect-src': sources('connect-src'),
      'frame-src': [...gameFrames, ...sources('frame-src')],
    },
  });

  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async (_request, reply) => {
    try {
      await pingDatabase(services.database.db);
      return { status: 'ready', database: services.database.kind };
    } catch (error) {
      app.log.warn({ err: error }, 'readiness check failed');
      return reply.code(503).send({ status: 'unavailable', database: services.database.kind });
    }
  });

  const messageCache = options.mode === 'production' ? `public, max-age=${ONE_DAY}` : 'no-cache';
  // Serialised once: the files are large and never change while the process runs.
  const messagesJson = new Map(Object.entries(MESSAGES).map(([locale, messages]) => [locale, JSON.stringify(messages)]));
  app.get<{ Params: { locale: string } }>('/:locale/messages.json', async (request, reply) => {
    const { locale } = request.params;
    if (!isLocale(locale)) return reply.code(404).send({ code: 404, message: `Unknown locale ${locale}`, data: null });
    return reply.header('Cache-Control', messageCache).type('application/json; charset=utf-8').send(messagesJson.get(locale));
  });

  app.get<{ Querystring: { locale?: string } }>('/api/manifest/webmanifest.json', async (request, reply) => {
    reply.type('application/manifest+json').header('Cache-Control', `public, max-age=${ONE_DAY}`);
    return webManifest(resolveLocale(request.query.locale), config.productName);
  });

  app.get('/builds/latest.json', async (_request, reply) => {
    reply.header('Cache-Control', 'no-cache');
    return { id: options.buildId };
  });

  await app.register(apiPlugin, { prefix: '/serve/api', config, services });
  await app.register(articlePublicRoutes, { config, services });
  // Where JWT libraries look for an issuer's keys: the same key set as /serve/api/game/jwks.json.
  app.get('/.well-known/jwks.json', async (_request, reply) => sendKeySet(reply, services.games));
  await formPostCallbackRoute(app);
  if (services.conversionsApi) services.conversionsApi.log = app.log;
  services.guestMerge.log = app.log;
  if (services.whatsappInbox) {
    services.whatsappInbox.log = app.log;
    whatsappInboxRoute(app, services.whatsappInbox);
  }

  // Hashed build assets never change; the service worker and its offline pages are checked on every
  // use (a new build's worker must be found); anything else is revalidated hourly.
  await app.register(fastifyStatic, {
    root: resolve(options.clientDir),
    wildcard: false,
    preCompressed: true,
    setHeaders(reply, path) {
      reply.header('Cache-Control', clientFileCaching(path));
      // The worker's own policy: it fetches the portal's files to keep them (a script's CSP binds its worker).
      if (SERVICE_WORKER_FILE.test(path)) reply.header('Content-Security-Policy', "default-src 'self'; frame-ancestors 'none'");
    },
  });
  // The game SDK, versioned by its path (docs/game-sdk.md): the package sdk/ (decision 094) serves its
  // runtime and types as they are, and nothing else of the package.
  await app.register(fastifyStatic, {
    root: resolve('sdk'),
    prefix: '/sdk/',
    decorateReply: false,
    wildcard: true,
    allowedPath: (path) => /^\/v\d+\/playport\.(js|d\.ts)$/.test(path),
    setHeaders(reply) {
      reply.header('Cache-Control', 'public, max-age=3600');
    },
  });
  // The house games' files on the portal's own origin (thumbnails, the offline copy, decision 089):
  // only a published game's, like the games origin; the shared scripts stay.
  await app.register(async (scope) => {
    scope.addHook('onRequest', async (request, reply) => {
      const folder = /^\/games\/([^/?]*)/.exec(request.url)?.[1] ?? '';
      if (folder !== 'shared' && !(await services.catalogue.hostedGameBySlug(folder))) return reply.callNotFound();
    });
    await scope.register(fastifyStatic, {
      root: resolve('games'),
      prefix: '/games/',
      decorateReply: false,
      wildcard: true,
      setHeaders(reply) {
        reply.header('Cache-Control', 'public, max-age=3600');
      },
    });
  });
  // The uploads are a folder (DiskStorage at /uploads/), served from it here; or objects in a bucket
  // (decision 150), streamed from it with the same caching (with STORAGE_PUBLIC_URL new uploads are
  // linked at that address instead, and older links still come here).
  const uploadsFolder = services.uploads.localFolder('');
  if (uploadsFolder !== null) {
    await app.register(fastifyStatic, {
      root: uploadsFolder,
      prefix: '/uploads/',
      decorateReply: false,
      wildcard: true,
      setHeaders(reply) {
        reply.header('Cache-Control', `public, max-age=${ONE_YEAR}, immutable`);
      },
    });
  } else {
    app.get<{ Params: { '*': string } }>('/uploads/*', async (request, reply) => {
      const key = request.params['*'];
      if (!isStorageKey(key)) return reply.callNotFound();
      reply.type(UPLOAD_TYPES[extname(key).toLowerCase()] ?? 'application/octet-stream').header('Cache-Control', `public, max-age=${ONE_YEAR}, immutable`);
      return sendStoredObject(request, reply, services.uploads, key, { precompressed: false });
    });
  }
  // Resized WebP copies of the games' and uploads' raster images (spec section 9 image defaults).
  await app.register(imageEndpoint, { sources: [new DiskStorage(resolve('games'), '/games/', { readOnly: true }), services.uploads] });

  const site: AppLoadContext['site'] = {
    productName: config.productName,
    publicOrigin: config.publicOrigin,
    communityChatUrl: config.communityChatUrl,
    buildId: options.buildId,
    socialPlatforms: services.social.platforms(),
    pixelId: config.pixel?.id ?? null,
    ads: config.ads,
    secureCookies: config.secureCookies,
    payments: config.payments.provider === 'xsolla' ? (config.payments.sandbox ? 'xsolla-sandbox' : 'xsolla') : config.payments.provider,
  };
  const loaderServices = pageServices(services);
  await app.register(reactRouterPlugin, {
    getBuild: options.getBuild,
    mode: options.mode,
    pageCache: { cache: pageCache, keyFor: pageKey },
    isServiceAway: () =>
      pingDatabase(services.database.db).then(
        () => false,
        () => true,
      ),
    fillContext(request, context, build) {
      const key = (build.entry.module as unknown as { appContext: import('react-router').RouterContext<AppLoadContext> }).appContext;
      context.set(key, {
        services: loaderServices,
        statusOfError,
        site,
        request: {
          nonce: request.cspNonce,
          preferredLocale: preferredLocale(request.headers['accept-language']),
          client: clientFacts(request),
          crawler: isCrawler(request),
        },
      });
    },
  });

  return app;
}

export function redactTokenInUrl(url: string | undefined): string {
  // A session link's token, a reset link's key, an address confirmation's or a provider's code (decision 146).
  return (url ?? '').replace(/([?&](?:token|key|code)=)[^&#]*/gi, '$1[redacted]');
}

/**
 * Pages other than the personal ones look the same for everyone with the same URL, language
 * preference and locale cookie (decision 066), so they may be cached briefly.
 */
function pageKey(request: FastifyRequest): string | null {
  return pageCacheKey({
    url: request.url,
    hasSession: Boolean(request.cookies[TOKEN_COOKIE] || request.headers.authorization),
    preferredLocale: preferredLocale(request.headers['accept-language']),
    localeCookie: request.cookies[LOCALE_COOKIE],
    crawler: isCrawler(request),
  });
}

function preferredLocale(header: string | undefined) {
  if (!header) return null;
  for (const part of header.split(',')) {
    const tag = part.split(';')[0]!.trim().toLowerCase();
    if (tag.startsWith('zh')) return 'zh-CN' as const;
    if (tag.startsWith('en')) return 'en' as const;
  }
  return null;
}

const SERVICE_WORKER_FILE = /\/sw\.js(\.br|\.gz)?$/;

function clientFileCaching(path: string): string {
  if (path.includes('/assets/')) return `public, max-age=${ONE_YEAR}, immutable`;
  if (SERVICE_WORKER_FILE.test(path) || path.includes('/offline/')) return 'no-cache';
  return 'public, max-age=3600';
}
