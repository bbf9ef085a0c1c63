import { isIP } from 'node:net';
import { z } from 'zod';

const DEV_SECRET = 'development-secret-change-me-0123456789abcdef';

const booleanFromEnv = z
  .enum(['true', 'false', '1', '0', ''])
  .transform((v) => v === 'true' || v === '1');

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
    const list = value.split(',').map((part) => part.trim()).filter(Boolean);
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

/** The environment, read once. This module is the only reader of process.env. */
const EnvSchema = z
  .object({
    /** The deployment stance (secrets, HSTS); NODE_ENV only tells libraries which build of themselves to use. */
    APP_ENV: z.enum(['development', 'production', 'test']).default('development'),
    HOST: z.string().min(1).default('localhost'),
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    PUBLIC_ORIGIN: z.url({ protocol: /^https?$/ }).default('http://localhost:3000'),
    PRODUCT_NAME: z.string().trim().min(1).max(40).default('Playport'),
    DATABASE_URL: z
      .string()
      .default('file:data/playport.sqlite')
      .refine((v) => v.startsWith('file:') || /^postgres(ql)?:\/\//.test(v), {
        message: 'must be file:<path> for SQLite or postgres://… for PostgreSQL',
      }),
    /** PostgreSQL only: a schema to run in (created when missing); isolates test runs. */
    DATABASE_SCHEMA: z.string().regex(/^[a-z_][a-z0-9_]*$/, 'must be a lower-case SQL identifier').optional(),
    DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(100).default(10),
    /** How long start-up waits for an unreachable database before it gives up. */
    DATABASE_CONNECT_TIMEOUT_SECONDS: z.coerce.number().int().min(0).max(3600).default(60),
    REDIS_URL: z
      .string()
      .regex(/^rediss?:\/\//, 'must be redis://… or rediss://…')
      .optional()
      .or(z.literal('').transform(() => undefined)),
    /** Keeps this deployment's Redis keys apart from another's on the same Redis server. */
    REDIS_PREFIX: z.string().regex(/^[\w:.-]{0,40}$/, 'must be up to 40 letters, digits, _ : . or -').default(''),
    APP_SECRET: z.string().min(32, 'must be at least 32 characters').default(DEV_SECRET),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    TRUST_PROXY: TrustProxySchema,
    SEED_DEMO_CONTENT: booleanFromEnv.default(true),
    PAGE_CACHE_SECONDS: z.coerce.number().int().min(0).max(3600).default(5),
    COMMUNITY_CHAT_URL: z.url().default('https://discord.com/invite/playport'),
    BUILD_DIR: z.string().min(1).default('build'),
    UPLOAD_DIR: z.string().min(1).default('data/uploads'),
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
      .transform((value) => (value ? value.split(',').map((o) => o.trim()).filter(Boolean) : []))
      .pipe(z.array(z.url({ protocol: /^https?$/ }))),
  })
  .superRefine((env, ctx) => {
    if (env.APP_ENV === 'production' && env.APP_SECRET === DEV_SECRET) {
      ctx.addIssue({
        code: 'custom',
        path: ['APP_SECRET'],
        message: 'the development secret must not be used in production; set APP_SECRET to a random value of 32+ characters',
      });
    }
  });

export type Env = z.infer<typeof EnvSchema>;

export interface Config {
  env: Env['APP_ENV'];
  isProduction: boolean;
  host: string;
  port: number;
  publicOrigin: string;
  productName: string;
  databaseUrl: string;
  databasePoolSize: number;
  databaseConnectTimeoutSeconds: number;
  databaseSchema: string | undefined;
  redisUrl: string | undefined;
  redisPrefix: string;
  appSecret: string;
  logLevel: Env['LOG_LEVEL'];
  /** Fastify's trustProxy: false, a hop count, or the proxies' addresses and ranges. */
  trustProxy: false | number | string[];
  seedDemoContent: boolean;
  pageCacheSeconds: number;
  communityChatUrl: string;
  uploadDir: string;
  buildDir: string;
  /** Cookies get Secure unless the site is plain http on a host other than localhost. */
  secureCookies: boolean;
  /** Passkeys: the relying party (id and name shown by authenticators) and the accepted origins. */
  webauthn: { rpId: string; rpName: string; origins: string[] };
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
  const origin = new URL(env.PUBLIC_ORIGIN);
  return {
    env: env.APP_ENV,
    isProduction: env.APP_ENV === 'production',
    host: env.HOST,
    port: env.PORT,
    publicOrigin: origin.origin,
    productName: env.PRODUCT_NAME,
    databaseUrl: env.DATABASE_URL,
    databasePoolSize: env.DATABASE_POOL_SIZE,
    databaseConnectTimeoutSeconds: env.DATABASE_CONNECT_TIMEOUT_SECONDS,
    databaseSchema: env.DATABASE_SCHEMA,
    redisUrl: env.REDIS_URL,
    redisPrefix: env.REDIS_PREFIX,
    appSecret: env.APP_SECRET,
    logLevel: env.LOG_LEVEL,
    trustProxy: env.TRUST_PROXY,
    seedDemoContent: env.SEED_DEMO_CONTENT,
    pageCacheSeconds: env.PAGE_CACHE_SECONDS,
    communityChatUrl: env.COMMUNITY_CHAT_URL,
    uploadDir: env.UPLOAD_DIR,
    buildDir: env.BUILD_DIR,
    secureCookies: origin.protocol === 'https:' || origin.hostname === 'localhost',
    webauthn: {
      rpId: env.WEBAUTHN_RP_ID ?? origin.hostname,
      rpName: env.PRODUCT_NAME,
      origins: env.WEBAUTHN_ORIGINS.length > 0 ? env.WEBAUTHN_ORIGINS.map((o) => new URL(o).origin) : [origin.origin],
    },
  };
}
