// Processes the fault tests and the soak run start: the built server (server/main.ts, as
// `npm start` runs it), a private PostgreSQL and a private Redis on ports of their own, never the
// machine's shared ones, so that stopping or restarting them harms nothing else.
import { type ChildProcess, execFile, execFileSync, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

const ROOT = resolve(import.meta.dirname, '../..');
const running = new Set<ChildProcess>();
// A run that fails half-way leaves no server behind to answer the next one on its port.
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/** Kills every server started here and not stopped, and waits for them to end. */
export async function killServers(): Promise<void> {
  await Promise.all(
    [...running].map((child) => {
      const ended = new Promise((done) => child.once('exit', done));
      child.kill('SIGKILL');
      return ended;
    }),
  );
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

/**
 * The built server in its own process on 127.0.0.1:`port`, ready when /healthz answers. `env`
 * adds to and overrides a production-like default (UPLOAD_DIR is the caller's to give).
 */
export async function startBuiltServer(env: Record<string, string>, port: number): Promise<Server> {
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

/** A PostgreSQL binary's command line, as the `postgres` user when this process is root (initdb refuses root). */
function postgresCommandLine(binary: string, args: string[]): [string, string[]] {
  const versions = readdirSync('/usr/lib/postgresql').sort();
  const path = join('/usr/lib/postgresql', versions.at(-1)!, 'bin', binary);
  return process.getuid?.() === 0 ? ['runuser', ['-u', 'postgres', '--', path, ...args]] : [path, args];
}

function postgresCommand(binary: string, args: string[]): void {
  execFileSync(...postgresCommandLine(binary, args), { stdio: 'pipe' });
}

/** The same without blocking this process's event loop (a soak run's clients keep going meanwhile). */
async function postgresCommandAsync(binary: string, args: string[]): Promise<void> {
  await promisify(execFile)(...postgresCommandLine(binary, args));
}

export interface PrivatePostgres {
  /** URL of the cluster's `postgres` database. */
  url: string;
  port: number;
  dir: string;
  start: () => void;
  /** `fast` closes connections cleanly; `immediate` is a crash (recovery from the WAL on start). */
  stop: (mode?: 'fast' | 'immediate') => void;
  /** Stops it (`fast`), waits `downMs` and starts it again, without blocking the event loop. */
  restart: (downMs: number) => Promise<void>;
  remove: () => void;
}

/** A new PostgreSQL cluster in a temporary folder, listening on loopback only, started. */
export function createPostgres(port: number, settings: string[] = []): PrivatePostgres {
  const dir = mkdtempSync(join(tmpdir(), 'playport-pg-'));
  chmodSync(dir, 0o777);
  if (process.getuid?.() === 0) execFileSync('chown', ['postgres', dir]);
  postgresCommand('initdb', ['-D', join(dir, 'data'), '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8']);
  const postgres = postgresAt(dir, port, settings);
  postgres.start();
  return postgres;
}

/** The cluster that createPostgres made in `dir` (from another process: the fault tests' global set-up's). `settings` are extra `-c name=value`. */
export function postgresAt(dir: string, port: number, settings: string[] = []): PrivatePostgres {
  const data = join(dir, 'data');
  const options = [`-p ${port}`, `-k ${dir}`, '-c listen_addresses=127.0.0.1', ...settings.map((setting) => `-c ${setting}`)].join(' ');
  const start = () => postgresCommand('pg_ctl', ['-D', data, '-w', '-l', join(dir, 'log'), '-o', options, 'start']);
  const stop = (mode: 'fast' | 'immediate' = 'fast') => postgresCommand('pg_ctl', ['-D', data, '-w', '-m', mode, 'stop']);
  const restart = async (downMs: number) => {
    await postgresCommandAsync('pg_ctl', ['-D', data, '-w', '-m', 'fast', 'stop']);
    await sleep(downMs);
    await postgresCommandAsync('pg_ctl', ['-D', data, '-w', '-l', join(dir, 'log'), '-o', options, 'start']);
  };
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    dir,
    start,
    stop,
    restart,
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

export interface PrivateRedis {
  url: string;
  start: () => void;
  stop: () => void;
  /** Shuts it down, waits `downMs` and starts it again, without blocking the event loop. */
  restart: (downMs: number) => Promise<void>;
}

/** A Redis of its own without persistence, started. */
export function createRedis(port: number): PrivateRedis {
  const startArgs = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--daemonize', 'yes'];
  const start = () => execFileSync('redis-server', startArgs);
  const stop = () => {
    try {
      execFileSync('redis-cli', ['-p', String(port), 'shutdown', 'nosave'], { stdio: 'pipe' });
    } catch {
      // Already stopped: redis-cli fails to connect.
    }
  };
  const restart = async (downMs: number) => {
    await promisify(execFile)('redis-cli', ['-p', String(port), 'shutdown', 'nosave']).catch(() => undefined);
    await sleep(downMs);
    await promisify(execFile)('redis-server', startArgs);
  };
  start();
  return { url: `redis://127.0.0.1:${port}`, start, stop, restart };
}
