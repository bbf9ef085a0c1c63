import { Readable } from 'node:stream';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { createRequestHandler, RouterContextProvider, type ServerBuild } from 'react-router';
import { isLocale } from '#common/locales.ts';
import { translator } from '../i18n.ts';
import { OUTAGE_RETRY_AFTER_SECONDS } from '../lib/service-outage.ts';
import { PageCache } from './page-cache.ts';

export interface ReactRouterOptions {
  /** Loads the server build: the built module in production, Vite's module in development. */
  getBuild: () => Promise<ServerBuild>;
  mode: 'production' | 'development';
  /** Fills the context of one request; receives the context key exported by entry.server. */
  fillContext: (request: FastifyRequest, context: RouterContextProvider, build: ServerBuild) => void;
  /** Caches whole pages for requests this returns a key for (anonymous GETs). */
  pageCache?: { cache: PageCache; keyFor: (request: FastifyRequest) => string | null };
  /** Asked when a page failed with a 5xx: true when a service it needs (the database) is away. */
  isServiceAway?: () => Promise<boolean>;
}

/**
 * Mounts React Router's request handler for every path the other routes did not take.
 * Registered in its own scope so page requests keep their body unread for React Router.
 */
export const reactRouterPlugin: FastifyPluginAsync<ReactRouterOptions> = async (app, options) => {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, _payload, done) => done(null));

  let handler: ReturnType<typeof createRequestHandler> | null = null;
  let handlerBuild: ServerBuild | null = null;

  app.all('/*', async (request: FastifyRequest, reply: FastifyReply) => {
    // React Router throws on OPTIONS (a CORS preflight or a scanner's probe); pages allow no cross-origin calls.
    if (request.method === 'OPTIONS') return reply.code(204).header('allow', 'GET, HEAD, POST').send();
    const cacheKey = request.method === 'GET' && options.pageCache?.cache.enabled ? options.pageCache.keyFor(request) : null;
    if (cacheKey) {
      const hit = options.pageCache!.cache.get(cacheKey);
      if (hit) {
        reply.code(hit.status).headers(Object.fromEntries(hit.headers)).header('x-page-cache', 'hit');
        return reply.send(PageCache.withNonce(hit, request.cspNonce));
      }
    }
    const build = await options.getBuild();
    // The handler is made once per build (development reloads the build on change).
    if (!handler || handlerBuild !== build) {
      handler = createRequestHandler(build, options.mode);
      handlerBuild = build;
    }
    const context = new RouterContextProvider();
    options.fillContext(request, context, build);
    const response = await handler(toWebRequest(request, reply), context);
    if (response.status >= 500 && options.isServiceAway && (await options.isServiceAway())) {
      await response.body?.cancel();
      return sendServiceAwayPage(request, reply);
    }
    reply.code(response.status);
    for (const [name, value] of response.headers) {
      if (name === 'set-cookie') continue;
      reply.header(name, value);
    }
    const cookies = response.headers.getSetCookie();
    if (cookies.length > 0) reply.header('set-cookie', cookies);
    if (!response.body) return reply.send();
    const cacheable = cacheKey && response.status === 200 && cookies.length === 0 && response.headers.get('content-type')?.startsWith('text/html');
    if (cacheable) {
      const body = await response.text();
      const headers = [...response.headers].filter(([name]) => name !== 'set-cookie');
      options.pageCache!.cache.set(cacheKey, { status: response.status, headers, body, nonce: request.cspNonce });
      return reply.header('x-page-cache', 'miss').send(body);
    }
    return reply.send(Readable.fromWeb(response.body as import('node:stream/web').ReadableStream));
  });
};

/**
 * The page for a request that failed while the database is away: 503 with Retry-After, never
 * cached, in the locale of the path. Plain HTML without scripts, as the app's shell needs the
 * loaders that just failed (decision 077).
 */
function sendServiceAwayPage(request: FastifyRequest, reply: FastifyReply) {
  const first = request.url.split(/[/?]/)[1] ?? '';
  const locale = isLocale(first) ? first : 'en';
  const t = translator(locale);
  const title = escapeHtml(t('errors:unavailable'));
  const hint = escapeHtml(t('errors:retryLater', { seconds: OUTAGE_RETRY_AFTER_SECONDS }));
  const html = `<!doctype html><html lang="${locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${title}</title></head><body><main><h1>${title}</h1><p>${hint}</p></main></body></html>`;
  return reply
    .code(503)
    .header('Retry-After', String(OUTAGE_RETRY_AFTER_SECONDS))
    .header('Cache-Control', 'no-store')
    .type('text/html; charset=utf-8')
    .send(html);
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
}

function toWebRequest(request: FastifyRequest, reply: FastifyReply): Request {
  const origin = `${request.protocol}://${request.host}`;
  const controller = new AbortController();
  reply.raw.on('close', () => controller.abort());
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else headers.set(name, value);
  }
  const hasBody = request.method !== 'GET' && request.method !== 'HEAD';
  return new Request(origin + request.url, {
    method: request.method,
    headers,
    signal: controller.signal,
    ...(hasBody ? { body: Readable.toWeb(request.raw) as ReadableStream, duplex: 'half' } : {}),
  } as RequestInit);
}
