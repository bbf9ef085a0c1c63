// Processes for the fault tests: the built server (server/main.ts, as `npm start` runs it), a
// private PostgreSQL and a private Redis on ports of their own, never the shared ones.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, copyFileSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { solve } from '../../common/proof-of-work.ts';

const ROOT = resolve(import.meta.dirname, '../..');
/** First of the ports these tests use: servers from here, PostgreSQL at +50, Redis at +60. */
export const PORT_BASE = Number(process.env.FAULTS_PORT ?? 3800);
let nextServerPort = PORT_BASE;
/** Avatars the servers of one test file store, outside the working tree (made on first use). */
let uploads: string | null = null;
const running = new Set<ChildProcess>();
// A test that fails half-way leaves no server behind to answer the next one on its port.
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/** Kills every server the test file started and did not stop, waits for them to end and removes their uploads (for afterAll). */
export async function killServers(): Promise<void> {
  await Promise.all(
    [...running].map((child) => {
      const ended = new Promise((done) => child.once('exit', done));
      child.kill('SIGKILL');
      return ended;
    }),
  );
  if (uploads) rmSync(uploads, { recursive: true, force: true });
  uploads = null;
}

export const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

/** Polls until `check` returns a value other than undefined, or throws after `timeoutMs`. */
export async function waitFor<T>(what: string, check: () => Promise<T | undefined>, timeoutMs = 30_000, everyMs = 100): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(everyMs);
  }
}

export interface Server {
  child: ChildProcess;
  origin: string;
  port: number;
  /** Exit code and signal, once the process has ended. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  output: () => string;
  stop: () => Promise<void>;
}

/** The built server in its own process, ready when /healthz answers. */
export async function startServer(env: Record<string, string>, port = nextServerPort++): Promise<Server> {
  if (!existsSync(join(ROOT, 'build/server/index.js'))) throw new Error('no build: run npm run build first');
  if (
    await fetch(`http://127.0.0.1:${port}/healthz`).then(
      () => true,
      () => false,
    )
  )
    throw new Error(`port ${port} is taken by another server`);
  const child = spawn(process.execPath, [join(ROOT, 'server/main.ts')], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      NODE_ENV: 'production',
      APP_ENV: 'test',
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
      PORT: String(port),
      // Servers here take consecutive ports; their games origins are not under test.
      GAMES_PORT: '0',
      PUBLIC_ORIGIN: `http://127.0.0.1:${port}`,
      DATABASE_CONNECT_TIMEOUT_SECONDS: '20',
      PAGE_CACHE_SECONDS: '0',
      UPLOAD_DIR: (uploads ??= mkdtempSync(join(tmpdir(), 'playport-faults-uploads-'))),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) => child.once('exit', (code, signal) => done({ code, signal })));
  let ended = false;
  let stopping = false;
  void exited.then(({ code, signal }) => {
    ended = true;
    running.delete(child);
    // A server that ends without being told to is a failure to explain: show what it printed.
    if (!stopping && signal === null && code !== 0) console.error(`server on ${port} ended (${code ?? signal}):\n${output}`);
  });
  const origin = `http://127.0.0.1:${port}`;
  await waitFor(
    'the server to listen',
    async () => {
      if (ended) throw new Error(`server exited before listening:\n${output}`);
      return (await fetch(`${origin}/healthz`)).ok ? true : undefined;
    },
    60_000,
  ).catch((error: Error) => {
    child.kill('SIGKILL');
    throw new Error(`${error.message}\n${output}`);
  });
  return {
    child,
    origin,
    port,
    exited,
    output: () => output,
    stop: async () => {
      stopping = true;
      if (!ended) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** Runs a PostgreSQL binary, as the `postgres` user when this process is root (initdb refuses root). */
function postgresCommand(binary: string, args: string[]): void {
  const versions = readdirSync('/usr/lib/postgresql').sort();
  const path = join('/usr/lib/postgresql', versions.at(-1)!, 'bin', binary);
  const asRoot = process.getuid?.() === 0;
  execFileSync(asRoot ? 'runuser' : path, asRoot ? ['-u', 'postgres', '--', path, ...args] : args, { stdio: 'pipe' });
}

export interface PrivatePostgres {
  /** URL of the cluster's `postgres` database. */
  url: string;
  port: number;
  dir: string;
  start: () => void;
  /** `fast` closes connections cleanly; `immediate` is a crash (recovery from the WAL on start). */
  stop: (mode?: 'fast' | 'immediate') => void;
  remove: () => void;
}

/** A new PostgreSQL cluster in a temporary folder, listening on loopback only, started. */
export function createPostgres(port = PORT_BASE + 50): PrivatePostgres {
  const dir = mkdtempSync(join(tmpdir(), 'playport-faults-pg-'));
  chmodSync(dir, 0o777);
  if (process.getuid?.() === 0) execFileSync('chown', ['postgres', dir]);
  postgresCommand('initdb', ['-D', join(dir, 'data'), '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8']);
  const postgres = postgresAt(dir, port);
  postgres.start();
  return postgres;
}

/** The cluster that createPostgres made in `dir` (from another process: the global set-up's). */
export function postgresAt(dir: string, port: number): PrivatePostgres {
  const data = join(dir, 'data');
  const start = () =>
    postgresCommand('pg_ctl', ['-D', data, '-w', '-l', join(dir, 'log'), '-o', `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1`, 'start']);
  const stop = (mode: 'fast' | 'immediate' = 'fast') => postgresCommand('pg_ctl', ['-D', data, '-w', '-m', mode, 'stop']);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    dir,
    start,
    stop,
    remove: () => {
      try {
        stop('immediate');
      } catch {
        // Already stopped.
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Name of the database the global set-up filled with the demo content once. */
export const TEMPLATE_DATABASE = 'playport_template';

/** A new database copied from the seeded template (seeding takes far longer than copying). */
export async function freshPostgresDatabase(postgres: PrivatePostgres): Promise<string> {
  const name = `faults_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: postgres.url });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${TEMPLATE_DATABASE}`);
  } finally {
    await admin.end();
  }
  return postgres.url.replace(/\/postgres$/, `/${name}`);
}

/** A new SQLite database copied from the seeded template, in a folder of its own. */
export function freshSqliteDatabase(template: string): { url: string; folder: string } {
  const folder = mkdtempSync(join(tmpdir(), 'playport-faults-sqlite-'));
  copyFileSync(template, join(folder, 'playport.sqlite'));
  return { url: `file:${join(folder, 'playport.sqlite')}`, folder };
}

export interface PrivateRedis {
  url: string;
  start: () => void;
  stop: () => void;
}

/** A Redis of its own without persistence. */
export function createRedis(port = PORT_BASE + 60): PrivateRedis {
  const start = () => execFileSync('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--daemonize', 'yes']);
  const stop = () => {
    try {
      execFileSync('redis-cli', ['-p', String(port), 'shutdown', 'nosave'], { stdio: 'pipe' });
    } catch {
      // Already stopped: redis-cli fails to connect.
    }
  };
  start();
  return { url: `redis://127.0.0.1:${port}`, start, stop };
}

export interface ApiAnswer<T = any> {
  status: number;
  headers: Headers;
  code?: number;
  message?: string;
  data: T;
}

/** The API of one server, called as the browser calls it (CSRF cookie echoed, bearer token). */
export class Client {
  origin: string;
  #xsrf: string | null = null;

  constructor(origin: string) {
    this.origin = origin;
  }

  async call<T = any>(method: string, path: string, options: { token?: string; body?: unknown; signal?: AbortSignal } = {}): Promise<ApiAnswer<T>> {
    const headers: Record<string, string> = {};
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    if (method !== 'GET') {
      this.#xsrf ??= await this.csrfToken();
      headers.cookie = `XSRF-TOKEN=${this.#xsrf}`;
      headers['x-xsrf-token'] = decodeURIComponent(this.#xsrf);
      headers['content-type'] = 'application/json';
    }
    const response = await fetch(`${this.origin}/serve/api${path}`, {
      method,
      headers,
      body: method === 'GET' ? undefined : JSON.stringify(options.body ?? {}),
      signal: options.signal ?? AbortSignal.timeout(15_000),
    });
    const text = await response.text();
    const json = text ? (JSON.parse(text) as { code?: number; message?: string; data?: T }) : {};
    return { status: response.status, headers: response.headers, code: json.code, message: json.message, data: json.data as T };
  }

  /** A fresh XSRF-TOKEN cookie value (echo it, URI-decoded, in X-XSRF-TOKEN). */
  async csrfToken(): Promise<string> {
    const response = await fetch(`${this.origin}/serve/api/csrf`);
    const cookie = response.headers.getSetCookie().find((c) => c.startsWith('XSRF-TOKEN='));
    if (!cookie) throw new Error('no XSRF-TOKEN cookie');
    return cookie.split(';')[0]!.slice('XSRF-TOKEN='.length);
  }

  /** A new member (a guest that chose a username and password), with its token. */
  async newMember(username: string): Promise<{ token: string; uid: number }> {
    const challenge = (await this.call<{ challenge: string; difficulty: number }>('GET', '/guest/challenge/')).data;
    const nonce = await solve(challenge.challenge, challenge.difficulty, async () => undefined);
    const guest = await this.call<{ token: string }>('POST', '/guest/login/', { body: { challenge: challenge.challenge, nonce } });
    if (guest.status !== 201) throw new Error(`guest login: ${guest.status} ${guest.message}`);
    const member = await this.call<{ token: string; userInfo: { uid: number } }>('PATCH', '/member/password/', {
      token: guest.data.token,
      body: { username, password: 'Harbour-Lantern-Tricky-9' },
    });
    if (member.status !== 200) throw new Error(`member: ${member.status} ${member.message}`);
    return { token: member.data.token, uid: member.data.userInfo.uid };
  }
}
