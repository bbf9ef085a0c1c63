import type { AdsConfig } from '#common/ads.ts';
import { createHmac } from 'node:crypto';
import { isIP } from 'node:net';
import { z } from 'zod';
import { OAUTH_PLATFORMS, type OAuthPlatform } from '#common/social-platforms.ts';

const DEV_SECRET = 'development-secret-change-me-0123456789abcdef';

const booleanFromEnv = z.enum(['true', 'false', '1', '0', '']).transform((v) => v === 'true' || v === '1');

/** Named ranges that Fastify's trustProxy (proxy-addr) understands. */
const PROXY_RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isProxyAddress(value: string): boolean {
  if (PROXY_RANGE_NAMES.has(value)) return true;
  const [address, bits, extra] = value.split('/');
  if (extra !== undefined || !address) return false;
  const family = isIP(address);
  if (family === 0) return false;
  if (bits === undefined) return true;
  return /^\d{1,3}$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128);
}

/**
 * Which hops' X-Forwarded-For entries to believe: none (`false`), the last N hops (a number), or
 * hops from these addresses (a list). A bare `true` would believe the leftmost address, which any
 * client writes itself, and so let everyone choose the address every per-address limit counts.
 */
const TrustProxySchema = z
  .string()
  .trim()
  .default('false')
  .transform((value, ctx): false | number | string[] => {
    if (value === '' || value === 'false' || value === '0') return false;
    if (value === 'true') {
      ctx.addIssue({
        code: 'custom',
        message:
          'true would trust every X-Forwarded-For hop, so any client could pick its own address and dodge every per-address limit; ' +
          'write the number of proxies in front of the server (1 for one load balancer) or their addresses (127.0.0.1,10.0.0.0/8)',
      });
      return z.NEVER;
    }
    if (/^\d+$/.test(value)) {
      const hops = Number(value);
      if (hops >= 1 && hops <= 10) return hops;
    }
    const list = value
      .split(',')
      .map((part) => part.trim())
      .filter(Boolean);
    if (list.length > 0 && list.every(isProxyAddress)) return list;
    ctx.addIssue({ code: 'custom', message: 'must be false, a number of proxies from 1 to 10, or a comma-separated list of proxy addresses or CIDR ranges' });
    return z.NEVER;
  });

/**
 * The value for Fastify's `trustProxy`. A hop count becomes a function (Fastify's types take no
 * number): the N hops nearest the server are proxies, and the address before them is the client.
 */
export function trustProxyOption(trust: false | number | string[]): false | string[] | ((address: string, hop: number) => boolean) {
  if (typeof trust !== 'number') return trust;
  return (_address, hop) => hop < trust;
}

const PORT_MESSAGE = 'must be a port number from 0 to 65535';
const Port = z.coerce.number({ error: PORT_MESSAGE }).int(PORT_MESSAGE).min(0, PORT_MESSAGE).max(65535, PORT_MESSAGE);

function isPort(value: number): boolean {
  return Number.isInteger(value) && value >= 0 && value <= 65535;
}

/** A variable that may be unset or empty (both mean unset). */
const OptionalText = z
  .string()
  .trim()
  .optional()
  .transform((v) => (v ? v : undefined));

type OAuthEnvKey = `OAUTH_${Uppercase<OAuthPlatform>}_${'CLIENT_ID' | 'CLIENT_SECRET' | 'ISSUER_URL'}`;

/**
 * OAUTH_{PROVIDER}_CLIENT_ID and _CLIENT_SECRET for each provider (Apple: a team id, key id and
 * private key instead of a secret), and _ISSUER_URL to use another OpenID Connect issuer than the
 * provider's own (a local stand-in in tests); its discovery document names the endpoints.
 */
function oauthEnvShape() {
  const shape = {} as Record<OAuthEnvKey, typeof OptionalText>;
  for (const platform of OAUTH_PLATFORMS) {
    const prefix = `OAUTH_${platform.toUpperCase()}` as `OAUTH_${Uppercase<OAuthPlatform>}`;
    shape[`${prefix}_CLIENT_ID`] = OptionalText;
    shape[`${prefix}_CLIENT_SECRET`] = OptionalText;
    shape[`${prefix}_ISSUER_URL`] = OptionalText;
  }
  return {
    ...shape,
    OAUTH_APPLE_TEAM_ID: OptionalText,
    OAUTH_APPLE_KEY_ID: OptionalText,
    /** The .p8 key's PEM text; newlines may be written as \\n. */
    OAUTH_APPLE_PRIVATE_KEY: OptionalText,
  };
}

type OAuthEnv = Record<OAuthEnvKey | 'OAUTH_APPLE_TEAM_ID' | 'OAUTH_APPLE_KEY_ID' | 'OAUTH_APPLE_PRIVATE_KEY', string | undefined>;

/** A provider is configured by all its credentials or none: a half-configured one is a mistake worth stopping for. */
function checkOAuthEnv(env: OAuthEnv, platform: OAuthPlatform, ctx: z.RefinementCtx): void {
  const prefix = `OAUTH_${platform.toUpperCase()}` as `OAUTH_${Uppercase<OAuthPlatform>}`;
  const needed: (keyof OAuthEnv)[] =
    platform === 'apple'
      ? ['OAUTH_APPLE_CLIENT_ID', 'OAUTH_APPLE_TEAM_ID', 'OAUTH_APPLE_KEY_ID', 'OAUTH_APPLE_PRIVATE_KEY']
      : [`${prefix}_CLIENT_ID`, `${prefix}_CLIENT_SECRET`];
  const set = needed.filter((key) => env[key] !== undefined);
  if (set.length > 0 && set.length < needed.length) {
    ctx.addIssue({ code: 'custom', path: [needed.find((key) => env[key] === undefined)!], message: `${platform} sign-in needs ${needed.join(', ')} together` });
  }
  const issuer = env[`${prefix}_ISSUER_URL`];
  if (issuer !== undefined && !/^https?:\/\/[^\s]+$/.test(issuer))
    ctx.addIssue({ code: 'custom', path: [`${prefix}_ISSUER_URL`], message: 'must be an http(s) URL' });
}

function paymentsProviderOf(env: { PAYMENTS_PROVIDER?: 'xsolla' | 'sandbox' | 'off' | undefined; XSOLLA_API_KEY?: string | undefined; APP_ENV: string }) {
  return env.PAYMENTS_PROVIDER ?? (env.XSOLLA_API_KEY ? 'xsolla' : env.APP_ENV === 'production' ? 'off' : 'sandbox');
}

/** Where the server answers only this machine: localhost, 127.0.0.0/8 or ::1. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  if (bare === 'localhost' || bare === '::1') return true;
  return isIP(bare) === 4 && bare.startsWith('127.');
}

function gamesPortOf(env: { PORT: number; GAMES_PORT?: number | undefined }): number {
  return env.GAMES_PORT ?? (env.PORT === 0 ? 0 : env.PORT + 1);
}

/** The games port and origin: GAMES_PORT / GAMES_ORIGIN, else the port after PORT on games.localhost. */
function gamesOriginOf(env: { PORT: number; GAMES_PORT?: number | undefined; GAMES_ORIGIN?: string | undefined }): { port: number; origin: string } {
  const port = gamesPortOf(env);
  return { port, origin: new URL(env.GAMES_ORIGIN ?? `http://games.localhost:${port}`).origin };
}

/** A host's site as far as cookies go, approximated by its last two labels (an IP address is its own). */
function siteOf(host: string): string {
  return isIP(host.replace(/^\[(.*)\]$/, '$1')) ? host : host.split('.').slice(-2).join('.');
}

/**
 * Why a games origin would be refused: a game keeps its own origin (allow-same-origin), so on the
 * portal's site it could set cookies the portal reads (a Domain cookie of the shared parent).
 * Hosts sharing their last two labels count as one site here, which is safe for co.uk-style names too.
 */
export function gamesOriginProblem(publicOrigin: string, gamesOrigin: string): string | null {
  const portal = new URL(publicOrigin);
  const games = new URL(gamesOrigin);
  if (games.pathname !== '/' || games.search || games.hash) return 'must be an origin, without a path';
  if (isIP(games.hostname.replace(/^\[(.*)\]$/, '$1'))) return 'must be a host name: each game is served on a host below it';
  if (siteOf(games.hostname) === siteOf(portal.hostname))
    return `shares its site with PUBLIC_ORIGIN (${portal.host}): use a domain of its own, so games cannot set cookies the portal reads`;
  return null;
}

/** The origin builds' previews are served from (decision 108): PREVIEWS_ORIGIN, else previews.localhost on the games port. */
function previewsOriginOf(env: { PREVIEWS_ORIGIN?: string | undefined }, gamesPort: number): string {
  return new URL(env.PREVIEWS_ORIGIN ?? `http://previews.localhost:${gamesPort}`).origin;
}

/**
 * Why a previews origin would be refused (decision 108): a preview runs a build nobody reviewed, so
 * it gets a site of its own, neither the portal's (its cookies) nor the games' (a Domain cookie of
 * the games' parent reaches every published game).
 */
export function previewsOriginProblem(publicOrigin: string, gamesOrigin: string, previewsOrigin: string): string | null {
  const previews = new URL(previewsOrigin);
  if (previews.pathname !== '/' || previews.search || previews.hash) return 'must be an origin, without a path';
  if (isIP(previews.hostname.replace(/^\[(.*)\]$/, '$1'))) return 'must be a host name: each preview is served on a host below it';
  if (siteOf(previews.hostname) === siteOf(new URL(publicOrigin).hostname))
    return 'shares its site with PUBLIC_ORIGIN: use a domain of its own, so a preview cannot set cookies the portal reads';
  if (siteOf(previews.hostname) === siteOf(new URL(gamesOrigin).hostname))
    return 'shares its site with GAMES_ORIGIN: use a domain of its own, so a preview cannot set cookies published games receive';
  return null;
}

/** The public origin: PUBLIC_ORIGIN, else this machine on the port the server listens on. */
function publicOriginOf(env: { PUBLIC_ORIGIN?: string | undefined; PORT: number }): string {
  return env.PUBLIC_ORIGIN ?? `http://localhost:${env.PORT}`;
}

/**
 * Whether others than this machine's own user may reach the server: it listens beyond loopback,
 * or its public origin is https (a deployment). The published development secret and the
 * development code inbox are refused then, whatever APP_ENV says.
 */
function reachableByOthers(env: { HOST: string; PUBLIC_ORIGIN?: string | undefined; PORT: number }): boolean {
  return exposure(env) !== null;
}

/** Why the server counts as reachable by others, for the refusals' messages; null when it does not. */
function exposure(env: { HOST: string; PUBLIC_ORIGIN?: string | undefined; PORT: number }): string | null {
  if (!isLoopbackHost(env.HOST)) return `HOST=${env.HOST} listens beyond loopback`;
  const origin = publicOriginOf(env);
  return origin.startsWith('https:') ? `PUBLIC_ORIGIN=${origin} is https` : null;
}

type SenderEnv = {
  WHATSAPP_SENDER?: 'cloud' | 'development' | 'off' | undefined;
  WHATSAPP_ACCESS_TOKEN?: string | undefined;
  APP_ENV: string;
  HOST: string;
  PUBLIC_ORIGIN?: string | undefined;
  PORT: number;
};

function whatsappSenderOf(env: SenderEnv) {
  return env.WHATSAPP_SENDER ?? (env.WHATSAPP_ACCESS_TOKEN ? 'cloud' : env.APP_ENV === 'production' || reachableByOthers(env) ? 'off' : 'development');
}

/**
 * A database URL the drivers can open: `file:<path>`, or a `postgres(ql)://` URL that parses
 * (a port that is not a number would otherwise be retried as an unreachable database).
 */
function databaseUrlProblem(value: string): string | null {
  if (value.startsWith('file:')) return value.length > 'file:'.length ? null : 'file: needs a path (file:data/playport.sqlite)';
  if (!/^postgres(ql)?:\/\//.test(value)) return 'must be file:<path> for SQLite or postgres://… for PostgreSQL';
  if (URL.canParse(value)) return null;
  return 'is not a valid URL: write postgres://user:password@host:port/database (the port a number, special characters in the password percent-encoded)';
}

/** One OAuth provider's credentials; `issuerUrl` replaces its real endpoints with an OpenID Connect issuer's. */
export interface OAuthProviderConfig {
  clientId: string;
  /** Apple has no static secret: it is a short-lived ES256 JWT made from `apple`. */
  clientSecret: string | null;
  apple: { teamId: string; keyId: string; privateKey: string } | null;
  issuerUrl: string | null;
}

export type PaymentsConfig =
  | {
      provider: 'xsolla';
      projectId: string;
      apiKey: string;
      webhookSecret: string;
      sandbox: boolean;
      apiUrl: string;
      payStationUrl: string;
      /** Refunds through the merchant API; null without XSOLLA_MERCHANT_ID. */
      merchant: { id: string; apiUrl: string } | null;
    }
  | { provider: 'sandbox'; webhookSecret: string; webhookUrl: string }
  | { provider: 'off' };

export type WhatsAppConfig =
  | { sender: 'cloud'; apiUrl: string; phoneNumberId: string; accessToken: string; template: string; templateLanguage: string }
  | { sender: 'development' }
  | { sender: 'off' };

function oauthConfigOf(env: OAuthEnv): Partial<Record<OAuthPlatform, OAuthProviderConfig>> {
  const providers: Partial<Record<OAuthPlatform, OAuthProviderConfig>> = {};
  for (const platform of OAUTH_PLATFORMS) {
    const prefix = `OAUTH_${platform.toUpperCase()}` as `OAUTH_${Uppercase<OAuthPlatform>}`;
    const clientId = env[`${prefix}_CLIENT_ID`];
    if (!clientId) continue;
    const apple =
      platform === 'apple'
        ? { teamId: env.OAUTH_APPLE_TEAM_ID!, keyId: env.OAUTH_APPLE_KEY_ID!, privateKey: env.OAUTH_APPLE_PRIVATE_KEY!.replaceAll('\\n', '\n') }
        : null;
    providers[platform] = { clientId, clientSecret: apple ? null : env[`${prefix}_CLIENT_SECRET`]!, apple, issuerUrl: env[`${prefix}_ISSUER_URL`] ?? null };
  }
  return providers;
}

/** The environment, read once. This module is the only reader of process.env. */
const EnvSchema = z
  .object({
    /** The deployment stance (secrets, HSTS); NODE_ENV only tells libraries which build of themselves to use. */
    APP_ENV: z.enum(['development', 'production', 'test']).default('development'),
    HOST: z.string().min(1).default('localhost'),
    PORT: Port.default(3000),
    /** Default http://localhost:{PORT}: game tokens' issuer and the sandbox's webhook follow the port. */
    PUBLIC_ORIGIN: z
      .url({ protocol: /^https?$/ })
      .optional()
      .or(z.literal('').transform(() => undefined)),
    /** The port game files are served on (decision 089); default PORT + 1 (0 with PORT 0). */
    GAMES_PORT: Port.optional(),
    /**
     * The origin game files are served from, each game on a host of its own below it:
     * https://games.example.net serves https://<slug>.games.example.net. Default
     * http://games.localhost:{GAMES_PORT}. It must not share a site with PUBLIC_ORIGIN.
     */
    GAMES_ORIGIN: z
      .url({ protocol: /^https?$/ })
      .optional()
      .or(z.literal('').transform(() => undefined)),
    /**
     * The origin builds' previews are served from (decision 108), each preview on a host below it,
     * by the games origin's listener: https://previews.example.org serves
     * https://<label>.previews.example.org. Default http://previews.localhost:{GAMES_PORT}; required
     * in production with GAMES_ORIGIN. Another site than both PUBLIC_ORIGIN and GAMES_ORIGIN.
     */
    PREVIEWS_ORIGIN: z
      .url({ protocol: /^https?$/ })
      .optional()
      .or(z.literal('').transform(() => undefined)),
    PRODUCT_NAME: z.string().trim().min(1).max(40).default('Playport'),
    DATABASE_URL: z
      .string()
      .trim()
      .default('file:data/playport.sqlite')
      .superRefine((value, ctx) => {
        const problem = databaseUrlProblem(value);
        if (problem) ctx.addIssue({ code: 'custom', message: problem });
      }),
    /** PostgreSQL only: a schema to run in (created when missing); isolates test runs. */
    DATABASE_SCHEMA: z
      .string()
      .regex(/^[a-z_][a-z0-9_]*$/, 'must be a lower-case SQL identifier')
      .optional(),
    DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(100).default(10),
    /** How long start-up waits for an unreachable database before it gives up. */
    DATABASE_CONNECT_TIMEOUT_SECONDS: z.coerce.number().int().min(0).max(3600).default(60),
    REDIS_URL: z
      .string()
      .regex(/^rediss?:\/\//, 'must be redis://… or rediss://…')
      .optional()
      .or(z.literal('').transform(() => undefined)),
    /** Keeps this deployment's Redis keys apart from another's on the same Redis server. */
    REDIS_PREFIX: z
      .string()
      .regex(/^[\w:.-]{0,40}$/, 'must be up to 40 letters, digits, _ : . or -')
      .default(''),
    APP_SECRET: z.string().min(32, 'must be at least 32 characters').default(DEV_SECRET),
    /**
     * After a rotation of APP_SECRET, the one before: its game-token key stays published, preview links
     * signed with it keep working, and games' stored secrets sealed with it stay readable (decision 110).
     */
    APP_SECRET_PREVIOUS: z
      .string()
      .min(32, 'must be at least 32 characters')
      .optional()
      .or(z.literal('').transform(() => undefined)),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    TRUST_PROXY: TrustProxySchema,
    SEED_DEMO_CONTENT: booleanFromEnv.default(true),
    PAGE_CACHE_SECONDS: z.coerce.number().int().min(0).max(3600).default(5),
    COMMUNITY_CHAT_URL: z.url().default('https://discord.com/invite/playport'),
    BUILD_DIR: z.string().min(1).default('build'),
    UPLOAD_DIR: z.string().min(1).default('data/uploads'),
    /** Developers' game builds (decision 097): never served on the portal's origin. */
    BUILDS_DIR: z.string().min(1).default('data/builds'),
    /** Decision 109: an unfinished build upload that received nothing for this many hours is removed. */
    BUILD_UPLOAD_EXPIRY_HOURS: z.coerce.number().int().min(1).max(720).default(24),
    /** Decision 109: unfinished build uploads one studio may have at once. */
    STUDIO_OPEN_UPLOADS: z.coerce.number().int().min(1).max(100).default(3),
    /** Decision 109: megabytes one studio may announce in build uploads per day (UTC). */
    STUDIO_UPLOAD_MB_PER_DAY: z.coerce.number().int().min(1).max(1_000_000).default(4096),
    /** Passkeys: the relying party id (a registrable domain of the site); default PUBLIC_ORIGIN's host name. */
    WEBAUTHN_RP_ID: z
      .string()
      .regex(/^[a-z0-9.-]+$/, 'must be a host name such as example.com')
      .optional()
      .or(z.literal('').transform(() => undefined)),
    /** Passkeys: the origins ceremonies may come from, comma-separated; default PUBLIC_ORIGIN. */
    WEBAUTHN_ORIGINS: z
      .string()
      .optional()
      .transform((value) =>
        value
          ? value
              .split(',')
              .map((o) => o.trim())
              .filter(Boolean)
          : [],
      )
      .pipe(z.array(z.url({ protocol: /^https?$/ }))),
    ...oauthEnvShape(),
    /** WhatsApp sign-in codes: sent through the Cloud API, written to the log and the development inbox, or not offered. */
    WHATSAPP_SENDER: z
      .enum(['cloud', 'development', 'off'])
      .optional()
      .or(z.literal('').transform(() => undefined)),
    WHATSAPP_API_URL: z.url({ protocol: /^https?$/ }).default('https://graph.facebook.com/v21.0'),
    WHATSAPP_PHONE_NUMBER_ID: OptionalText,
    WHATSAPP_ACCESS_TOKEN: OptionalText,
    /** An approved authentication template with a copy-code button; its body takes the code as {{1}}. */
    WHATSAPP_TEMPLATE: z
      .string()
      .regex(/^[a-z0-9_]{1,512}$/, 'must be a template name: lower-case letters, digits and _')
      .default('sign_in_code'),
    /** Card payments: Xsolla when its credentials are set, the built-in sandbox otherwise (never in production), or none. */
    PAYMENTS_PROVIDER: z
      .enum(['xsolla', 'sandbox', 'off'])
      .optional()
      .or(z.literal('').transform(() => undefined)),
    XSOLLA_PROJECT_ID: z
      .string()
      .regex(/^\d+$/, 'must be the numeric project id')
      .optional()
      .or(z.literal('').transform(() => undefined)),
    XSOLLA_API_KEY: OptionalText,
    /** The project's secret key: webhooks are signed with it. */
    XSOLLA_WEBHOOK_SECRET: OptionalText,
    /** Pay Station in sandbox mode (test cards) instead of live payments. */
    XSOLLA_SANDBOX: booleanFromEnv.default(false),
    XSOLLA_API_URL: z.url({ protocol: /^https?$/ }).default('https://store.xsolla.com/api'),
    XSOLLA_PAYSTATION_URL: z.url({ protocol: /^https?$/ }).default('https://secure.xsolla.com/paystation4/'),
    XSOLLA_SANDBOX_PAYSTATION_URL: z.url({ protocol: /^https?$/ }).default('https://sandbox-secure.xsolla.com/paystation4/'),
    /** The merchant account: refunds through Xsolla's merchant API need it (optional). */
    XSOLLA_MERCHANT_ID: z
      .string()
      .regex(/^\d+$/, 'must be the numeric merchant id')
      .optional()
      .or(z.literal('').transform(() => undefined)),
    XSOLLA_MERCHANT_API_URL: z.url({ protocol: /^https?$/ }).default('https://api.xsolla.com'),
    /** Where the sandbox checkout sends its notifications: this server's webhook. */
    PAYMENT_WEBHOOK_URL: z
      .url({ protocol: /^https?$/ })
      .optional()
      .or(z.literal('').transform(() => undefined)),
    /** The Meta (Facebook) pixel: loaded for visitors from facebook or meta campaigns who consented; none by default. */
    META_PIXEL_ID: z
      .string()
      .regex(/^\d{5,20}$/, 'must be the numeric pixel id')
      .optional()
      .or(z.literal('').transform(() => undefined)),
    /** Server-side Conversions API: the events the browser sends, sent again from the server with the same event ids. */
    META_CONVERSIONS_API_TOKEN: OptionalText,
    META_CONVERSIONS_API_URL: z.url({ protocol: /^https?$/ }).default('https://graph.facebook.com/v21.0'),
    /** Tests only (APP_ENV=test): kill the process at a point of webhook handling, to show no paid order is lost. */
    FAULT_INJECTION: z
      .enum(['webhook-before-commit', 'webhook-after-commit'])
      .optional()
      .or(z.literal('').transform(() => undefined)),
    /** Ad breaks of games (decision 093): the portal's marked stand-in (default), Google's Ad Placement API, or none. */
    ADS_PROVIDER: z.enum(['stand-in', 'google', 'off']).default('stand-in'),
    /** The AdSense publisher id for the Ad Placement API (ADS_PROVIDER=google). */
    ADS_GOOGLE_CLIENT: z
      .string()
      .regex(/^ca-pub-\d{10,20}$/, 'must be the AdSense publisher id, ca-pub-…')
      .optional()
      .or(z.literal('').transform(() => undefined)),
    /** Google's test mode (data-adbreak-test="on"): mock ads only. */
    ADS_GOOGLE_TEST: booleanFromEnv.default(false),
    ADS_MIDGAME_INTERVAL_SECONDS: z.coerce.number().int().min(30).max(3600).default(180),
    ADS_REWARDED_INTERVAL_SECONDS: z.coerce.number().int().min(0).max(3600).default(60),
    ADS_STAND_IN_SECONDS: z.coerce.number().int().min(1).max(30).default(3),
    WHATSAPP_TEMPLATE_LANGUAGE: z
      .string()
      .regex(/^[a-z]{2,3}(_[A-Z]{2})?$/, 'must be a template language code such as en or zh_CN')
      .default('en'),
  })
  .superRefine((env, ctx) => {
    // A port out of range is reported by its own field; the origins below are built from ports.
    if (!isPort(env.PORT) || (env.GAMES_PORT !== undefined && !isPort(env.GAMES_PORT))) return;
    if (!isPort(gamesPortOf(env))) {
      ctx.addIssue({ code: 'custom', path: ['GAMES_PORT'], message: `is unset and PORT + 1 (${gamesPortOf(env)}) is no port: set GAMES_PORT` });
      return;
    }
    const games = gamesOriginOf(env);
    const gamesProblem = gamesOriginProblem(publicOriginOf(env), env.GAMES_ORIGIN ?? games.origin);
    if (gamesProblem) ctx.addIssue({ code: 'custom', path: ['GAMES_ORIGIN'], message: gamesProblem });
    if (env.APP_ENV === 'production' && env.GAMES_ORIGIN && !env.PREVIEWS_ORIGIN)
      ctx.addIssue({ code: 'custom', path: ['PREVIEWS_ORIGIN'], message: 'is required with GAMES_ORIGIN in production: previews need a domain of their own' });
    const previewsProblem = previewsOriginProblem(
      publicOriginOf(env),
      env.GAMES_ORIGIN ?? games.origin,
      env.PREVIEWS_ORIGIN ?? previewsOriginOf(env, games.port),
    );
    if (previewsProblem) ctx.addIssue({ code: 'custom', path: ['PREVIEWS_ORIGIN'], message: previewsProblem });
    if (env.GAMES_PORT !== undefined && env.GAMES_PORT !== 0 && env.GAMES_PORT === env.PORT)
      ctx.addIssue({ code: 'custom', path: ['GAMES_PORT'], message: 'must differ from PORT: the portal is never served on the games origin' });
    for (const platform of OAUTH_PLATFORMS) checkOAuthEnv(env, platform, ctx);
    const sender = whatsappSenderOf(env);
    if (sender === 'cloud' && (!env.WHATSAPP_PHONE_NUMBER_ID || !env.WHATSAPP_ACCESS_TOKEN)) {
      ctx.addIssue({ code: 'custom', path: ['WHATSAPP_SENDER'], message: 'cloud needs WHATSAPP_PHONE_NUMBER_ID and WHATSAPP_ACCESS_TOKEN' });
    }
    const payments = paymentsProviderOf(env);
    if (payments === 'xsolla' && (!env.XSOLLA_PROJECT_ID || !env.XSOLLA_API_KEY || !env.XSOLLA_WEBHOOK_SECRET)) {
      ctx.addIssue({ code: 'custom', path: ['PAYMENTS_PROVIDER'], message: 'xsolla needs XSOLLA_PROJECT_ID, XSOLLA_API_KEY and XSOLLA_WEBHOOK_SECRET' });
    }
    if (payments === 'sandbox' && env.APP_ENV === 'production') {
      ctx.addIssue({ code: 'custom', path: ['PAYMENTS_PROVIDER'], message: 'the sandbox grants items for test cards; it is refused in production' });
    }
    if (env.ADS_PROVIDER === 'google' && !env.ADS_GOOGLE_CLIENT) {
      ctx.addIssue({ code: 'custom', path: ['ADS_GOOGLE_CLIENT'], message: 'ADS_PROVIDER=google needs the AdSense publisher id (ca-pub-…)' });
    }
    if (env.FAULT_INJECTION && env.APP_ENV !== 'test') {
      ctx.addIssue({ code: 'custom', path: ['FAULT_INJECTION'], message: 'only for APP_ENV=test' });
    }
    if (sender === 'development' && env.APP_ENV === 'production') {
      ctx.addIssue({
        code: 'custom',
        path: ['WHATSAPP_SENDER'],
        message: 'the development sender shows codes to anyone who can read the log; it is refused in production',
      });
    }
    if (env.APP_ENV === 'production' && env.APP_SECRET === DEV_SECRET) {
      ctx.addIssue({
        code: 'custom',
        path: ['APP_SECRET'],
        message: 'the development secret must not be used in production; set APP_SECRET to a random value of 32+ characters',
      });
    } else if (env.APP_SECRET === DEV_SECRET && reachableByOthers(env)) {
      // The default is in the source: anyone could sign game tokens, CSRF tokens and sandbox webhooks with it.
      ctx.addIssue({
        code: 'custom',
        path: ['APP_SECRET'],
        message: `the published development secret is refused when the server is reachable by others (${exposure(env)}); set APP_SECRET to a random value of 32+ characters`,
      });
    }
    if (sender === 'development' && env.APP_ENV !== 'production' && reachableByOthers(env)) {
      ctx.addIssue({
        code: 'custom',
        path: ['WHATSAPP_SENDER'],
        message: `development shows every sign-in code at /dev/whatsapp-inbox; it is refused when the server is reachable by others (${exposure(env)}): use cloud or off`,
      });
    }
  });

export type Env = z.infer<typeof EnvSchema>;

export interface Config {
  env: Env['APP_ENV'];
  isProduction: boolean;
  /** Webhooks may go to http on loopback and to private addresses: APP_ENV is not production and the server is on loopback (decision 100). */
  webhooksAllowPrivateTargets: boolean;
  host: string;
  port: number;
  publicOrigin: string;
  /** Where game files are served (decision 089): the listening port and the origin each game's host is made from. */
  games: { port: number; origin: string };
  /** Where builds' previews are served (decision 108), by the games origin's listener, on a site of their own. */
  previewsOrigin: string;
  productName: string;
  databaseUrl: string;
  databasePoolSize: number;
  databaseConnectTimeoutSeconds: number;
  databaseSchema: string | undefined;
  redisUrl: string | undefined;
  redisPrefix: string;
  appSecret: string;
  /** APP_SECRET before its last rotation, if set: game-token keys, preview links and sealed game secrets (decision 110). */
  appSecretPrevious: string | null;
  logLevel: Env['LOG_LEVEL'];
  /** Fastify's trustProxy: false, a hop count, or the proxies' addresses and ranges. */
  trustProxy: false | number | string[];
  seedDemoContent: boolean;
  pageCacheSeconds: number;
  communityChatUrl: string;
  uploadDir: string;
  /** Where developers' game builds are stored, served only by the games origin (decision 097). */
  buildsDir: string;
  /** Limits of unfinished build uploads (decision 109). */
  buildUploads: { expiryHours: number; openPerStudio: number; mbPerStudioPerDay: number };
  buildDir: string;
  /** Cookies get Secure unless the site is plain http on a host other than localhost. */
  secureCookies: boolean;
  /** Passkeys: the relying party (id and name shown by authenticators) and the accepted origins. */
  webauthn: { rpId: string; rpName: string; origins: string[] };
  /** Social sign-in: the configured OAuth providers (the others are not offered) and the WhatsApp code sender. */
  social: { oauth: Partial<Record<OAuthPlatform, OAuthProviderConfig>>; whatsapp: WhatsAppConfig };
  /** Card payments for in-game items (decision 064). */
  payments: PaymentsConfig;
  /** Tests only: where to kill the process while a webhook is handled. */
  faultInjection: Env['FAULT_INJECTION'];
  /** Ad breaks of games (decision 093). */
  ads: AdsConfig;
  /** The advertising pixel (decision 065): off without a pixel id. */
  pixel: { id: string; conversionsApi: { url: string; token: string } | null } | null;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Parses the environment; throws ConfigError listing every bad variable. */
export function loadConfig(source: Record<string, string | undefined> = process.env): Config {
  const parsed = EnvSchema.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.') || '(env)'}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const env = parsed.data;
  const origin = new URL(publicOriginOf(env));
  return {
    env: env.APP_ENV,
    isProduction: env.APP_ENV === 'production',
    // Decision 100: webhooks may reach loopback and private addresses only on a development machine.
    webhooksAllowPrivateTargets: env.APP_ENV !== 'production' && !reachableByOthers(env),
    host: env.HOST,
    port: env.PORT,
    publicOrigin: origin.origin,
    games: gamesOriginOf(env),
    previewsOrigin: previewsOriginOf(env, gamesOriginOf(env).port),
    productName: env.PRODUCT_NAME,
    databaseUrl: env.DATABASE_URL,
    databasePoolSize: env.DATABASE_POOL_SIZE,
    databaseConnectTimeoutSeconds: env.DATABASE_CONNECT_TIMEOUT_SECONDS,
    databaseSchema: env.DATABASE_SCHEMA,
    redisUrl: env.REDIS_URL,
    redisPrefix: env.REDIS_PREFIX,
    appSecret: env.APP_SECRET,
    appSecretPrevious: env.APP_SECRET_PREVIOUS ?? null,
    logLevel: env.LOG_LEVEL,
    trustProxy: env.TRUST_PROXY,
    seedDemoContent: env.SEED_DEMO_CONTENT,
    pageCacheSeconds: env.PAGE_CACHE_SECONDS,
    communityChatUrl: env.COMMUNITY_CHAT_URL,
    uploadDir: env.UPLOAD_DIR,
    buildsDir: env.BUILDS_DIR,
    buildUploads: {
      expiryHours: env.BUILD_UPLOAD_EXPIRY_HOURS,
      openPerStudio: env.STUDIO_OPEN_UPLOADS,
      mbPerStudioPerDay: env.STUDIO_UPLOAD_MB_PER_DAY,
    },
    buildDir: env.BUILD_DIR,
    secureCookies: origin.protocol === 'https:' || origin.hostname === 'localhost',
    webauthn: {
      rpId: env.WEBAUTHN_RP_ID ?? origin.hostname,
      rpName: env.PRODUCT_NAME,
      origins: env.WEBAUTHN_ORIGINS.length > 0 ? env.WEBAUTHN_ORIGINS.map((o) => new URL(o).origin) : [origin.origin],
    },
    social: { oauth: oauthConfigOf(env), whatsapp: whatsappConfigOf(env) },
    payments: paymentsConfigOf(env, origin.origin),
    faultInjection: env.FAULT_INJECTION,
    ads: {
      provider: env.ADS_PROVIDER,
      google: env.ADS_PROVIDER === 'google' && env.ADS_GOOGLE_CLIENT ? { client: env.ADS_GOOGLE_CLIENT, test: env.ADS_GOOGLE_TEST } : null,
      midgameIntervalSeconds: env.ADS_MIDGAME_INTERVAL_SECONDS,
      rewardedIntervalSeconds: env.ADS_REWARDED_INTERVAL_SECONDS,
      standInSeconds: env.ADS_STAND_IN_SECONDS,
    },
    pixel: env.META_PIXEL_ID
      ? {
          id: env.META_PIXEL_ID,
          conversionsApi: env.META_CONVERSIONS_API_TOKEN
            ? { url: env.META_CONVERSIONS_API_URL.replace(/\/+$/, ''), token: env.META_CONVERSIONS_API_TOKEN }
            : null,
        }
      : null,
  };
}

function paymentsConfigOf(env: Env, origin: string): PaymentsConfig {
  const provider = paymentsProviderOf(env);
  if (provider === 'off') return { provider };
  if (provider === 'sandbox') {
    // The sandbox signs its notifications as Xsolla would, with a key only this deployment knows.
    const webhookSecret = createHmac('sha256', env.APP_SECRET).update('sandbox-payments-webhook').digest('hex');
    return { provider, webhookSecret, webhookUrl: env.PAYMENT_WEBHOOK_URL ?? `${origin}/serve/api/payment/xsolla/webhook/` };
  }
  return {
    provider,
    projectId: env.XSOLLA_PROJECT_ID!,
    apiKey: env.XSOLLA_API_KEY!,
    webhookSecret: env.XSOLLA_WEBHOOK_SECRET!,
    sandbox: env.XSOLLA_SANDBOX,
    apiUrl: env.XSOLLA_API_URL.replace(/\/+$/, ''),
    payStationUrl: env.XSOLLA_SANDBOX ? env.XSOLLA_SANDBOX_PAYSTATION_URL : env.XSOLLA_PAYSTATION_URL,
    merchant: env.XSOLLA_MERCHANT_ID ? { id: env.XSOLLA_MERCHANT_ID, apiUrl: env.XSOLLA_MERCHANT_API_URL.replace(/\/+$/, '') } : null,
  };
}

function whatsappConfigOf(env: Env): WhatsAppConfig {
  const sender = whatsappSenderOf(env);
  if (sender !== 'cloud') return { sender };
  return {
    sender,
    apiUrl: env.WHATSAPP_API_URL.replace(/\/+$/, ''),
    phoneNumberId: env.WHATSAPP_PHONE_NUMBER_ID!,
    accessToken: env.WHATSAPP_ACCESS_TOKEN!,
    template: env.WHATSAPP_TEMPLATE,
    templateLanguage: env.WHATSAPP_TEMPLATE_LANGUAGE,
  };
}

/** The configuration for a command or the server: a bad value prints its message and exits with status 1. */
export function loadConfigOrExit(): Config {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
}
