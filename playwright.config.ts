import { generateKeyPairSync } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig, devices } from '@playwright/test';

// One database per run: a temporary SQLite file, or a fresh PostgreSQL schema when DATABASE_URL is postgres.
process.env.E2E_RUN_ID ??= `${Date.now()}`;
const runId = process.env.E2E_RUN_ID;
const onPostgres = process.env.DATABASE_URL?.startsWith('postgres') ?? false;
const port = Number(process.env.E2E_PORT ?? 3100);
export const E2E_SCHEMA = `e2e_${runId}`;

// Social sign-in runs against local stand-ins for the identity providers (decision 063), one per
// provider on five ports from STAND_IN_BASE_PORT; Apple's client secret is signed with a key made
// for the run, whose public half the Apple stand-in checks.
const standInBase = port + 1700;
export const STAND_IN_ISSUERS = Object.fromEntries(
  ['google', 'apple', 'discord', 'facebook', 'x'].map((platform, index) => [platform, `http://127.0.0.1:${standInBase + index}`]),
);
// The server's advertising events go to a local stand-in for Meta's Conversions API (decision 065).
export const CONVERSIONS_API_STAND_IN = `http://127.0.0.1:${port + 1710}`;
// Mail goes over SMTP to the local stand-in (decision 141); journeys read what it received as JSON.
const mailSmtpPort = port + 1720;
export const MAIL_INBOX = `http://127.0.0.1:${port + 1721}`;
process.env.E2E_APPLE_KEY ??= generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
const socialEnv: Record<string, string> = {
  OAUTH_APPLE_CLIENT_ID: 'playport-test-client',
  OAUTH_APPLE_TEAM_ID: 'TEAM123456',
  OAUTH_APPLE_KEY_ID: 'KEY1234567',
  OAUTH_APPLE_PRIVATE_KEY: process.env.E2E_APPLE_KEY,
  WHATSAPP_SENDER: 'development',
  // A pixel id, so the pixel's rules are tested; its script and beacons are answered inside the browser (tests/e2e/tracking).
  META_PIXEL_ID: '1234567890',
  META_CONVERSIONS_API_TOKEN: 'capi-e2e-token',
  META_CONVERSIONS_API_URL: `${CONVERSIONS_API_STAND_IN}/v21.0`,
  SMTP_URL: `smtp://127.0.0.1:${mailSmtpPort}`,
};
for (const [platform, issuer] of Object.entries(STAND_IN_ISSUERS)) {
  const prefix = `OAUTH_${platform.toUpperCase()}`;
  socialEnv[`${prefix}_ISSUER_URL`] = issuer;
  if (platform !== 'apple') Object.assign(socialEnv, { [`${prefix}_CLIENT_ID`]: 'playport-test-client', [`${prefix}_CLIENT_SECRET`]: 'playport-test-secret' });
}

// E2E_STORAGE=s3 (decision 150): the server keeps its files in a bucket of the local S3 stand-in
// (server/testing/s3-stand-in.ts, whose credentials these are) instead of the folders.
const onObjectStorage = process.env.E2E_STORAGE === 's3';
const s3StandInPort = port + 1740;
const objectStorageEnv: Record<string, string> = onObjectStorage
  ? {
      STORAGE_URL: 's3://playport-e2e/playport',
      S3_ENDPOINT: `http://127.0.0.1:${s3StandInPort}`,
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: 'playport-stand-in',
      S3_SECRET_ACCESS_KEY: 'playport-stand-in-secret',
      S3_FORCE_PATH_STYLE: 'true',
    }
  : {};

/** Where the server keeps its files: the folders, and the bucket instead with E2E_STORAGE=s3 (journeys that put files where the server reads them use it). */
export const SERVER_STORAGE_ENV: Record<string, string> = {
  UPLOAD_DIR: join(tmpdir(), `playport-e2e-uploads-${runId}`),
  BUILDS_DIR: join(tmpdir(), `playport-e2e-builds-${runId}`),
  EXPORTS_DIR: join(tmpdir(), `playport-e2e-exports-${runId}`),
  ...objectStorageEnv,
};

const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

// On PostgreSQL only the journeys where the database makes a difference run in the browser (tagged
// @db); the page checks over HTTP cost seconds and run on both (decision 056).
const browserGrep = onPostgres ? /@db/ : undefined;

export default defineConfig({
  // One output folder per port, so runs side by side do not remove each other's artifacts.
  outputDir: `test-results/${port}`,
  testMatch: '**/*.spec.ts',
  fullyParallel: true,
  // Two cores: two workers, each with its browser, next to the server.
  workers: 2,
  // One retry in CI keeps a run green through a one-off stall of the busy runner; scripts/test.ts
  // names every test that needed it, and each is treated as a defect. A committed `.only` fails CI.
  retries: process.env.CI ? 1 : 0,
  forbidOnly: Boolean(process.env.CI),
  timeout: 30_000,
  expect: { timeout: 7_000 },
  reporter: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ? [['list'], ['json']] : [['list']],
  globalTeardown: './tests/e2e/global-teardown.ts',
  use: {
    baseURL: `http://localhost:${port}`,
    trace: 'retain-on-failure',
    // The service worker is tested where it is the subject (tests/e2e/install); elsewhere it would
    // answer requests before the tests' own routes see them.
    serviceWorkers: 'block',
    launchOptions: { executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: chromiumArgs },
  },
  projects: [
    // Rendered HTML and HTTP behaviour, no browser: route rules, statuses, headers, feeds.
    { name: 'pages', testDir: 'tests/pages' },
    // User journeys in Chromium, on a desktop and (those tagged @mobile) on a phone.
    { name: 'desktop', testDir: 'tests/e2e', grep: browserGrep, use: { ...devices['Desktop Chrome'], viewport: { width: 1280, height: 800 } } },
    ...(onPostgres ? [] : [{ name: 'mobile', testDir: 'tests/e2e', use: { ...devices['Pixel 7'] }, grep: /@mobile/ }]),
  ],
  webServer: [
    {
      command: 'node scripts/identity-providers.ts',
      url: `${STAND_IN_ISSUERS.x}/.well-known/openid-configuration`,
      reuseExistingServer: false,
      timeout: 30_000,
      stdout: 'ignore',
      stderr: 'pipe',
      env: { STAND_IN_BASE_PORT: String(standInBase), OAUTH_APPLE_PRIVATE_KEY: process.env.E2E_APPLE_KEY },
    },
    {
      command: 'node scripts/conversions-api-stand-in.ts',
      url: `${CONVERSIONS_API_STAND_IN}/received`,
      reuseExistingServer: false,
      timeout: 30_000,
      stdout: 'ignore',
      stderr: 'pipe',
      env: { CONVERSIONS_API_PORT: String(port + 1710) },
    },
    {
      command: 'node scripts/mail-stand-in.ts',
      url: `${MAIL_INBOX}/messages`,
      reuseExistingServer: false,
      timeout: 30_000,
      stdout: 'ignore',
      stderr: 'pipe',
      env: { MAIL_STAND_IN_SMTP_PORT: String(mailSmtpPort), MAIL_STAND_IN_INBOX_PORT: String(port + 1721) },
    },
    ...(onObjectStorage
      ? [
          {
            command: 'node scripts/s3-stand-in.ts',
            // The stand-in answers a request without credentials 403, which counts as up.
            url: `http://127.0.0.1:${s3StandInPort}/playport-e2e`,
            reuseExistingServer: false,
            timeout: 30_000,
            stdout: 'ignore' as const,
            stderr: 'pipe' as const,
            env: { S3_STAND_IN_PORT: String(s3StandInPort), S3_STAND_IN_DIR: join(tmpdir(), `playport-e2e-s3-${runId}`), S3_STAND_IN_BUCKET: 'playport-e2e' },
          },
        ]
      : []),
    {
      command: 'npm run start --silent',
      url: `http://localhost:${port}/readyz`,
      reuseExistingServer: false,
      timeout: 180_000,
      // The server's warnings and errors (LOG_LEVEL=warn) appear in the run's output, so a journey
      // that fails on a refusal the page never shows (a payment notification, say) says why.
      stdout: 'pipe',
      stderr: 'pipe',
      env: {
        PORT: String(port),
        HOST: 'localhost',
        PUBLIC_ORIGIN: `http://localhost:${port}`,
        LOG_LEVEL: 'warn',
        APP_ENV: 'test',
        // Each test sends its own X-Forwarded-For (tests/e2e/fixtures.ts), so rate limits count per
        // test; the test runner on loopback plays the one trusted proxy in front of the server.
        TRUST_PROXY: 'loopback',
        DATABASE_URL: onPostgres ? process.env.DATABASE_URL! : `file:${join(tmpdir(), `playport-e2e-${runId}.sqlite`)}`,
        ...(onPostgres ? { DATABASE_SCHEMA: E2E_SCHEMA } : {}),
        ...socialEnv,
        ...SERVER_STORAGE_ENV,
      },
    },
  ],
});
