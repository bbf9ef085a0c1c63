import cookie from '@fastify/cookie';
import { z } from 'zod';
import type { FastifyError, FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { XSRF_COOKIE, XSRF_HEADER } from '#common/constants.ts';
import { jsonTextDepthWithin, MAX_JSON_DEPTH } from '#common/json-depth.ts';
import type { Config } from './config.ts';
import { accountsRoutes } from './features/accounts/accounts.routes.ts';
import { sessionRoutes } from './features/accounts/session.routes.ts';
import { articlesRoutes } from './features/articles/articles.routes.ts';
import { catalogueRoutes } from './features/catalogue/catalogue.routes.ts';
import { passkeysRoutes } from './features/passkeys/passkeys.routes.ts';
import { socialRoutes } from './features/social/social.routes.ts';
import { gamesRoutes } from './features/games/games.routes.ts';
import { recordsRoutes } from './features/games/records.routes.ts';
import { paymentsRoutes } from './features/payments/payments.routes.ts';
import { pagesRoutes } from './features/pages/pages.routes.ts';
import { consoleContentRoutes } from './features/console/console-content.routes.ts';
import { trackingRoutes } from './features/tracking/tracking.routes.ts';
import { webhooksRoutes } from './features/webhooks/webhooks.routes.ts';
import { DOCUMENTED_WEBHOOKS } from './features/webhooks/webhook-events.schema.ts';
import { studioRoutes } from './features/studio/studio.routes.ts';
import { buildsRoutes } from './features/studio/builds.routes.ts';
import { gameChangesRoutes } from './features/studio/game-changes.routes.ts';
import { workspacesRoutes } from './features/accounts/workspaces.routes.ts';
import { consoleOpsRoutes } from './features/console/console-ops.routes.ts';
import { accountRecoveryRoutes } from './features/accounts/account-recovery.routes.ts';
import { twoFactorRoutes } from './features/two-factor/two-factor.routes.ts';
import { memberDataRoutes } from './features/member-data/member-data.routes.ts';
import { accountDeletionRoutes } from './features/accounts/account-deletion.routes.ts';
import { studioStatsRoutes } from './features/studio/studio-stats.routes.ts';
import { earningsConsoleRoutes } from './features/earnings/earnings-console.routes.ts';
import { isStudioKey } from './features/studio/studio-keys.service.ts';
import { studioKeysRoutes } from './features/studio/studio-keys.routes.ts';
import { payoutsRoutes } from './features/earnings/payouts.routes.ts';
import { earningsRoutes } from './features/earnings/earnings.routes.ts';
import { ApiRouter } from './http/api-router.ts';
import { CsrfTokens } from './http/csrf.ts';
import { answerRequestId } from './http/request-id.ts';
import { codeForStatus, errorEnvelope, statusOf } from './http/errors.ts';
import { AppError, fieldError } from './lib/app-error.ts';
import type { Caller } from './lib/caller.ts';
import { isServiceOutage, OUTAGE_RETRY_AFTER_SECONDS, outageError } from './lib/service-outage.ts';
import { buildOpenApiDocument } from './http/openapi.ts';
import { PORTAL_ENDPOINTS } from './http/portal-endpoints.ts';
import { requestLocale } from './i18n.ts';
import type { Services } from './services.ts';

export interface ApiPluginOptions {
  config: Config;
  services: Services;
}

const VERSION = '1.0.0';
/** How deeply any JSON body may nest: a stored value's cap plus room for the fields around it. */
const MAX_BODY_DEPTH = MAX_JSON_DEPTH * 2;

/**
 * The JSON API under /serve/api: envelope, locale, bearer auth, CSRF, validation and
 * OpenAPI. Register it with a prefix on the portal server, or alone on a bare Fastify.
 */
export const apiPlugin: FastifyPluginAsync<ApiPluginOptions> = async (app, { config, services }) => {
  if (!app.hasDecorator('parseCookie')) await app.register(cookie);
  const csrf = new CsrfTokens(config.appSecret);
  const cookieOptions = { path: '/', sameSite: 'strict' as const, secure: config.secureCookies };

  // The client sends POST/PUT/PATCH with an empty body by default (spec section 7): read it as {}.
  const jsonParser = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') return done(null, {});
    // Refused before parsing: code that walks a value recursively must never meet one nested
    // thousands deep (a RangeError, a 500). The schemas of stored values cap them lower.
    if (!jsonTextDepthWithin(text, MAX_BODY_DEPTH)) return done(fieldError({ _: [{ key: 'errors:field.tooDeep', values: { max: MAX_JSON_DEPTH } }] }));
    jsonParser(request, text, done);
  });

  app.decorateRequest('locale', 'en');
  app.decorateRequest('caller', null);

  app.addHook('onRequest', async (request) => {
    request.locale = requestLocale(request.headers.locale, request.query);
    const route = request.routeOptions.config;
    const authorization = request.headers.authorization;
    const bearer = authorization?.startsWith('Bearer ') ? authorization.slice('Bearer '.length).trim() : undefined;
    // A Studio key (decision 102) is only ever a key: on a call that does not accept one it
    // authenticates nothing, and it is never tried as a session token.
    const studioKey = bearer !== undefined && isStudioKey(bearer);
    // No browser sends a key by itself, so a call made with one has no forgery to guard against.
    const keyed = studioKey && route.studioKey === true;
    if (route.csrf && !keyed && !csrf.verify(request.cookies[XSRF_COOKIE], headerValue(request.headers[XSRF_HEADER]))) {
      throw new AppError('csrf_mismatch');
    }
    if (bearer !== undefined && route.auth !== 'none') {
      if (keyed) request.caller = await services.studioKeys.verify(bearer);
      else if (!studioKey) request.caller = await services.tokens.verify(bearer);
    }
  });

  // Roles before bodies (decision 107): who may call a Console or Studio route is settled here,
  // before its body is parsed or its query and parameters validated, so a caller without the role
  // learns nothing about what the route accepts. The services still check again for themselves.
  const groups: Array<{ prefix: string; open: string[]; require: (caller: Caller | null) => Promise<unknown> }> = [
    { prefix: '/console/', open: [], require: (caller) => services.operators.requireOperator(caller) },
    // The profile is where a member becomes a developer.
    { prefix: '/studio/', open: ['/studio/profile/'], require: (caller) => services.developers.requireDeveloper(caller) },
  ];
  app.addHook('onRequest', async (request) => {
    const url = request.routeOptions.url;
    if (url === undefined || !url.startsWith(app.prefix)) return;
    const path = url.slice(app.prefix.length);
    const group = groups.find((g) => path.startsWith(g.prefix) && !g.open.includes(path));
    if (group) await group.require(request.caller);
  });

  app.setErrorHandler((thrown: FastifyError | AppError, request, reply) => {
    const locale = request.locale ?? 'en';
    // A database or Redis that is away is a 503 the client may retry, not a 500 (decision 077).
    const error = !(thrown instanceof AppError) && isServiceOutage(thrown) ? outageError(thrown) : thrown;
    if (error instanceof AppError) {
      if (error.options.headers) reply.headers(error.options.headers);
      const status = statusOf(error.code);
      if (status === 503 && !reply.hasHeader('retry-after')) reply.header('Retry-After', String(OUTAGE_RETRY_AFTER_SECONDS));
      if (error.code === 'unavailable') request.log.warn({ err: error.cause ?? error }, 'service unavailable');
      else if (status >= 500) request.log.error({ err: error.cause ?? error }, 'request failed');
      return reply.code(status).send(errorEnvelope(error, locale));
    }
    const status = typeof error.statusCode === 'number' && error.statusCode >= 400 ? error.statusCode : 500;
    if (status >= 500) request.log.error({ err: error }, 'unexpected error');
    else request.log.info({ code: error.code, message: error.message }, 'request rejected');
    // Fastify's own client errors (bad JSON, body too large) keep their status; anything else is a bare 500.
    return reply.code(status).send(errorEnvelope(new AppError(codeForStatus(status)), locale));
  });

  // Both catch unknown API paths: the route wins over the portal's page catch-all.
  app.setNotFoundHandler(notFound);
  app.all('/*', { config: { auth: 'none', csrf: false } }, notFound);

  const api = new ApiRouter(app);

  api.route({ method: 'GET', url: '/csrf', summary: 'Issue the XSRF-TOKEN cookie', tags: ['session'], auth: 'none' }, ({ reply }) => {
    reply.setCookie(XSRF_COOKIE, csrf.issue(), { ...cookieOptions, httpOnly: false });
    return null;
  });

  sessionRoutes(api, services.tokens);
  await accountsRoutes(api, services.accounts);
  workspacesRoutes(api, { developers: services.developers, operators: services.operators });
  catalogueRoutes(api, services.catalogue, services.library, services.payments, services.builds);
  articlesRoutes(api, services.articles);
  passkeysRoutes(api, services.passkeys);
  socialRoutes(api, services.social);
  gamesRoutes(api, services.games);
  await recordsRoutes(api, services.records);
  await paymentsRoutes(api, services.payments);
  pagesRoutes(api, services.pages);
  trackingRoutes(api, services.advertisingIds, services.gameSessions);
  await webhooksRoutes(api, {
    webhooks: services.webhooks,
    developers: services.developers,
    records: services.records,
    payments: services.payments,
    secrets: services.gameSecrets,
  });
  await studioRoutes(api, services.studioGames);
  gameChangesRoutes(api, { changes: services.gameChanges, studio: services.studioGames });
  await buildsRoutes(api, { builds: services.builds, uploads: services.buildUploads, developers: services.developers, incoming: services.incomingUploads });
  consoleOpsRoutes(api, services.consoleOps);
  await consoleContentRoutes(api, services.consoleGames, services.consoleContent);
  studioStatsRoutes(api, services.studioStats);
  await earningsConsoleRoutes(api, { terms: services.revenueTerms, reconciliation: services.reconciliation });
  memberDataRoutes(api, services.memberData);
  accountDeletionRoutes(api, services.accountDeletion);
  twoFactorRoutes(api, services.twoFactor);
  accountRecoveryRoutes(api, services.accounts.recovery, services.accounts.notices);
  studioKeysRoutes(api, services.studioKeys, services.developers);
  payoutsRoutes(api, services.payouts);
  earningsRoutes(api, services.earnings);

  api.documented({
    method: 'GET',
    url: '/openapi.json',
    summary: 'This OpenAPI document',
    tags: ['meta'],
    auth: 'none',
    rawResponses: {
      '200': { description: 'The OpenAPI 3.1 document (not in the envelope)', schema: z.object({ openapi: z.string() }).loose() },
      '400': { description: 'Malformed request URL, in the envelope' },
    },
  });
  const document = buildOpenApiDocument(
    api.routes,
    {
      title: `${config.productName} API`,
      version: VERSION,
      // Relative to the document's own address, so it is right behind any origin or proxy.
      serverUrl: '/serve/api',
    },
    PORTAL_ENDPOINTS,
    DOCUMENTED_WEBHOOKS,
  );
  app.get('/openapi.json', { config: { auth: 'none', csrf: false } }, async () => document);
};

async function notFound(request: FastifyRequest, reply: FastifyReply) {
  request.locale = requestLocale(request.headers.locale, request.query);
  const path = request.url.split('?')[0];
  const error = new AppError('route_not_found', { values: { method: request.method, path } });
  return reply.code(404).send(errorEnvelope(error, request.locale));
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** A Fastify app with only the API, for running or testing it alone. */
export async function registerApiStandalone(app: FastifyInstance, options: ApiPluginOptions): Promise<void> {
  answerRequestId(app);
  await app.register(apiPlugin, { ...options, prefix: '/serve/api' });
}
