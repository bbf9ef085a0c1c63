import type { z } from 'zod';
import type { ApiEnvelope } from '#common/api/envelope.ts';
import type { Locale } from '#common/locales.ts';
import { translator } from '../i18n.ts';
import { AppError } from '../lib/app-error.ts';
import type { ApiRouter } from './api-router.ts';
import { parseOrThrow } from './validation.ts';

/** A signed call is one small JSON object. */
const SIGNED_BODY_LIMIT = 4 * 1024;

/** The signature headers of a call, as sent (`Playport-Timestamp`, `Playport-Signature`). */
export interface SignatureHeaders {
  timestamp: string | undefined;
  signature: string | undefined;
}

/** One signed POST route: what it documents, the body it takes and what it does once the call is verified. */
export interface SignedRoute<V> {
  url: string;
  summary: string;
  body: z.ZodType;
  response: z.ZodType;
  run: (appId: number, body: never, verified: V) => Promise<unknown>;
}

/** Types a signed route's `run` by its body schema (a list of routes holds bodies of different types). */
export function signedRoute<S extends z.ZodType, V>(route: {
  url: string;
  summary: string;
  body: S;
  response: z.ZodType;
  run: (appId: number, body: z.output<S>, verified: V) => Promise<unknown>;
}): SignedRoute<V> {
  return route as SignedRoute<V>;
}

/**
 * How a call is verified: `before: 'parse'` checks the signature before the body is read (nothing
 * is answered to a caller without the secret); `before: 'run'` checks it with the validated body
 * (the check needs a field of it). What the check answers is passed to `run`.
 */
export type SignedVerify<V, B> =
  | { before: 'parse'; check: (appId: number, signature: SignatureHeaders, rawBody: string) => Promise<V> }
  | { before: 'run'; check: (appId: number, signature: SignatureHeaders, rawBody: string, body: B) => Promise<V> };

/**
 * Registers POST routes signed with a game's secret: the signature covers the raw body, so they
 * are read as text in a scope of their own, verified, then parsed and validated; each is documented
 * in the OpenAPI document and answers the API envelope.
 */
export async function signedRoutes<V, B>(
  api: ApiRouter,
  options: {
    params: z.ZodType<{ app_id: number }>;
    description: string;
    tags: string[];
    verify: SignedVerify<V, B>;
    routes: readonly SignedRoute<V>[];
  },
): Promise<void> {
  const { params, description, tags, verify, routes } = options;
  for (const route of routes)
    api.documented({
      method: 'POST',
      url: route.url,
      summary: route.summary,
      description,
      tags,
      auth: 'none',
      csrf: false,
      params,
      body: route.body,
      response: route.response,
    });
  await api.app.register(async (scope) => {
    scope.removeContentTypeParser('application/json');
    scope.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: SIGNED_BODY_LIMIT }, (_request, body, done) => done(null, body));
    for (const route of routes) {
      scope.post(route.url, { config: { auth: 'none', csrf: false } }, async (request, reply) => {
        const locale = request.locale;
        const { app_id: appId } = parseOrThrow(params, request.params, locale);
        const raw = typeof request.body === 'string' ? request.body : '';
        const header = (name: string) => (typeof request.headers[name] === 'string' ? (request.headers[name] as string) : undefined);
        const signature = { timestamp: header('playport-timestamp'), signature: header('playport-signature') };
        let verified = verify.before === 'parse' ? await verify.check(appId, signature, raw) : undefined;
        const body = parseBody(route.body, raw, locale);
        if (verify.before === 'run') verified = await verify.check(appId, signature, raw, body as B);
        const data = await route.run(appId, body as never, verified as V);
        const envelope: ApiEnvelope = { code: 200, message: translator(locale)('errors:ok'), data };
        return reply.code(200).send(envelope);
      });
    }
  });
}

function parseBody(schema: z.ZodType, raw: string, locale: Locale): unknown {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch (cause) {
    throw new AppError('bad_request', { cause });
  }
  return parseOrThrow(schema, json, locale);
}
