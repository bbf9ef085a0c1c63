import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import { openDatabase } from '../../server/db/client.ts';

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, '../..');

/** A server of a journey's own, on its own database and clock. */
export interface OwnServer {
  origin: string;
  /** The environment it runs with: commands against its database take it. */
  env: Record<string, string>;
  /** Moves the server's clock to `iso` (TEST_CLOCK_FILE, read again within 200 ms). */
  setClock(iso: string): Promise<void>;
  /** Runs one of the project's commands (`scripts/<name>.ts`) against its database. */
  command(name: string, args: string[]): Promise<string>;
  stop(): Promise<void>;
}

/**
 * Starts the built server as `npm start` does, on `port` (and `port + 1` for games), with a
 * database of its own (a SQLite file, or a schema of the run's PostgreSQL database when the run is
 * on PostgreSQL) and a clock the journey moves: for journeys about months and holds, which the
 * run's shared server cannot skip through without moving every other journey's time too.
 */
export async function startOwnServer(port: number, startAt: string, env: Record<string, string> = {}): Promise<OwnServer> {
  const folder = mkdtempSync(join(tmpdir(), 'playport-own-server-'));
  const clockFile = join(folder, 'clock');
  writeFileSync(clockFile, startAt);
  const onPostgres = process.env.DATABASE_URL?.startsWith('postgres') ?? false;
  const origin = `http://localhost:${port}`;
  const serverEnv: Record<string, string> = {
    APP_ENV: 'test',
    PORT: String(port),
    GAMES_PORT: String(port + 1),
    HOST: 'localhost',
    PUBLIC_ORIGIN: origin,
    LOG_LEVEL: 'warn',
    TRUST_PROXY: 'loopback',
    DATABASE_URL: onPostgres ? process.env.DATABASE_URL! : `file:${join(folder, 'playport.sqlite')}`,
    ...(onPostgres ? { DATABASE_SCHEMA: `own_${port}_${Date.now()}` } : {}),
    UPLOAD_DIR: join(folder, 'uploads'),
    BUILDS_DIR: join(folder, 'builds'),
    EXPORTS_DIR: join(folder, 'exports'),
    TEST_CLOCK_FILE: clockFile,
    ...env,
  };
  const child: ChildProcess = spawn(process.execPath, ['scripts/start.ts'], {
    cwd: ROOT,
    env: { ...process.env, ...serverEnv },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let errors = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    errors += chunk.toString();
  });
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server stopped: ${errors}`);
    try {
      if ((await fetch(`${origin}/readyz`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`the server did not start: ${errors}`);
    await new Promise((done) => setTimeout(done, 250));
  }
  return {
    origin,
    env: serverEnv,
    async setClock(iso) {
      writeFileSync(clockFile, iso);
      await new Promise((done) => setTimeout(done, 300));
    },
    async command(name, args) {
      const { stdout } = await run(process.execPath, [join(ROOT, 'scripts', `${name}.ts`), ...args], {
        cwd: ROOT,
        env: { ...process.env, ...serverEnv, LOG_LEVEL: 'silent' },
      });
      return stdout;
    },
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((done) => child.once('exit', done));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(folder, { recursive: true, force: true });
      if (serverEnv.DATABASE_SCHEMA) {
        const database = await openDatabase(serverEnv.DATABASE_URL!, { poolSize: 1, schema: serverEnv.DATABASE_SCHEMA });
        try {
          await sql.raw(`drop schema if exists "${serverEnv.DATABASE_SCHEMA}" cascade`).execute(database.db);
        } finally {
          await database.close();
        }
      }
    },
  };
}
