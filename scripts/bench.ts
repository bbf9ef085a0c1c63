// Starts the production server on a scratch database and measures, interleaved over several
// rounds: the home page (anonymous, from the page cache, and with a session, rendered every time),
// an article page with a session, GET /serve/api/app/list/, and a static file of similar size (the
// ceiling).
// Prints requests/s and p50/p99 latency medians and each target's ratio to the static file.
// Options: --rounds N (3), --duration S (5), --connections N (10), --port N (3200).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { solve } from '../common/proof-of-work.ts';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '3' },
    duration: { type: 'string', default: '5' },
    connections: { type: 'string', default: '10' },
    port: { type: 'string', default: '3200' },
  },
});
const rounds = Number(values.rounds);
const duration = Number(values.duration);
const connections = Number(values.connections);
const port = Number(values.port);
const origin = `http://127.0.0.1:${port}`;

const buildDir = process.env.BUILD_DIR ?? 'build';
if (!existsSync(`${buildDir}/server/index.js`)) {
  const build = spawnSync('npm', ['run', 'build', '--silent'], { stdio: 'inherit' });
  if (build.status !== 0) process.exit(1);
}

const database = join(tmpdir(), `playport-bench-${Date.now()}.sqlite`);
const server = spawn(process.execPath, ['scripts/start.ts'], {
  env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', PUBLIC_ORIGIN: origin, LOG_LEVEL: 'warn', DATABASE_URL: process.env.DATABASE_URL ?? `file:${database}` },
  stdio: ['ignore', 'inherit', 'inherit'],
});
const stop = () => {
  server.kill('SIGTERM');
  for (const suffix of ['', '-wal', '-shm']) rmSync(database + suffix, { force: true });
};
process.on('exit', stop);

async function waitUntilReady() {
  for (let i = 0; i < 120; i++) {
    try {
      if ((await fetch(`${origin}/readyz`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error('server did not become ready');
}

await waitUntilReady();
const home = await fetch(`${origin}/`);
const homeBytes = (await home.arrayBuffer()).byteLength;
const apiBytes = (await (await fetch(`${origin}/serve/api/app/list/`)).arrayBuffer()).byteLength;
// The ceiling: the built asset whose size is closest to the home page's.
const assets = readdirSync(`${buildDir}/client/assets`).filter((f) => !f.endsWith('.br') && !f.endsWith('.gz'));
const closest = assets
  .map((f) => ({ f, size: statSync(join(buildDir, 'client/assets', f)).size }))
  .sort((a, b) => Math.abs(a.size - homeBytes) - Math.abs(b.size - homeBytes))[0]!;

/** A guest session, made as a browser makes it (CSRF cookie, proof of work), as a cookie header. */
async function guestSession(): Promise<Record<string, string>> {
  const csrf = (await fetch(`${origin}/serve/api/csrf`)).headers.getSetCookie().find((c) => c.startsWith('XSRF-TOKEN='))!.split(';')[0]!;
  const { data } = (await (await fetch(`${origin}/serve/api/guest/challenge/`)).json()) as { data: { challenge: string; difficulty: number } };
  const nonce = await solve(data.challenge, data.difficulty, async () => undefined);
  const response = await fetch(`${origin}/serve/api/guest/login/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie: csrf, 'x-xsrf-token': decodeURIComponent(csrf.slice('XSRF-TOKEN='.length)) },
    body: JSON.stringify({ challenge: data.challenge, nonce }),
  });
  const { data: account } = (await response.json()) as { data: { token: string } };
  return { cookie: `token=${encodeURIComponent(account.token)}` };
}

// Every visitor has a session from the second page on: their pages are rendered each time.
const session = await guestSession();
const sizeOf = async (path: string, headers: Record<string, string> = {}) => (await (await fetch(origin + path, { headers })).arrayBuffer()).byteLength;
const ARTICLE = '/article/news/1001';

const targets: Array<{ name: string; path: string; bytes: number; headers?: Record<string, string> }> = [
  { name: 'home page / (no session, page cache)', path: '/', bytes: homeBytes },
  { name: 'home page / (session)', path: '/', bytes: await sizeOf('/', session), headers: session },
  { name: `article ${ARTICLE} (session)`, path: ARTICLE, bytes: await sizeOf(ARTICLE, session), headers: session },
  { name: 'GET /serve/api/app/list/', path: '/serve/api/app/list/', bytes: apiBytes },
  { name: `static /assets/${closest.f}`, path: `/assets/${closest.f}`, bytes: closest.size },
];
const ceiling = targets.at(-1)!;

type Sample = { rps: number; p50: number; p99: number; errors: number; non2xx: number };
const samples = new Map<string, Sample[]>(targets.map((t) => [t.name, []]));

// Warm-up: JIT and caches.
for (const target of targets) await autocannon({ url: origin + target.path, connections, duration: 2, headers: target.headers ?? {} });

for (let round = 1; round <= rounds; round++) {
  for (const target of targets) {
    const result = await autocannon({ url: origin + target.path, connections, duration, headers: target.headers ?? {} });
    samples.get(target.name)!.push({
      rps: result.requests.average,
      p50: result.latency.p50,
      p99: result.latency.p99,
      errors: result.errors,
      non2xx: result.non2xx,
    });
  }
  console.log(`round ${round}/${rounds} done`);
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

const staticRps = median(samples.get(ceiling.name)!.map((s) => s.rps));
console.log(`\n${rounds} rounds × ${duration} s, ${connections} connections, medians:`);
console.log(`${'target'.padEnd(42)}  bytes    req/s   p50 ms   p99 ms  ratio to static  errors`);
for (const target of targets) {
  const list = samples.get(target.name)!;
  const rps = median(list.map((s) => s.rps));
  const errors = list.reduce((n, s) => n + s.errors + s.non2xx, 0);
  console.log(
    `${target.name.padEnd(42)} ${String(target.bytes).padStart(6)} ${rps.toFixed(0).padStart(8)} ${median(list.map((s) => s.p50)).toFixed(1).padStart(8)} ${median(list.map((s) => s.p99)).toFixed(1).padStart(8)} ${(rps / staticRps).toFixed(2).padStart(16)} ${String(errors).padStart(7)}`,
  );
}
stop();
process.exit(0);
