import { z } from 'zod';
import { ERROR_CODES, REFUSAL_REASONS } from '#common/api/error-codes.ts';
import { LOCALES } from '#common/locales.ts';
import type { RegisteredRoute } from './api-router.ts';

const jsonSchema = (schema: z.ZodType, io: 'input' | 'output') =>
  z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as Record<string, unknown>;

const envelope = (data: Record<string, unknown>) => ({
  type: 'object',
  required: ['code', 'message', 'data'],
  properties: { code: { type: 'integer' }, message: { type: 'string' }, data },
});

/** A refusal in the envelope. */
const refusal = (description: string) => ({ description, content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } } });

/** `GET /article/info/:id` → `getArticleInfoById`: stable, unique per method and path. */
export function operationIdOf(method: string, url: string): string {
  const words = url
    .split('/')
    .filter(Boolean)
    .map((segment) => (segment.startsWith(':') ? `by_${segment.slice(1)}` : segment))
    .flatMap((segment) => segment.split(/[^A-Za-z0-9]+/))
    .filter(Boolean);
  return method.toLowerCase() + words.map((word) => word[0]!.toUpperCase() + word.slice(1)).join('');
}

/** An event the portal POSTs to a game's backend (the document's `webhooks`), from the schemas its sender builds it with. */
export interface DocumentedWebhook {
  name: string;
  summary: string;
  description: string;
  body: z.ZodType;
  headers: Record<string, z.ZodType>;
}

/** The OpenAPI 3.1 `webhooks`: one POST per event, its headers and body, the answers the portal expects. */
function webhookItems(webhooks: DocumentedWebhook[]) {
  return Object.fromEntries(
    webhooks.map((webhook) => [
      webhook.name,
      {
        post: {
          operationId: operationIdOf('POST', `/webhook/${webhook.name}`),
          summary: webhook.summary,
          description: `${webhook.description} Sent to the game's webhook URL (Studio → the game → Webhooks), signed with its webhook secret (docs/sdk/webhooks.md, decision 100).`,
          tags: ['webhooks'],
          security: [],
          parameters: Object.entries(webhook.headers).map(([name, schema]) => {
            const { description, ...headerSchema } = jsonSchema(schema, 'output');
            return { name, in: 'header', required: true, ...(description ? { description } : {}), schema: headerSchema };
          }),
          requestBody: { required: true, content: { 'application/json': { schema: jsonSchema(webhook.body, 'output') } } },
          responses: {
            '2XX': { description: 'Received: any 2xx within 10 seconds ends the delivery' },
            '4XX': { description: 'Not received: retried after 30 s, 1, 2, 4… minutes (at most 6 hours apart) for 24 hours, like any other answer or none' },
          },
        },
      },
    ]),
  );
}

/** Builds the OpenAPI 3.1 document from the same zod schemas that validate requests and build webhooks. */
export function buildOpenApiDocument(
  routes: RegisteredRoute[],
  info: { title: string; version: string; serverUrl: string },
  /** Endpoints of the portal outside the API, served from the origin's root. */
  portalRoutes: RegisteredRoute[] = [],
  /** Events the portal sends to games' backends. */
  webhooks: DocumentedWebhook[] = [],
) {
  const paths: Record<string, Record<string, unknown>> = {};
  const portalPaths = new Set(portalRoutes.map((route) => route.url));
  for (const route of [...routes, ...portalRoutes]) {
    const path = route.url.replace(/:([A-Za-z_]+)/g, '{$1}');
    const parameters: unknown[] = [];
    for (const [location, schema] of [
      ['path', route.params],
      ['query', route.query],
    ] as const) {
      if (!schema) continue;
      const js = jsonSchema(schema, 'input');
      const properties = (js.properties ?? {}) as Record<string, unknown>;
      const required = new Set((js.required as string[] | undefined) ?? []);
      for (const [name, propSchema] of Object.entries(properties)) {
        parameters.push({ name, in: location, required: location === 'path' || required.has(name), schema: propSchema });
      }
    }
    // The message's language: the Locale header, else the locale query (the browser sends both on GET).
    const locales = { type: 'string', enum: LOCALES.map((locale) => locale.code) };
    parameters.push({ name: 'Locale', in: 'header', required: false, schema: locales });
    if (!parameters.some((p) => (p as { in: string; name: string }).in === 'query' && (p as { name: string }).name === 'locale')) {
      parameters.push({ name: 'locale', in: 'query', required: false, schema: locales });
    }
    const responses: Record<string, unknown> = route.rawResponses
      ? Object.fromEntries(
          Object.entries(route.rawResponses).map(([status, raw]) => [
            status,
            {
              description: raw.description,
              ...(raw.schema ? { content: { [raw.contentType ?? 'application/json']: { schema: jsonSchema(raw.schema, 'output') } } } : {}),
            },
          ]),
        )
      : {
          [String(route.status ?? 200)]: {
            description: 'Success',
            content: { 'application/json': { schema: envelope(route.response ? jsonSchema(route.response, 'output') : { type: 'null' }) } },
          },
        };
    if (!route.rawResponses) {
      // Every envelope route can refuse malformed JSON, a body over the limit, or too many calls.
      responses['400'] = refusal(route.method === 'GET' ? 'Malformed request URL' : 'Malformed request URL or JSON body');
      if (route.params || route.query || route.body || route.multipart)
        responses['422'] = refusal('Invalid input: data.errors maps each field to its messages');
      if (route.method !== 'GET') responses['413'] = refusal('Body larger than the limit');
      if (route.auth === 'required') responses['401'] = refusal('Token is missing or invalid');
      if (route.method !== 'GET' && route.csrf !== false) responses['419'] = refusal('XSRF token missing or mismatched: fetch /csrf and retry');
    }
    // A path item's own servers override the document's: the portal's endpoints sit at the root.
    if (portalPaths.has(route.url)) (paths[path] ??= {}).servers = [{ url: '/', description: 'The portal, outside the API' }];
    (paths[path] ??= {})[route.method.toLowerCase()] = {
      operationId: operationIdOf(route.method, route.url),
      summary: route.summary,
      ...(route.description ? { description: route.description } : {}),
      tags: route.tags,
      parameters,
      ...(route.body
        ? {
            requestBody: {
              required: true,
              content: Object.fromEntries(
                [...(route.bodyContentType ? [route.bodyContentType] : []), 'application/json'].map((type) => [
                  type,
                  { schema: jsonSchema(route.body!, 'input') },
                ]),
              ),
            },
          }
        : route.multipart
          ? { requestBody: { required: true, content: { 'multipart/form-data': { schema: jsonSchema(route.multipart, 'input') } } } }
          : route.formBody
            ? { requestBody: { required: true, content: { 'application/x-www-form-urlencoded': { schema: jsonSchema(route.formBody, 'input') } } } }
            : {}),
      responses,
      ...(route.auth === 'required'
        ? { security: route.studioKey ? [{ bearer: [] }, { studioKey: [] }] : [{ bearer: [] }] }
        : route.auth === 'none'
          ? { security: [] }
          : { security: [{}, { bearer: [] }] }),
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: info.title,
      version: info.version,
      description:
        'Every answer is the envelope `{ code, message, data }`: `code` repeats the HTTP status, `message` is translated from the `Locale` header, `data` is described per operation. ' +
        "A refusal adds `error`, what went wrong in the domain's terms (`account_not_secured`, `save_too_large`, …; schema ErrorEnvelope).",
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    },
    servers: [{ url: info.serverUrl }],
    paths,
    ...(webhooks.length > 0 ? { webhooks: webhookItems(webhooks) } : {}),
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'Access token `{id}|{random}`' },
        studioKey: {
          type: 'http',
          scheme: 'bearer',
          description:
            "A developer's Studio key `pk_{id}_{random}` (build pipelines, decision 102): accepted only by the calls that list it, without the XSRF token",
        },
      },
      schemas: {
        ErrorEnvelope: {
          type: 'object',
          required: ['code', 'error', 'message', 'data'],
          properties: {
            code: { type: 'integer', description: 'The HTTP status' },
            error: { type: 'string', enum: [...ERROR_CODES], description: "What went wrong in the domain's terms (decision 085); one status each" },
            reason: {
              type: 'string',
              enum: Object.keys(REFUSAL_REASONS),
              description: 'Where a feature names the refusal more precisely than `error` (decision 131): present only then, and always with the same `error`',
            },
            message: { type: 'string' },
            data: { description: 'null, or details such as { errors: { field: [message] } }' },
          },
        },
      },
    },
  };
}
