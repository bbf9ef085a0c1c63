// A compressed day of traffic (night, morning, peak, evening) against two instances of the built
// server behind a loopback round-robin proxy, on a private PostgreSQL and a private Redis, while
// faults are injected: PostgreSQL restarted, Redis restarted, an instance killed with SIGKILL and
// started again, the storage (a bucket of the local S3 stand-in; `--storage folder` for a shared
// folder) stopped for a minute. The clients keep a record of every write the portal acknowledged and, at the end, the run looks for each one (in the database, through
// the proxy, at the studio's webhook endpoint) and checks that the instances' memory levelled off.
// Prints a table per phase and writes data/soak-latest.json; exits 1 when a check fails.
//   npm run soak                       the whole day (1,000,000 plays; see docs/performance.md)
//   npm run soak -- --scale 0.1        a tenth of every count
//   npm run soak -- --short            --scale 0.01, for CI (a few minutes)
// Ports 3900–3999 (SOAK_PORT moves them): proxy +0 (portal) and +1 (games), instances +10 and
// +20 (their games ports +11 and +21), PostgreSQL +50, Redis +60, the webhook endpoint +70, the
// S3 stand-in +80.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { createPostgres, createRedis, killServers, type Server, sleep, startBuiltServer, waitFor } from './lib/processes.ts';
import { SoakClient } from './lib/soak/client.ts';
import { median, type PhaseReport, Stats } from './lib/soak/stats.ts';
import { startFolderStorage, startObjectStorage } from './lib/soak/storage.ts';
import { paced, type Player, Traffic } from './lib/soak/traffic.ts';
import { startWebhookReceiver } from './lib/soak/webhook-receiver.ts';

const ROOT = resolve(import.meta.dirname, '..');
const { values: flags } = parseArgs({
  options: { scale: { type: 'string' }, short: { type: 'boolean' }, 'phase-seconds': { type: 'string' }, storage: { type: 'string', default: 'bucket' } },
});
if (flags.storage !== 'bucket' && flags.storage !== 'folder') throw new Error('--storage takes bucket (the S3 stand-in, the default) or folder');
const scale = flags.short ? 0.01 : Number(flags.scale ?? 1);
if (!(scale > 0 && scale <= 1)) throw new Error('--scale takes a number above 0 and at most 1');
/** Each phase's planned length: 5 minutes at a quarter of the day's counts and more, 35 s for CI's hundredth. */
const phaseSeconds = Number(flags['phase-seconds'] ?? Math.max(35, Math.round(300 * Math.min(1, scale * 4))));

/** A day's traffic at scale 1. */
const DAY = { pageViews: 100_000, plays: 1_000_000, saves: 100_000, purchases: 10_000, builds: 100, scoresPerMinuteAtPeak: 1000 };
/** Each phase's share of the day's counts, and its leaderboard rate as a share of the peak's. */
const PHASES = [
  { name: 'night', share: 0.1, scores: 0.25 },
  { name: 'morning', share: 0.25, scores: 0.6 },
  { name: 'peak', share: 0.4, scores: 1 },
  { name: 'evening', share: 0.25, scores: 0.6 },
] as const;
/** How long a client keeps trying a write that was not acknowledged. */
const GIVE_UP_MS = 3 * 60_000;
/** A play reports at most 15 times a minute per player here (the portal allows 20): the pool of guests grows to match. */
const PLAYS_PER_PLAYER_MINUTE = 15;

const BASE = Number(process.env.SOAK_PORT ?? 3900);
const PORTS = { proxy: BASE, proxyGames: BASE + 1, a: BASE + 10, b: BASE + 20, postgres: BASE + 50, redis: BASE + 60, webhooks: BASE + 70, storage: BASE + 80 };

const runStarted = Date.now();
const log = (line: string) => console.log(`[${((Date.now() - runStarted) / 1000).toFixed(0).padStart(4)} s] ${line}`);

// ── Processes ────────────────────────────────────────────────────────────────────────────────
const work = mkdtempSync(join(tmpdir(), 'playport-soak-'));
log(`scale ${scale}, ${phaseSeconds} s a phase; PostgreSQL, Redis and storage of its own under ${work}`);
const postgres = createPostgres(PORTS.postgres, ['max_connections=200', 'shared_buffers=256MB']);
const admin = new pg.Client({ connectionString: postgres.url });
await admin.connect();
await admin.query('CREATE DATABASE soak');
await admin.end();
const databaseUrl = postgres.url.replace(/\/postgres$/, '/soak');
const redis = createRedis(PORTS.redis);
let proxy: ChildProcess | undefined;
// However the run ends, the private PostgreSQL and Redis end with it (servers: processes.ts).
process.once('exit', () => {
  proxy?.kill('SIGKILL');
  redis.stop();
  postgres.remove();
  rmSync(work, { recursive: true, force: true });
});
// Stopped from the terminal or by a time limit: the same tidying up (exit handlers run on exit only).
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(130));
// A bucket of the local S3 stand-in by default (instances on several machines share object storage); --storage folder for a shared folder.
const storage =
  flags.storage === 'folder'
    ? await startFolderStorage({ directory: join(work, 'storage') })
    : await startObjectStorage({ directory: join(work, 'bucket'), port: PORTS.storage });
const webhooks = await startWebhookReceiver(PORTS.webhooks);

const env: Record<string, string> = {
  DATABASE_URL: databaseUrl,
  REDIS_URL: redis.url,
  APP_SECRET: randomBytes(24).toString('hex'),
  PUBLIC_ORIGIN: `http://127.0.0.1:${PORTS.proxy}`,
  GAMES_ORIGIN: `http://games.localhost:${PORTS.proxyGames}`,
  PREVIEWS_ORIGIN: `http://previews.localhost:${PORTS.proxyGames}`,
  TRUST_PROXY: '1',
  PAGE_CACHE_SECONDS: '30',
  STUDIO_OPEN_UPLOADS: '20',
  STUDIO_UPLOAD_MB_PER_DAY: '100000',
  ...storage.env,
};
const instances: Record<'A' | 'B', { port: number; gamesPort: number; server: Server | null }> = {
  A: { port: PORTS.a, gamesPort: PORTS.a + 1, server: null },
  B: { port: PORTS.b, gamesPort: PORTS.b + 1, server: null },
};
const startInstance = async (name: 'A' | 'B') => {
  const instance = instances[name];
  instance.server = await startBuiltServer({ ...env, GAMES_PORT: String(instance.gamesPort) }, instance.port);
};
// The first fills the empty database with the demo content; the second finds it filled.
await startInstance('A');
await startInstance('B');
proxy = spawn(
  process.execPath,
  [
    join(ROOT, 'scripts/lib/soak/proxy.ts'),
    JSON.stringify([
      { port: PORTS.proxy, upstreams: [PORTS.a, PORTS.b] },
      { port: PORTS.proxyGames, upstreams: [PORTS.a + 1, PORTS.b + 1] },
    ]),
  ],
  { stdio: ['ignore', 'pipe', 'inherit'] },
);
await new Promise<void>((done, ended) => {
  proxy!.stdout!.once('data', () => done());
  proxy!.once('exit', (code) => ended(new Error(`the proxy ended (${code})`)));
});
log('two instances, the proxy and the webhook endpoint are up');

const stats = new Stats();
const client = new SoakClient(PORTS.proxy, stats);
await client.init();
const traffic = new Traffic(client, GIVE_UP_MS);
const db = new pg.Pool({ connectionString: databaseUrl, max: 2 });
db.on('error', () => undefined);

// Each instance's resident memory, every 2 s, from /proc.
const rssOf = (pid: number | undefined) => {
  try {
    const kb = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb ? Number(kb) * 1024 : null;
  } catch {
    return null;
  }
};
const sampler = setInterval(() => {
  for (const [name, instance] of Object.entries(instances)) {
    const bytes = rssOf(instance.server?.child.pid);
    if (bytes !== null && instance.server?.child.exitCode === null) stats.sampleRss(name, bytes);
  }
}, 2000);

// ── The studio, its games and the players ────────────────────────────────────────────────────
const apps = (await db.query<{ id: number; slug: string }>("SELECT id, slug FROM apps WHERE published = 1 AND type = 'game' ORDER BY id")).rows;
const appId = (slug: string) => apps.find((app) => app.slug === slug)?.id ?? fail(`no demo game ${slug}`);
const SAVE_APP = appId('2048');
const BOARD = { app: appId('snake'), board: 'fruit', max: 400 };
const SHOP = { app: appId('memory-cards'), sku: 'memory-cards-hint' };
const developer = (await traffic.newMember('studio')) ?? fail('no developer account');
await client.api('setup', 'PUT', '/studio/profile/', {
  token: developer.token,
  address: developer.address,
  body: { studioName: 'Soak Works', contactEmail: 'team@soak.test' },
});
// The demo shop game is given to the studio directly, as the webhook tests do: publishing a game
// through review is not what this run measures. Its paid orders then go to the studio's endpoint.
await db.query('UPDATE apps SET developer_user_id = $1 WHERE id = $2', [developer.uid, SHOP.app]);
const hook = await client.api('setup', 'PUT', `/studio/games/${SHOP.app}/webhook`, {
  token: developer.token,
  address: developer.address,
  body: { url: webhooks.url },
});
if (hook.status !== 200) fail(`webhook URL: ${hook.status} ${hook.text}`);
webhooks.secret = (hook.data as { secret: string }).secret;
const studioGame = await client.api('setup', 'POST', '/studio/games/', {
  token: developer.token,
  address: developer.address,
  body: { slug: `soak-${randomBytes(3).toString('hex')}`, i18n: { en: { title: 'Soak Run' } } },
});
if (studioGame.status !== 201) fail(`studio game: ${studioGame.status} ${studioGame.text}`);
const buildApp = (studioGame.data as { id: number }).id;

const total = (count: number, least = 1) => Math.max(least, Math.round(count * scale));
const buyers: Player[] = [];
for (const chunk of chunks(Array.from({ length: Math.min(100, Math.max(4, Math.ceil(total(DAY.purchases) / 50))) }), 8)) {
  for (const buyer of await Promise.all(chunk.map(() => traffic.newMember('buyer')))) if (buyer) buyers.push(buyer);
}
log(`studio, webhook endpoint and ${buyers.length} buyers ready; ${apps.length} demo games`);

const pages = [
  '/',
  '/zh-CN',
  '/search?q=puzzle',
  '/search?q=cards',
  '/article/news',
  '/article/post/1001',
  '/article/post/1002',
  ...apps.map((app) => `/app/${app.slug}`),
];

// ── Faults at set times ──────────────────────────────────────────────────────────────────────
const faults: Array<{ phase: string; at: number; name: string; run: () => Promise<void>; startedAt?: number; endedAt?: number; error?: string }> = [
  { phase: 'night', at: 0.5, name: 'PostgreSQL restarted (5 s down)', run: () => postgres.restart(5000) },
  { phase: 'morning', at: 0.5, name: 'Redis restarted (5 s down)', run: () => redis.restart(5000) },
  {
    phase: 'peak',
    at: 0.4,
    name: 'instance B killed (SIGKILL), started again after 2 s',
    run: async () => {
      const server = instances.B.server!;
      server.child.kill('SIGKILL');
      await server.exited;
      await sleep(2000);
      await startInstance('B');
    },
  },
  {
    phase: 'evening',
    at: 0.1,
    name: 'storage stopped for a minute',
    run: async () => {
      await storage.stop();
      await sleep(60_000);
      await storage.start();
    },
  },
];

// ── The day ──────────────────────────────────────────────────────────────────────────────────
let saveCounter = 0;
for (const phase of PHASES) {
  stats.begin(phase.name);
  const ms = phaseSeconds * 1000;
  const plays = total(DAY.plays * phase.share);
  const wantedPlayers = Math.max(10, Math.ceil(plays / (phaseSeconds / 60) / PLAYS_PER_PLAYER_MINUTE));
  const counts = {
    guests: Math.max(0, wantedPlayers - traffic.players.length),
    plays,
    saves: total(DAY.saves * phase.share),
    scores: total((DAY.scoresPerMinuteAtPeak * phase.scores * phaseSeconds) / 60),
    purchases: total(DAY.purchases * phase.share),
    builds: total(DAY.builds * phase.share),
    pages: total(DAY.pageViews * phase.share),
  };
  log(`${phase.name}: ${JSON.stringify(counts)}`);
  if (traffic.players.length === 0) {
    // The night's players arrive before its first plays; in later phases new ones join as it goes.
    for (const chunk of chunks(Array.from({ length: counts.guests }), 8))
      for (const guest of await Promise.all(chunk.map(() => traffic.newGuest()))) if (guest) traffic.players.push(guest);
    counts.guests = 0;
  }
  const player = (i: number) => traffic.players[i % traffic.players.length]!;
  const fault = faults.find((f) => f.phase === phase.name);
  // In the evening the builds arrive while the storage is away: each waits for it, retrying, as the Studio's uploader does.
  const storageFault = phase.name === 'evening' ? faults.find((f) => f.name.startsWith('storage stopped'))! : null;
  if (storageFault) counts.builds = Math.max(2, counts.builds);
  await Promise.all([
    paced(counts.guests, ms * 0.3, 8, async () => {
      const guest = await traffic.newGuest();
      if (guest) traffic.players.push(guest);
    }),
    paced(counts.plays, ms, 64, (i) => traffic.play(traffic.nextPlayer(), apps[i % apps.length]!.id)),
    paced(counts.saves, ms, 8, (i, lane) => traffic.save(player(i * 7 + lane), SAVE_APP, `slot-${lane}`, ++saveCounter)),
    paced(counts.scores, ms, 4, (i) => traffic.score(player(i * 13), BOARD.app, BOARD.board, Math.floor(Math.random() * (BOARD.max + 1)))),
    paced(counts.purchases, ms, 6, (i) => traffic.purchase(buyers[i % buyers.length]!, SHOP.app, SHOP.sku)),
    (async () => {
      if (storageFault) await sleep(ms * storageFault.at + 5000);
      await paced(counts.builds, storageFault ? 50_000 : ms, 2, (i) => traffic.uploadBuild(developer, buildApp, i));
    })(),
    paced(counts.pages, ms, 8, (i) => traffic.page(pages[i % pages.length]!, i)),
    fault
      ? (async () => {
          await sleep(ms * fault.at);
          fault.startedAt = Date.now();
          log(`fault: ${fault.name}`);
          await fault.run().catch((error: Error) => (fault.error = error.message));
          fault.endedAt = Date.now();
          log(`fault over: ${fault.name}${fault.error ? ` (${fault.error})` : ''}`);
        })()
      : Promise.resolve(),
  ]);
  log(`${phase.name} done`);
}
stats.begin('after');
clearInterval(sampler);

// ── Checks ───────────────────────────────────────────────────────────────────────────────────
interface Check {
  name: string;
  ok: boolean;
  detail: string;
}
const checks: Check[] = [];
const check = (name: string, ok: boolean, detail: string) => checks.push({ name, ok, detail });
const { acknowledged } = traffic;
const inChunks = async <T, R>(list: T[], query: (part: T[]) => Promise<R[]>) => (await Promise.all(chunks(list, 5000).map(query))).flat();

const guests = [...acknowledged.guests];
const foundGuests = await inChunks(guests, async (part) => (await db.query<{ id: number }>('SELECT id FROM users WHERE id = ANY($1)', [part])).rows);
check('guests', foundGuests.length === guests.length, `${foundGuests.length} of ${guests.length} acknowledged guest accounts found`);

const sessions = [...acknowledged.plays.keys()];
const foundSessions = await inChunks(
  sessions,
  async (part) => (await db.query<{ session_key: string }>('SELECT session_key FROM game_sessions WHERE session_key = ANY($1)', [part])).rows,
);
check('plays', foundSessions.length === sessions.length, `${foundSessions.length} of ${sessions.length} acknowledged plays (play sessions) found`);

const saved = (
  await db.query<{ user_id: number; key: string; value: string }>('SELECT user_id, key, value FROM game_saves WHERE app_id = $1', [SAVE_APP])
).rows.reduce((map, row) => map.set(`${row.user_id}/${SAVE_APP}/${row.key}`, (JSON.parse(row.value) as { n: number }).n), new Map<string, number>());
const wrongSaves = [...acknowledged.saves].filter(([id, n]) => saved.get(id) !== n && saved.get(id) !== acknowledged.unsettledSaves.get(id));
check(
  'saves',
  wrongSaves.length === 0,
  `${acknowledged.saves.size - wrongSaves.length} of ${acknowledged.saves.size} saves hold their latest acknowledged value`,
);

const best = (
  await db.query<{ user_id: number; score: number }>("SELECT user_id, score FROM leaderboard_scores WHERE app_id = $1 AND board = $2 AND period = 'all-time'", [
    BOARD.app,
    BOARD.board,
  ])
).rows.reduce((map, row) => map.set(row.user_id, Number(row.score)), new Map<number, number>());
const lowScores = [...acknowledged.scores].filter(([uid, score]) => (best.get(uid) ?? -1) < score);
check(
  'scores',
  lowScores.length === 0,
  `${acknowledged.scores.size - lowScores.length} of ${acknowledged.scores.size} players' best scores at least their best acknowledged`,
);

const orders = (
  await inChunks(
    [...acknowledged.orders],
    async (part) => (await db.query<{ public_id: string; status: string }>('SELECT public_id, status FROM orders WHERE public_id = ANY($1)', [part])).rows,
  )
).reduce((map, row) => map.set(row.public_id, row.status), new Map<string, string>());
const unpaid = [...acknowledged.paid].filter((id) => orders.get(id) !== 'paid');
check('orders', orders.size === acknowledged.orders.size, `${orders.size} of ${acknowledged.orders.size} acknowledged orders found`);
check('payments', unpaid.length === 0, `${acknowledged.paid.size - unpaid.length} of ${acknowledged.paid.size} acknowledged payments are paid orders`);

// Every paid order of the studio's game reaches its endpoint: wait for the outbox to drain.
const paidInDatabase = (await db.query<{ public_id: string }>("SELECT public_id FROM orders WHERE app_id = $1 AND status = 'paid'", [SHOP.app])).rows.map(
  (row) => row.public_id,
);
await waitFor(
  'every paid order at the webhook endpoint',
  async () => (paidInDatabase.every((id) => webhooks.paid.has(id)) ? true : undefined),
  180_000,
  1000,
).catch(() => undefined);
const undelivered = paidInDatabase.filter((id) => !webhooks.paid.has(id));
const twice = paidInDatabase.filter((id) => new Set(webhooks.paid.get(id)).size > 1);
const redelivered = paidInDatabase.filter((id) => (webhooks.paid.get(id)?.length ?? 0) > new Set(webhooks.paid.get(id)).size).length;
check(
  'webhooks',
  undelivered.length === 0 && twice.length === 0 && webhooks.badSignatures === 0,
  `${paidInDatabase.length - undelivered.length} of ${paidInDatabase.length} paid orders delivered; ${twice.length} as two events or more; ` +
    `${redelivered} event(s) delivered again with the same event id; ${webhooks.badSignatures} bad signature(s)`,
);

const builds = [...acknowledged.builds];
const storedBuilds = new Set(
  (await db.query<{ id: number }>('SELECT id FROM game_builds WHERE id = ANY($1)', [builds.map(([id]) => id)])).rows.map((row) => Number(row.id)),
);
let readable = 0;
for (const [id, { marker, label }] of builds) {
  const page = await client.raw('after', 'GET', '/index.html', {
    port: PORTS.proxyGames,
    headers: { host: `${label}.previews.localhost:${PORTS.proxyGames}` },
  });
  if (storedBuilds.has(id) && page.status === 200 && page.text.includes(marker)) readable++;
}
check('builds', readable === builds.length, `${readable} of ${builds.length} acknowledged builds stored and readable at their preview`);

const givenUp = Object.entries(acknowledged.givenUp);
const refused = Object.entries(acknowledged.refused);
check(
  'writes settled',
  givenUp.length === 0 && refused.length === 0,
  givenUp.length || refused.length
    ? `given up after ${GIVE_UP_MS / 60_000} min: ${JSON.stringify(acknowledged.givenUp)}; refused: ${JSON.stringify(acknowledged.refused)}`
    : 'every write was acknowledged, after retries where needed',
);

// Memory: the last phase's median RSS under 1.5 × the first steady phase's (the night, warmed up
// by then); the killed instance, restarted in the peak, is held to its peer's night figure.
const phaseNames = PHASES.map((p) => p.name);
const rssMedian = (phase: string, name: string) => median(stats.rss.get(phase)?.get(name) ?? []);
const baseline = rssMedian('night', 'A');
for (const name of ['A', 'B'] as const) {
  const first = name === 'B' ? baseline : rssMedian('night', name);
  const last = rssMedian('evening', name);
  const ok = first !== null && last !== null && last < 1.5 * first;
  check(
    `memory ${name}`,
    ok,
    `evening median RSS ${mb(last)} MB against ${mb(first)} MB at night${name === 'B' ? ' (instance A’s: B was restarted)' : ''} (limit 1.5×)`,
  );
}
const survivor = instances.A.server!;
check('instance A up', survivor.child.exitCode === null && survivor.child.signalCode === null, 'the instance that was not killed ran the whole day');

// ── Report ───────────────────────────────────────────────────────────────────────────────────
const report = stats.report(phaseNames);
printReport(report);
for (const fault of faults)
  console.log(
    `fault (${fault.phase}): ${fault.name}${fault.startedAt ? `, ${((fault.endedAt! - fault.startedAt) / 1000).toFixed(1)} s` : ', not run'}${fault.error ? `, failed: ${fault.error}` : ''}`,
  );
console.log('');
for (const c of checks) console.log(`${c.ok ? 'ok  ' : 'FAIL'} ${c.name.padEnd(15)} ${c.detail}`);
const failed = checks.filter((c) => !c.ok);
const minutes = (Date.now() - runStarted) / 60_000;
console.log(`\n${failed.length ? `${failed.length} check(s) failed` : 'every check passed'}; scale ${scale}, ${minutes.toFixed(1)} min in all`);
mkdirSync(join(ROOT, 'data'), { recursive: true });
writeFileSync(
  join(ROOT, 'data/soak-latest.json'),
  `${JSON.stringify(
    {
      at: new Date(runStarted).toISOString(),
      scale,
      phaseSeconds,
      minutes: Math.round(minutes * 10) / 10,
      acknowledged: {
        guests: acknowledged.guests.size,
        plays: acknowledged.plays.size,
        saves: acknowledged.saves.size,
        scores: acknowledged.scores.size,
        orders: acknowledged.orders.size,
        paid: acknowledged.paid.size,
        builds: acknowledged.builds.size,
      },
      phases: report,
      faults: faults.map(({ phase, name, startedAt, endedAt, error }) => ({ phase, name, seconds: startedAt ? (endedAt! - startedAt) / 1000 : null, error })),
      checks,
    },
    null,
    2,
  )}\n`,
);

// ── Tidy up ──────────────────────────────────────────────────────────────────────────────────
await db.end();
proxy.kill('SIGTERM');
proxy = undefined;
await Promise.all(Object.values(instances).map((instance) => instance.server?.stop()));
await killServers();
await webhooks.stop();
await storage.remove();
process.exit(failed.length ? 1 : 0);

function fail(message: string): never {
  throw new Error(message);
}

function chunks<T>(list: T[], size: number): T[][] {
  return Array.from({ length: Math.ceil(list.length / size) }, (_, n) => list.slice(n * size, n * size + size));
}

function mb(bytes: number | null): string {
  return bytes === null ? '?' : (bytes / 1024 / 1024).toFixed(0);
}

/** One table: a row per phase and kind of request, then the phase's whole. */
function printReport(phases: PhaseReport[]): void {
  const rows: string[][] = [['phase', 'kind', 'requests', 'req/s', 'p50 ms', 'p99 ms', 'not 2xx/3xx (status: count)']];
  for (const phase of phases) {
    for (const [kind, figures] of Object.entries(phase.kinds))
      rows.push([
        phase.phase,
        kind,
        String(figures.requests),
        String(figures.perSecond),
        String(figures.p50Ms),
        String(figures.p99Ms),
        errorsText(figures.errors),
      ]);
    rows.push([
      phase.phase,
      `all, ${phase.seconds} s`,
      String(phase.requests),
      String(phase.perSecond),
      '',
      '',
      `${errorsText(phase.errors)}; RSS MB ${Object.entries(phase.rssMb)
        .map(([name, value]) => `${name} ${value}`)
        .join(', ')}`,
    ]);
  }
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  console.log('');
  for (const row of rows)
    console.log(row.map((cell, column) => (column >= 2 && column <= 5 ? cell.padStart(widths[column]!) : cell.padEnd(widths[column]!))).join('  '));
  console.log('');
}

function errorsText(errors: Record<string, number>): string {
  const entries = Object.entries(errors);
  return entries.length ? entries.map(([status, count]) => `${status}: ${count}`).join(', ') : '-';
}
