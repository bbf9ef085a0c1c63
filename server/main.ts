import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ServerBuild } from 'react-router';
import { buildPortal } from './app.ts';
import { buildGamesOrigin } from './features/games/games-origin.ts';
import { loadConfigOrExit } from './config.ts';
import { connectDatabase } from './db/connect.ts';
import { migrateToLatest, whileHoldingStartupLock } from './db/migrate.ts';
import { seedIfEmpty } from './seed.ts';
import { scheduleCleanups } from './lib/scheduled-cleanup.ts';
import { createServices } from './services.ts';
import { fileClock, systemClock } from './lib/clock.ts';

const [major] = process.versions.node.split('.').map(Number);
if ((major ?? 0) < 24) {
  console.error(`Node.js 24 or newer is required (this is ${process.version}). Run the project through npm scripts, which use the pinned Node 24.`);
  process.exit(1);
}

const config = loadConfigOrExit();

const database = await connectDatabase(config.databaseUrl, {
  poolSize: config.databasePoolSize,
  schema: config.databaseSchema,
  timeoutSeconds: config.databaseConnectTimeoutSeconds,
  print: (line) => console.error(line),
});
if (!database) process.exit(1);
await migrateToLatest(database.db, database.kind);
// With STORAGE_URL the files are in the bucket (decision 150); otherwise in these folders.
if (!config.objectStorage) {
  mkdirSync(resolve(config.uploadDir), { recursive: true });
  mkdirSync(resolve(config.buildsDir), { recursive: true });
}
const services = createServices(database, config, config.testClockFile ? fileClock(config.testClockFile) : systemClock);
// Before answering anything: games' secrets derived from APP_SECRET until migration 0028 are stored,
// those sealed under APP_SECRET_PREVIOUS sealed again under APP_SECRET (decision 110).
const secrets = await services.gameSecrets.prepare();
if (secrets.keyInUse === 'other') {
  console.error(
    'APP_SECRET opens none of the game secrets stored in this database: after changing it, set APP_SECRET_PREVIOUS to the one before (decision 110).',
  );
} else if (secrets.adopted + secrets.resealed > 0) {
  console.info(`game secrets: ${secrets.adopted} stored from APP_SECRET, ${secrets.resealed} sealed again under the current APP_SECRET`);
}

const buildPath = resolve(config.buildDir, 'server/index.js');
const build = (await import(pathToFileURL(buildPath).href)) as ServerBuild;
// Game files on an origin of their own (decision 089), from this same process; built first, so
// the portal's metrics count its answers too.
const gamesOrigin = await buildGamesOrigin({
  config,
  catalogue: services.catalogue,
  builds: { files: services.buildFiles, previewHost: (host) => services.builds.previewHost(host) },
});
const app = await buildPortal({
  config,
  gamesOrigin,
  services,
  getBuild: async () => build,
  buildId: build.assets.version,
  mode: 'production',
  clientDir: resolve(config.buildDir, 'client'),
});
if (config.seedDemoContent) {
  // Instances starting together on an empty PostgreSQL database fill it once: the others wait for
  // the lock and then find it filled. The lock holds one connection; the import needs another.
  const seed = () => seedIfEmpty(services, app.log);
  await (config.databasePoolSize > 1 ? whileHoldingStartupLock(database.db, database.kind, seed) : seed());
}
await services.contentChanges.listen();
/** How often the webhook worker looks for due deliveries. */
const WEBHOOK_POLL_MS = 2000;
// Games' webhooks (decision 100): every instance sends what is due; a lease keeps each delivery to one.
services.webhooks.start(WEBHOOK_POLL_MS, (error) => app.log.error({ err: error }, 'webhook deliveries failed'));
// Data archives (decision 144): a request starts its own preparation; this catches what a crash or a failure left.
const DATA_EXPORT_POLL_MS = 60_000;
services.memberData.start(DATA_EXPORT_POLL_MS, (error) => app.log.error({ err: error }, 'data archives failed'));
/** How often the mail sender looks for due messages. */
const MAIL_POLL_MS = 5000;
// Mail (decision 141): every instance sends what is due; a claim keeps each message to one.
services.mail.start(MAIL_POLL_MS, (error) => app.log.error({ err: error }, 'mail sending failed'));
/** How often the payouts worker proposes, sends and reads back studios' payouts (with a journey's test clock, often). */
const PAYOUTS_POLL_MS = config.testClockFile ? 2000 : 60_000;
// Payouts (decision 149): every instance works; the unique month and the claims keep each payout to one.
services.payouts.start(PAYOUTS_POLL_MS, (error) => app.log.error({ err: error }, 'payouts work failed'));
/** How often ended months are looked for to close studios' statements (with a journey's test clock, often: its time jumps). */
const STATEMENTS_CLOSE_MS = config.testClockFile ? 2000 : 60 * 60 * 1000;
// Statements (decision 149): every instance tries; a month is written once, whichever gets there first.
services.earnings.start(STATEMENTS_CLOSE_MS, (error) => app.log.error({ err: error }, 'closing statements failed'));
const stopCleanups = scheduleCleanups(
  [
    { name: 'unused guest accounts', run: () => services.accounts.removeUnusedGuests() },
    { name: 'accounts erased 30 days after their deletion was asked for', run: () => services.accountDeletion.eraseDue() },
    { name: 'expired passkey challenges', run: () => services.passkeys.removeExpiredChallenges() },
    { name: 'expired social sign-in flows and codes', run: () => services.social.removeExpired() },
    { name: 'abandoned build uploads', run: () => services.buildUploads.removeExpired() },
    { name: 'expired data archives', run: () => services.memberData.removeExpired() },
    { name: 'sent and failed mail past its retention', run: () => services.mail.removeOld() },
    { name: 'email codes and reset links past their time', run: () => services.accounts.recovery.removeExpired() },
  ],
  app.log,
);

/** How long SIGTERM waits for requests in flight (a container platform's grace period is 30 s). */
const DRAIN_SECONDS = 25;
let closing = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, async () => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    stopCleanups();
    // Past the drain time a stuck request must not keep the instance from stopping.
    setTimeout(() => {
      app.log.warn({ seconds: DRAIN_SECONDS }, 'requests still in flight at the end of the drain; exiting');
      process.exit(1);
    }, DRAIN_SECONDS * 1000).unref();
    // close() stops listening and answers new requests on open connections with 503, lets the
    // requests in flight finish, then the database closes after the last one (decision 077).
    await Promise.all([app.close(), gamesOrigin.close()]);
    await services.webhooks.stop();
    await services.memberData.stop();
    await services.mail.stop();
    await services.payouts.stop();
    await services.earnings.stop();
    await services.contentChanges.close();
    // Conversions already told to the browser's pixel are sent before the process ends.
    await services.conversionsApi?.settled();
    await services.rateLimiter.close().catch(() => undefined);
    await database.close();
    process.exit(0);
  });
}

await app.listen({ host: config.host, port: config.port });
await gamesOrigin.listen({ host: config.host, port: config.games.port });
app.log.info({ database: database.description, origin: config.publicOrigin, games: config.games.origin }, `${config.productName} is serving`);
