import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isErrorCode } from '#common/api/error-codes.ts';
import { insertUser, openTestApi, type TestApi } from './testing/test-api.ts';

/*
 * Every operation of the OpenAPI document driven from its own schemas with malformed and hostile
 * input: parameters, query strings, bodies, headers, cookies, tokens and XSRF tokens. Whatever
 * arrives, the API answers below 500, never with a stack trace, and refuses in the envelope with
 * a message. Runs are bounded (RUNS per operation) so the file stays well under a minute.
 */

const RUNS = Number(process.env.API_FUZZ_RUNS ?? 60);

interface JsonSchema {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  minimum?: number;
  maximum?: number;
  maxLength?: number;
}

interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  schema: JsonSchema;
}

interface Operation {
  operationId: string;
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
  responses: Record<string, unknown>;
}

/** Where a stack trace or a source location would show. */
const LEAK = /\n\s+at |node_modules|\.ts:\d+|\/work\/|Error: .*\n/;

const hostileKey = fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', '', '$where', 'a.b', '0');
const hostileString = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    '\uD800',
    '\u202E',
    '😀'.repeat(300),
    '../../etc/passwd',
    '%00',
    '%',
    '<script>alert(1)</script>',
    "' OR 1=1 --",
    '-1',
    '0',
    '1.5',
    '1e309',
    '9007199254740993',
    'NaN',
    'Infinity',
    'null',
    'true',
    '[]',
    '{}',
    '__proto__',
  ),
  fc.integer({ min: 1_000, max: 200_000 }).map((n) => 'x'.repeat(n)),
);
const hostileJson: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.constant(null),
    fc.boolean(),
    fc.integer(),
    fc.double(),
    fc.constantFrom(-1, 0, 2 ** 53, -(2 ** 63), 1e308),
    hostileString,
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.oneof(hostileKey, fc.string({ maxLength: 8 })), tie('value'), { maxKeys: 4 }),
  ),
})).value;

/** A value that fits the schema more or less: right types often, so the input gets past validation too. */
function plausible(schema: JsonSchema | undefined, depth = 0): fc.Arbitrary<unknown> {
  if (!schema || depth > 4) return hostileJson;
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants?.length) return fc.oneof(...variants.map((s) => plausible(s, depth + 1)));
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'string':
      return fc.oneof(fc.string({ minLength: 1, maxLength: schema.maxLength ?? 20 }), fc.constantFrom('1', 'a@b.co', '+8613800000000', 'google', 'en'));
    case 'integer':
      return fc.integer({ min: schema.minimum ?? -10, max: Math.min(schema.maximum ?? 1_000, 1_000_000) });
    case 'number':
      return fc.double({ noNaN: true, min: -1e6, max: 1e6 });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return fc.array(plausible(schema.items, depth + 1), { maxLength: 3 });
    case 'object': {
      const properties = schema.properties ?? {};
      return fc.record(Object.fromEntries(Object.entries(properties).map(([name, s]) => [name, plausible(s, depth + 1)])), {
        requiredKeys: schema.required?.filter((name) => name in properties) ?? [],
      });
    }
    default:
      return hostileJson;
  }
}

/** Plausible or hostile, each field on its own: wrong types, nulls, extra and prototype keys. */
function mutated(schema: JsonSchema | undefined): fc.Arbitrary<unknown> {
  const fields = schema?.properties ?? {};
  const mixed = fc.record(Object.fromEntries(Object.entries(fields).map(([name, s]) => [name, fc.oneof(plausible(s), hostileJson)])), { requiredKeys: [] });
  const withExtras = fc
    .tuple(mixed, fc.dictionary(hostileKey, hostileJson, { maxKeys: 2 }))
    .map(([body, extra]) => Object.assign(Object.create(null) as object, body, extra));
  return fc.oneof(plausible(schema), withExtras, hostileJson);
}

/** Raw JSON text no object literal can make: prototype keys as own keys, deep nesting, broken JSON. */
const rawBody = fc.oneof(
  fc.constantFrom(
    '{"__proto__":{"polluted":1}}',
    '{"constructor":{"prototype":{"polluted":1}}}',
    '{"a":1,"a":2}',
    '{"broken":',
    'null',
    '"text"',
    '[]',
    '\uFEFF{}',
    '{"x":"\\ud800"}',
    '--x\r\nContent-Disposition: form-data; name="avatar"; filename="a.png"\r\n\r\nabc',
    '--x\r\nContent-Disposition: form-data; name="avatar"\r\n\r\n\r\n--x--\r\n',
    '--y\r\n\r\n--y--',
  ),
  fc.integer({ min: 50, max: 5_000 }).map((depth) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`),
  fc.integer({ min: 50, max: 5_000 }).map((depth) => `${'['.repeat(depth)}${']'.repeat(depth)}`),
);

type TokenKind = 'none' | 'valid' | 'revoked' | 'forged' | 'garbage' | 'huge' | 'basic' | 'empty-bearer';
type CsrfKind = 'valid' | 'none' | 'header-only' | 'cookie-only' | 'mismatch' | 'forged';

/** `usual` most of the time (so input gets past the gates to the handlers), else one of `others`. */
const mostly = <T>(usual: T, ...others: T[]) => fc.oneof({ arbitrary: fc.constant(usual), weight: 3 }, { arbitrary: fc.constantFrom(...others), weight: 1 });

const requestShape = fc.record({
  token: fc.oneof(fc.constant<TokenKind>('valid'), mostly<TokenKind>('none', 'revoked', 'forged', 'garbage', 'huge', 'basic', 'empty-bearer')),
  csrf: mostly<CsrfKind>('valid', 'none', 'header-only', 'cookie-only', 'mismatch', 'forged'),
  locale: fc.option(
    fc.oneof(
      fc.constantFrom('en', 'zh-CN', 'xx', '../en', '__proto__'),
      hostileString.filter((s) => s.length < 200),
    ),
    { nil: undefined },
  ),
  contentType: mostly<string | undefined>(
    'application/json',
    'text/plain',
    'application/json; charset=utf-16',
    'multipart/form-data; boundary=x',
    'application/x-www-form-urlencoded',
    undefined,
  ),
  extraCookie: fc.option(fc.tuple(fc.constantFrom('token', 'utm_source', '__proto__'), fc.string({ maxLength: 50 })), { nil: undefined }),
  raw: fc.boolean(),
  // Campaign tags travel as headers and are stored with new accounts and orders.
  campaign: fc.dictionary(fc.constantFrom('utm-source', 'utm-medium', 'utm-campaign', 'utm-term', 'utm-content'), hostileString, { maxKeys: 3 }),
  // A parameter with broken percent-encoding, as a hand-made link may carry.
  badEscape: mostly<string | undefined>(undefined, '%', '%E0%A4%A', '%ff', '%zz', '%C0%AF'),
});

describe('the API under hostile input', () => {
  let api: TestApi;
  let paths: Record<string, Record<string, Operation>>;
  let userId: number;
  let revokedToken: string;
  let forgedToken: string;
  let csrf: Record<string, string>;

  beforeAll(async () => {
    api = await openTestApi();
    paths = (await api.app.inject({ method: 'GET', url: '/serve/api/openapi.json' })).json().paths;
    userId = await insertUser(api.services, { nickname: 'Fuzz' });
    const revoked = await api.services.tokens.issue(userId, 'fuzz');
    await api.services.tokens.revoke(revoked.tokenId);
    revokedToken = revoked.token;
    const valid = await api.services.tokens.issue(userId, 'fuzz');
    forgedToken = `${valid.tokenId}|${'A'.repeat(valid.token.split('|')[1]!.length)}`;
    csrf = await api.csrfHeaders();
  }, 60_000);

  afterAll(async () => {
    await api.close();
  });

  async function tokenFor(kind: TokenKind): Promise<string | undefined> {
    switch (kind) {
      case 'none':
        return undefined;
      case 'valid':
        return `Bearer ${(await api.services.tokens.issue(userId, 'fuzz')).token}`;
      case 'revoked':
        return `Bearer ${revokedToken}`;
      case 'forged':
        return `Bearer ${forgedToken}`;
      case 'garbage':
        return 'Bearer 1|x\u00ff|y';
      case 'huge':
        return `Bearer ${'9'.repeat(40)}|${'a'.repeat(8_000)}`;
      case 'basic':
        return 'Basic YWRtaW46YWRtaW4=';
      case 'empty-bearer':
        return 'Bearer ';
    }
  }

  function csrfHeaders(kind: CsrfKind): Record<string, string> {
    const token = csrf['x-xsrf-token']!;
    switch (kind) {
      case 'valid':
        return csrf;
      case 'none':
        return {};
      case 'header-only':
        return { 'x-xsrf-token': token };
      case 'cookie-only':
        return { cookie: csrf.cookie! };
      case 'mismatch':
        return { cookie: csrf.cookie!, 'x-xsrf-token': `${token}x` };
      case 'forged':
        return { cookie: 'XSRF-TOKEN=abc.def', 'x-xsrf-token': 'abc.def' };
    }
  }

  const operations = () =>
    Object.entries(paths)
      // Path items with their own servers are the portal's, outside this plugin.
      .filter(([, item]) => !('servers' in item))
      .flatMap(([path, item]) => Object.entries(item).map(([method, operation]) => ({ path, method: method.toUpperCase(), operation })));

  it('answers every operation below 500, without a stack trace, refusing in the envelope', { timeout: 120_000 }, async () => {
    const failures: string[] = [];
    // `API_FUZZ_REPORT=1` prints how each operation answered, to see how deep the input got.
    const statuses = new Map<string, Map<number, number>>();
    for (const { path, method, operation } of operations()) {
      const parameters = operation.parameters ?? [];
      const bodySchema = operation.requestBody?.content['application/json']?.schema;
      const multipart = operation.requestBody?.content['multipart/form-data'] !== undefined;
      const queryParameters = parameters.filter((p) => p.in === 'query' && p.name !== 'locale');
      // Envelope answers everywhere but the provider's webhook, the document itself and the plain key set.
      const envelope = !('204' in operation.responses) && operation.operationId !== 'getOpenapiJson' && path !== '/game/jwks.json';
      const input = fc.record({
        path: fc.record(
          Object.fromEntries(parameters.filter((p) => p.in === 'path').map((p) => [p.name, fc.oneof(plausible(p.schema), hostileString).map(String)])),
        ),
        // The operation's own parameters: all plausible, or plausible and hostile with a few strangers (repeated keys too).
        query: fc.oneof(
          fc.record(Object.fromEntries(queryParameters.map((p) => [p.name, plausible(p.schema).map(String)])), { requiredKeys: [] }),
          fc
            .tuple(
              fc.record(Object.fromEntries(queryParameters.map((p) => [p.name, fc.oneof(plausible(p.schema).map(String), hostileString)])), {
                requiredKeys: [],
              }),
              fc.dictionary(
                fc.oneof(fc.constantFrom('__proto__', 'constructor[prototype][x]', 'locale'), fc.string({ maxLength: 6 })),
                fc.oneof(hostileString, fc.array(fc.string({ maxLength: 6 }), { minLength: 2, maxLength: 3 })),
                { maxKeys: 2 },
              ),
            )
            .map(([own, strangers]) => ({ ...own, ...strangers }) as Record<string, string | string[]>),
        ),
        body: mutated(bodySchema),
        rawBody,
        shape: requestShape,
      });
      await fc
        .assert(
          fc.asyncProperty(input, async ({ path: pathValues, query, body, rawBody: raw, shape }) => {
            const url = path.replace(/\{([A-Za-z_]+)\}/g, (_, name: string) => shape.badEscape ?? encode(pathValues[name] ?? ''));
            const search = new URLSearchParams();
            for (const [key, value] of Object.entries(query)) for (const v of [value ?? []].flat()) search.append(key, v);
            const headers: Record<string, string> = { ...csrfHeaders(shape.csrf) };
            const authorization = await tokenFor(shape.token);
            if (authorization) headers.authorization = authorization;
            if (shape.locale !== undefined) headers.locale = encode(shape.locale);
            for (const [name, value] of Object.entries(shape.campaign)) headers[name] = encode(value);
            if (shape.extraCookie) headers.cookie = [headers.cookie, `${shape.extraCookie[0]}=${encode(shape.extraCookie[1])}`].filter(Boolean).join('; ');
            const withBody = method !== 'GET' && method !== 'DELETE';
            if (withBody && shape.contentType) headers['content-type'] = shape.contentType;
            // An upload gets broken forms under its own content type half the time.
            if (multipart && shape.raw) headers['content-type'] = 'multipart/form-data; boundary=x';
            const response = await api.app.inject({
              method: method as 'GET',
              url: `/serve/api${url}${search.size ? `?${search}` : ''}`,
              headers,
              ...(withBody ? { payload: shape.raw ? raw : (JSON.stringify(body) ?? 'null') } : {}),
            });
            const seen = statuses.get(`${method} ${path}`) ?? new Map<number, number>();
            statuses.set(`${method} ${path}`, seen.set(response.statusCode, (seen.get(response.statusCode) ?? 0) + 1));
            const problem = checkAnswer(response.statusCode, response.body, envelope);
            if (problem) failures.push(`${method} ${path} → ${response.statusCode} ${problem}: ${response.body.slice(0, 300)}`);
            return problem === null;
          }),
          { numRuns: RUNS, endOnFailure: true },
        )
        .catch((error: unknown) => {
          // A property that threw (rather than found a bad answer) is a failure of its own.
          if (!failures.some((f) => f.startsWith(`${method} ${path} `)))
            failures.push(`${method} ${path}: ${`${String(error).slice(0, 1500)} ${String((error as Error).cause)}`}`);
        });
    }
    if (process.env.API_FUZZ_REPORT) for (const [operation, seen] of statuses) console.log(operation, Object.fromEntries(seen));
    expect(failures).toEqual([]);
    // No parsed body reached the prototypes.
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('answers a URL with broken percent-encoding in the envelope, without echoing it', async () => {
    const response = await api.app.inject({ method: 'GET', url: '/serve/api/article/info/%E0%A4%A?token=secret', headers: { locale: 'zh-CN' } });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ code: 400, error: 'bad_request', message: expect.stringMatching(/\S/), data: null });
    expect(response.body).not.toContain('secret');
  });

  it('refuses a JSON body over the 1 MiB limit with 413 in the envelope', async () => {
    const response = await api.call('POST', '/session/check', { body: { padding: 'x'.repeat(1_100_000) }, headers: { 'content-type': 'application/json' } });
    expect(response.statusCode).toBe(413);
    expect(response.json()).toMatchObject({ code: 413, message: expect.stringMatching(/\S/), data: null });
  });

  it('stops reading an upload at the avatar limit and refuses it in the envelope', async () => {
    const { token } = await api.services.tokens.issue(userId, 'fuzz');
    const boundary = 'fuzzboundary';
    const file = Buffer.alloc(5 * 1024 * 1024 + 10, 0x89);
    const payload = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="avatar"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`),
      file,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const response = await api.app.inject({
      method: 'POST',
      url: '/serve/api/member/avatar/',
      headers: { ...csrf, authorization: `Bearer ${token}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload,
    });
    // A file over 5 MB is the avatar field's own error (the form shows it under the field), not a bare 413.
    expect(response.statusCode).toBe(422);
    expect(response.json()).toMatchObject({ code: 422, data: { errors: { avatar: [expect.stringContaining('5')] } } });
    expect(await api.services.database.db.selectFrom('users').select('avatar').where('id', '=', userId).executeTakeFirst()).toEqual({ avatar: null });
  });

  it('refuses a Xsolla notification over its 256 KB limit with 413 in the envelope', async () => {
    const response = await api.app.inject({
      method: 'POST',
      url: '/serve/api/payment/xsolla/webhook/',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ notification_type: 'payment', padding: 'x'.repeat(300_000) }),
    });
    expect(response.statusCode).toBe(413);
    expect(response.json()).toMatchObject({ code: 413, message: expect.stringMatching(/\S/), data: null });
  });
});

/** Percent-encoding that takes lone surrogates too (as a browser sends them: replaced). */
function encode(value: string): string {
  return encodeURIComponent(value.toWellFormed());
}

/** What is wrong with an answer, or null. */
function checkAnswer(status: number, body: string, envelope: boolean): string | null {
  if (status >= 500) return 'server error';
  if (LEAK.test(body)) return 'stack trace or source path';
  if (!envelope || status === 204) return null;
  let parsed: { code?: unknown; error?: unknown; message?: unknown; data?: unknown };
  try {
    parsed = JSON.parse(body) as typeof parsed;
  } catch {
    return 'not JSON';
  }
  if (parsed.code !== status) return 'envelope code differs from the status';
  if (typeof parsed.message !== 'string' || parsed.message.trim() === '') return 'no message';
  if (!('data' in parsed)) return 'no data';
  if (status >= 400 && !isErrorCode(parsed.error)) return 'refusal without a known error code';
  return null;
}
