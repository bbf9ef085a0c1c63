// The configuration: the environment parsed once with zod. This module is the only reader of
// process.env; each area's variables, checks and settings are in server/config/.
import type { AdsConfig } from '#common/ads.ts';
import type { OAuthPlatform } from '#common/social-platforms.ts';
import { z } from 'zod';
import { booleanFromEnv } from './config/env-values.ts';
import {
  checkIdentityEnv,
  identityEnvShape,
  oauthConfigOf,
  webauthnConfigOf,
  whatsappConfigOf,
  type OAuthProviderConfig,
  type WhatsAppConfig,
} from './config/identity.ts';
import { adsConfigOf, checkMarketingEnv, marketingEnvShape, pixelConfigOf, type PixelConfig } from './config/marketing.ts';
import {
  checkNetworkEnv,
  checkPorts,
  gamesOriginOf,
  networkEnvShape,
  previewsOriginOf,
  publicOriginOf,
  reachableByOthers,
  exposure,
} from './config/network.ts';
import { mailConfigOf, mailEnvShape, type MailConfig } from './config/mail.ts';
import { earningsConfigOf, earningsEnvShape, type EarningsConfig } from './config/earnings.ts';
import { checkPaymentsEnv, paymentsConfigOf, paymentsEnvShape, type PaymentsConfig } from './config/payments.ts';
import { checkPayoutsEnv, payoutsConfigOf, payoutsEnvShape, type PayoutsConfig } from './config/payouts.ts';
import {
  checkObjectStorageEnv,
  databaseEnvShape,
  filesEnvShape,
  type ObjectStorageConfig,
  objectStorageConfigOf,
  objectStorageEnvShape,
} from './config/storage.ts';

export { gamesOriginProblem, isLoopbackHost, previewsOriginProblem, trustProxyOption } from './config/network.ts';
export type { OAuthProviderConfig, PaymentsConfig, WhatsAppConfig };

const DEV_SECRET = 'development-secret-change-me-0123456789abcdef';

/** The environment, read once. */
const EnvSchema = z
  .object({
    /** The deployment stance (secrets, HSTS); NODE_ENV only tells libraries which build of themselves to use. */
    APP_ENV: z.enum(['development', 'production', 'test']).default('development'),
    ...networkEnvShape,
    PRODUCT_NAME: z.string().trim().min(1).max(40).default('Playport'),
    ...databaseEnvShape,
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
    /** The bearer token Prometheus scrapes GET /metrics with; without it there is no /metrics. */
    METRICS_TOKEN: z
      .string()
      .min(16, 'must be at least 16 characters')
      .optional()
      .or(z.literal('').transform(() => undefined)),
    SEED_DEMO_CONTENT: booleanFromEnv.default(true),
    PAGE_CACHE_SECONDS: z.coerce.number().int().min(0).max(3600).default(5),
    /** A session (access token) ends this long after its sign-in, however active (ASVS 7.3.2). */
    SESSION_MAX_AGE_DAYS: z.coerce.number().int().min(1).max(3650).default(365),
    COMMUNITY_CHAT_URL: z.url().default('https://discord.com/invite/playport'),
    ...filesEnvShape,
    ...objectStorageEnvShape,
    ...identityEnvShape,
    ...paymentsEnvShape,
    ...earningsEnvShape,
    ...payoutsEnvShape,
    ...marketingEnvShape,
    ...mailEnvShape,
    /** Tests only (APP_ENV=test): kill the process at a point of webhook handling, to show no paid order is lost. */
    FAULT_INJECTION: z
      .enum(['webhook-before-commit', 'webhook-after-commit'])
      .optional()
      .or(z.literal('').transform(() => undefined)),
    /** Tests only (APP_ENV=test): a file holding the time this server's clock reads, so a journey can see a month end (server/lib/clock.ts). */
    TEST_CLOCK_FILE: z
      .string()
      .optional()
      .or(z.literal('').transform(() => undefined)),
  })
  .superRefine((env, ctx) => {
    if (!checkPorts(env, ctx)) return;
    checkNetworkEnv(env, ctx);
    checkIdentityEnv(env, ctx);
    checkPaymentsEnv(env, ctx);
    checkPayoutsEnv(env, ctx);
    checkMarketingEnv(env, ctx);
    checkObjectStorageEnv(env, ctx);
    if (env.FAULT_INJECTION && env.APP_ENV !== 'test') {
      ctx.addIssue({ code: 'custom', path: ['FAULT_INJECTION'], message: 'only for APP_ENV=test' });
    }
    if (env.TEST_CLOCK_FILE && env.APP_ENV !== 'test') {
      ctx.addIssue({ code: 'custom', path: ['TEST_CLOCK_FILE'], message: 'only for APP_ENV=test' });
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
  });

export type Env = z.infer<typeof EnvSchema>;

/** Every variable the configuration reads (the README's configuration table names each). */
export const ENV_VARIABLES: readonly string[] = Object.keys(EnvSchema.shape);

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
  /** The bearer token of GET /metrics; null: no metrics are kept or served. */
  metricsToken: string | null;
  /** Fastify's trustProxy: false, a hop count, or the proxies' addresses and ranges. */
  trustProxy: false | number | string[];
  seedDemoContent: boolean;
  pageCacheSeconds: number;
  sessionMaxAgeDays: number;
  communityChatUrl: string;
  uploadDir: string;
  /** Where developers' game builds are stored, served only by the games origin (decision 097). */
  buildsDir: string;
  /** Where members' data archives are kept, never served directly (decision 144). */
  exportsDir: string;
  /** Decision 150: the S3-compatible bucket the uploads, builds and exports go to instead of the folders; null for the folders. */
  objectStorage: ObjectStorageConfig | null;
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
  earnings: EarningsConfig;
  /** Studios' payouts: the provider that sends them and the smallest one proposed (decision 149). */
  payouts: PayoutsConfig;
  /** Tests only: where to kill the process while a webhook is handled. */
  faultInjection: Env['FAULT_INJECTION'];
  testClockFile: string | undefined;
  /** Ad breaks of games (decision 093). */
  ads: AdsConfig;
  /** The advertising pixel (decision 065): off without a pixel id. */
  pixel: PixelConfig;
  /** Outgoing mail (decision 141): no SMTP URL means mail is off. */
  mail: MailConfig;
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
    metricsToken: env.METRICS_TOKEN ?? null,
    trustProxy: env.TRUST_PROXY,
    seedDemoContent: env.SEED_DEMO_CONTENT,
    pageCacheSeconds: env.PAGE_CACHE_SECONDS,
    sessionMaxAgeDays: env.SESSION_MAX_AGE_DAYS,
    communityChatUrl: env.COMMUNITY_CHAT_URL,
    uploadDir: env.UPLOAD_DIR,
    buildsDir: env.BUILDS_DIR,
    exportsDir: env.EXPORTS_DIR,
    objectStorage: objectStorageConfigOf(env),
    buildUploads: {
      expiryHours: env.BUILD_UPLOAD_EXPIRY_HOURS,
      openPerStudio: env.STUDIO_OPEN_UPLOADS,
      mbPerStudioPerDay: env.STUDIO_UPLOAD_MB_PER_DAY,
    },
    buildDir: env.BUILD_DIR,
    secureCookies: origin.protocol === 'https:' || origin.hostname === 'localhost',
    webauthn: webauthnConfigOf(env, origin, env.PRODUCT_NAME),
    social: { oauth: oauthConfigOf(env), whatsapp: whatsappConfigOf(env) },
    payments: paymentsConfigOf(env, origin.origin),
    earnings: earningsConfigOf(env),
    payouts: payoutsConfigOf(env),
    faultInjection: env.FAULT_INJECTION,
    testClockFile: env.TEST_CLOCK_FILE,
    ads: adsConfigOf(env),
    pixel: pixelConfigOf(env),
    mail: mailConfigOf(env),
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
