import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createPublicKey } from 'node:crypto';
import { jwtVerify } from 'jose';
import { OAuth2Server } from 'oauth2-mock-server';
import { OAUTH_PLATFORMS, type OAuthPlatform } from '#common/social-platforms.ts';

/*
 * Local stand-ins for the identity providers and the WhatsApp Cloud API, on loopback: real HTTP
 * servers that speak the providers' protocols (oauth2-mock-server for OAuth 2.0 / OpenID Connect),
 * so tests exercise the portal's own client code over the wire.
 *
 * Who signs in at a stand-in is the browser's choice, as at a real provider: cookies on the
 * stand-in's origin name the account (`stand_in_user`, optionally `stand_in_name` and
 * `stand_in_email`); `stand_in_audience` makes the ID token name another client (a forged token).
 */

export interface StandInIdentity {
  sub: string;
  name: string | null;
  email: string | null;
  wrongAudience: boolean;
}

export interface IdentityProviders {
  /** Each provider's issuer URL, for OAUTH_{PROVIDER}_ISSUER_URL. */
  issuers: Record<OAuthPlatform, string>;
  stop(): Promise<void>;
}

export const STAND_IN_CLIENT = { clientId: 'playport-test-client', clientSecret: 'playport-test-secret' } as const;

/**
 * Starts one stand-in per provider. Discord, Facebook and X answer their profile calls in each
 * provider's documented shape; Apple answers by form_post, sends the name on the first sign-in
 * only and checks the ES256 client secret against the key's public half.
 */
export async function startIdentityProviders(
  options: { host?: string; ports?: Partial<Record<OAuthPlatform, number>>; applePrivateKey?: string } = {},
): Promise<IdentityProviders> {
  const host = options.host ?? '127.0.0.1';
  const servers: OAuth2Server[] = [];
  const issuers = {} as Record<OAuthPlatform, string>;
  for (const platform of OAUTH_PLATFORMS) {
    const server = new OAuth2Server(
      undefined,
      undefined,
      platform === 'apple' ? { endpoints: { authorize: '/auth/authorize-internal', token: '/auth/token-internal' } } : undefined,
    );
    await server.issuer.keys.generate('RS256');
    configure(server, platform, options.applePrivateKey);
    await server.start(options.ports?.[platform] ?? 0, host);
    // The stand-in names itself "localhost"; the host it listens on keeps its cookies apart from the portal's.
    server.issuer.url = `http://${host}:${server.address().port}`;
    servers.push(server);
    issuers[platform] = server.issuer.url!.replace(/\/$/, '');
  }
  return { issuers, stop: async () => void (await Promise.all(servers.map((s) => s.stop()))) };
}

function configure(server: OAuth2Server, platform: OAuthPlatform, applePrivateKey: string | undefined): void {
  const service = server.service;
  const byCode = new Map<string, StandInIdentity>();
  const bySub = new Map<string, StandInIdentity>();

  service.on('beforeAuthorizeRedirect', (redirect: { url: URL }, req: IncomingMessage) => {
    const identity = identityOf(req);
    const code = redirect.url.searchParams.get('code');
    if (code) byCode.set(code, identity);
    bySub.set(identity.sub, identity);
  });

  service.on('beforeTokenSigning', (token: { payload: Record<string, unknown> }, req: { body: Record<string, unknown> }) => {
    const identity = typeof req.body.code === 'string' ? byCode.get(req.body.code) : undefined;
    if (!identity) return;
    token.payload.sub = identity.sub;
    // ID tokens carry the client as audience; access tokens of this grant carry none.
    if ('aud' in token.payload) {
      if (identity.wrongAudience) token.payload.aud = 'another-client';
      if (platform !== 'apple' && identity.name) token.payload.name = identity.name;
      if (identity.email) Object.assign(token.payload, { email: identity.email, email_verified: true });
    }
  });

  service.on('beforeResponse', (_response: unknown, req: { body: Record<string, unknown> }) => {
    if (typeof req.body.code === 'string') byCode.delete(req.body.code);
  });

  service.on('beforeUserinfo', (response: { statusCode: number; body: Record<string, unknown> | '' }, req: IncomingMessage) => {
    const sub = bearerSubject(req);
    const identity = sub ? bySub.get(sub) : undefined;
    if (!identity) {
      response.statusCode = 401;
      response.body = { error: 'invalid_token' };
      return;
    }
    response.body = profileBody(platform, identity);
  });

  if (platform === 'apple') configureApple(server, applePrivateKey);
}

/**
 * Apple's ways: the authorize endpoint answers with an auto-submitted cross-site POST form
 * (response_mode=form_post) carrying code, state and, on an account's first sign-in only, the
 * `user` field with the name; the token endpoint takes the client secret in the body and accepts
 * only an ES256 JWT signed by the team's key, issued by the team for this client to Apple.
 */
function configureApple(server: OAuth2Server, privateKey: string | undefined): void {
  const service = server.service;
  const issuer = () => server.issuer.url!.replace(/\/$/, '');
  const named = new Set<string>();

  service.on('beforeWellKnownOpenIdConfiguration', (response: { body: Record<string, unknown> }) => {
    response.body.authorization_endpoint = `${issuer()}/auth/authorize`;
    response.body.token_endpoint = `${issuer()}/auth/token`;
  });

  service.addRoute('GET', '/auth/authorize', async (req, res) => {
    const query = new URLSearchParams(req.url!.split('?')[1] ?? '');
    if (query.get('response_mode') === 'form_post') query.set('__form_post', '1');
    res.writeHead(302, { location: `/auth/authorize-internal?${query.toString()}` }).end();
  });

  service.on('beforeAuthorizeRedirect', (redirect: { url: URL }, req: IncomingMessage) => {
    if (!req.url?.includes('__form_post=1')) return;
    const identity = identityOf(req);
    const fields: Record<string, string> = { code: redirect.url.searchParams.get('code') ?? '', state: redirect.url.searchParams.get('state') ?? '' };
    if (!named.has(identity.sub) && identity.name) {
      const [firstName, ...rest] = identity.name.split(' ');
      fields.user = JSON.stringify({ name: { firstName, lastName: rest.join(' ') }, email: identity.email });
      named.add(identity.sub);
    }
    const callback = new URL(redirect.url.href);
    callback.search = '';
    const page = new URL(`${issuer()}/auth/form-post`);
    page.searchParams.set('target', callback.href);
    for (const [key, value] of Object.entries(fields)) page.searchParams.set(key, value);
    // The stand-in redirects to the URL object it emitted, so it is changed in place.
    redirect.url.href = page.href;
  });

  service.addRoute('GET', '/auth/form-post', async (req, res) => {
    const query = new URLSearchParams(req.url!.split('?')[1] ?? '');
    const inputs = ['code', 'state', 'user']
      .filter((key) => query.has(key))
      .map((key) => `<input type="hidden" name="${key}" value="${escapeHtml(query.get(key)!)}">`)
      .join('');
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(
      `<!doctype html><html><body><form method="post" action="${escapeHtml(query.get('target') ?? '')}">${inputs}</form><script>document.forms[0].submit()</script></body></html>`,
    );
  });

  service.addRoute('POST', '/auth/token', async (req, res) => {
    const body = (req.body ?? {}) as Record<string, unknown>;
    if (!(await appleSecretValid(body, privateKey))) {
      res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'invalid_client' }));
      return;
    }
    const forwarded = await fetch(`${issuer()}/auth/token-internal`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(Object.entries(body).map(([k, v]) => [k, String(v)])),
    });
    res.writeHead(forwarded.status, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end(await forwarded.text());
  });
}

async function appleSecretValid(body: Record<string, unknown>, privateKey: string | undefined): Promise<boolean> {
  if (!privateKey || typeof body.client_secret !== 'string' || typeof body.client_id !== 'string') return false;
  try {
    const { payload, protectedHeader } = await jwtVerify(body.client_secret, createPublicKey(privateKey), {
      audience: 'https://appleid.apple.com',
      algorithms: ['ES256'],
    });
    return protectedHeader.kid !== undefined && typeof payload.iss === 'string' && payload.sub === body.client_id;
  } catch {
    return false;
  }
}

function identityOf(req: IncomingMessage): StandInIdentity {
  const cookies = Object.fromEntries(
    (req.headers.cookie ?? '')
      .split(';')
      .map((part) => part.trim().split('='))
      .filter(([key]) => key)
      .map(([key, ...value]) => [key!, decodeURIComponent(value.join('='))]),
  );
  return {
    sub: cookies.stand_in_user || 'stand-in-user',
    name: cookies.stand_in_name || null,
    email: cookies.stand_in_email || null,
    wrongAudience: cookies.stand_in_audience === 'wrong',
  };
}

function bearerSubject(req: IncomingMessage): string | null {
  const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
  try {
    const payload = JSON.parse(Buffer.from(token!.split('.')[1]!, 'base64url').toString('utf8')) as { sub?: unknown };
    return typeof payload.sub === 'string' ? payload.sub : null;
  } catch {
    return null;
  }
}

/** The profile call's answer in each provider's documented shape. */
function profileBody(platform: OAuthPlatform, identity: StandInIdentity): Record<string, unknown> {
  switch (platform) {
    case 'discord':
      return {
        id: identity.sub,
        username: identity.name?.toLowerCase().replace(/\W+/g, '') ?? identity.sub,
        global_name: identity.name,
        email: identity.email,
        verified: true,
      };
    case 'facebook':
      return { id: identity.sub, name: identity.name, email: identity.email };
    case 'x':
      return { data: { id: identity.sub, name: identity.name, username: identity.sub } };
    default:
      return { sub: identity.sub, name: identity.name, email: identity.email };
  }
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export interface WhatsAppMessage {
  to: string;
  code: string;
  template: string;
}

/**
 * A stand-in for the WhatsApp Cloud API's message call: POST /{phone-number-id}/messages with the
 * bearer token; takes authentication-template messages and keeps them for the test to read.
 */
export async function startWhatsAppCloudApi(expected: {
  phoneNumberId: string;
  accessToken: string;
}): Promise<{ url: string; messages: WhatsAppMessage[]; failNext: () => void; stop(): Promise<void> }> {
  const messages: WhatsAppMessage[] = [];
  let fail = false;
  const server = createServer((req, res) => {
    let raw = '';
    const send = (status: number, body: unknown) => sendJson(res, status, body);
    req.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== `/${expected.phoneNumberId}/messages`) return send(404, { error: { message: 'Unknown path', code: 100 } });
      if (req.headers.authorization !== `Bearer ${expected.accessToken}`) return send(401, { error: { message: 'Invalid OAuth access token', code: 190 } });
      if (fail) {
        fail = false;
        return send(503, { error: { message: 'Service temporarily unavailable', code: 2 } });
      }
      try {
        const body = JSON.parse(raw) as {
          messaging_product?: string;
          to?: string;
          type?: string;
          template?: { name?: string; components?: { type: string; parameters: { type: string; text: string }[] }[] };
        };
        const code = body.template?.components?.find((c) => c.type === 'body')?.parameters[0]?.text;
        const button = body.template?.components?.find((c) => c.type === 'button')?.parameters[0]?.text;
        if (body.messaging_product !== 'whatsapp' || body.type !== 'template' || !body.to || !code || button !== code) {
          return send(400, { error: { message: 'Invalid parameter', code: 100 } });
        }
        messages.push({ to: body.to, code, template: body.template!.name! });
        return send(200, { messaging_product: 'whatsapp', contacts: [{ input: body.to, wa_id: body.to }], messages: [{ id: `wamid.${messages.length}` }] });
      } catch {
        return send(400, { error: { message: 'Invalid JSON', code: 100 } });
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    messages,
    failNext: () => void (fail = true),
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
