import { z } from 'zod';
import { JwksSchema } from '#common/api/game-store.schema.ts';
import { LOCALE_CODES } from '#common/locales.ts';
import type { RegisteredRoute } from './api-router.ts';

/*
 * The portal's machine-readable endpoints outside /serve/api (server/app.ts and the features'
 * public routes), for the OpenAPI document only: they answer in their own formats, not the
 * envelope. Pages and static file trees (/assets, /games, /uploads, /sdk, /_img) are not listed.
 * server/api-document.db.test.ts compares this list with the portal's registered routes.
 */
const TAGS = ['portal'];
const notFound = { description: 'Unknown name (plain text)' };
const LocaleSchema = z.enum(LOCALE_CODES as [string, ...string[]]);

export const PORTAL_ENDPOINTS: RegisteredRoute[] = [
  {
    method: 'GET',
    url: '/healthz',
    summary: 'Liveness: the process answers',
    tags: TAGS,
    auth: 'none',
    rawResponses: {
      '200': { description: 'Alive', schema: z.object({ status: z.literal('ok') }) },
      '400': { description: 'Malformed request URL, in the envelope' },
    },
  },
  {
    method: 'GET',
    url: '/.well-known/jwks.json',
    summary: 'The keys game tokens are signed with (JWKS)',
    description: 'The same plain RFC 7517 key set as /serve/api/game/jwks.json, where JWT libraries look for an issuer’s keys; cached an hour.',
    tags: TAGS,
    auth: 'none',
    rawResponses: {
      '200': { description: 'The key set', schema: JwksSchema, contentType: 'application/jwk-set+json' },
      '400': { description: 'Malformed request URL, in the envelope' },
    },
  },
  {
    method: 'GET',
    url: '/readyz',
    summary: 'Readiness: the database answers',
    tags: TAGS,
    auth: 'none',
    rawResponses: {
      '200': { description: 'Ready', schema: z.object({ status: z.literal('ready'), database: z.enum(['sqlite', 'postgres']) }) },
      '400': { description: 'Malformed request URL, in the envelope' },
      '503': { description: 'The database does not answer', schema: z.object({ status: z.literal('unavailable'), database: z.enum(['sqlite', 'postgres']) }) },
    },
  },
  {
    method: 'GET',
    url: '/:locale/messages.json',
    summary: 'The interface messages of one locale',
    description: 'Cached a day in production (no-cache in development); pages ask with `?v={build}`.',
    tags: TAGS,
    auth: 'none',
    params: z.object({ locale: LocaleSchema }),
    rawResponses: {
      '200': { description: 'Namespaces of messages', schema: z.record(z.string(), z.record(z.string(), z.unknown())) },
      '404': { description: 'Unknown locale, in the envelope' },
    },
  },
  {
    method: 'GET',
    url: '/api/manifest/webmanifest.json',
    summary: 'The installable-app manifest of a locale',
    tags: TAGS,
    auth: 'none',
    query: z.object({ locale: LocaleSchema.optional() }),
    rawResponses: {
      '200': {
        description: 'Web app manifest',
        contentType: 'application/manifest+json',
        schema: z.object({ id: z.string(), name: z.string(), start_url: z.string() }).loose(),
      },
      '400': { description: 'Malformed request URL, in the envelope' },
    },
  },
  {
    method: 'GET',
    url: '/builds/latest.json',
    summary: 'The running build, polled by the browser to notice a release',
    tags: TAGS,
    auth: 'none',
    rawResponses: {
      '200': { description: 'The build id', schema: z.object({ id: z.string() }) },
      '400': { description: 'Malformed request URL, in the envelope' },
    },
  },
  {
    method: 'GET',
    url: '/feeds/:file',
    summary: 'Atom feed of an article column: `{column}.{locale}.xml`',
    tags: TAGS,
    auth: 'none',
    params: z.object({ file: z.string().meta({ description: '`{column}.{locale}.xml`, e.g. `news.en.xml`' }) }),
    rawResponses: { '200': { description: 'Atom feed', contentType: 'application/atom+xml', schema: z.string() }, '404': notFound },
  },
  {
    method: 'GET',
    url: '/sitemap.xml',
    summary: 'The sitemap of every page in both locales',
    tags: TAGS,
    auth: 'none',
    rawResponses: {
      '200': { description: 'Sitemap', contentType: 'application/xml', schema: z.string() },
      '400': { description: 'Malformed request URL, in the envelope' },
    },
  },
  {
    method: 'POST',
    url: '/oauth/:platform/callback',
    summary: "Apple's form_post answer, turned into the callback page's query",
    description: 'A cross-site form POST (response_mode=form_post); answered with a 303 to the same path with the answer in the query (decision 063).',
    tags: TAGS,
    auth: 'none',
    csrf: false,
    params: z.object({ platform: z.enum(['google', 'apple', 'discord', 'facebook', 'x', 'whatsapp']) }),
    formBody: z.object({ code: z.string().optional(), state: z.string().optional(), user: z.string().optional(), error: z.string().optional() }),
    rawResponses: { '303': { description: "To the callback page, with the answer's fields in the query" }, '404': notFound },
  },
  {
    method: 'GET',
    url: '/dev/whatsapp-inbox',
    summary: "The development WhatsApp sender's codes",
    description: 'Only with the development sender, which the configuration refuses in production.',
    tags: TAGS,
    auth: 'none',
    rawResponses: {
      '200': { description: 'HTML table of the codes, newest first', contentType: 'text/html', schema: z.string() },
      '400': { description: 'Malformed request URL, in the envelope' },
    },
  },
];
