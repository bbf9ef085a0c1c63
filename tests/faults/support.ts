// Processes for the fault tests: the built server (server/main.ts, as `npm start` runs it), a
// private PostgreSQL and a private Redis on ports of their own, never the shared ones. The
// processes themselves are scripts/lib/processes.ts, shared with the soak run.
import { randomBytes } from 'node:crypto';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { solve } from '../../common/proof-of-work.ts';
import {
  createPostgres as createPostgresOn,
  createRedis as createRedisOn,
  killServers as killServerProcesses,
  postgresAt as postgresIn,
  type PrivatePostgres,
  type PrivateRedis,
  type Server,
  startBuiltServer,
} from '../../scripts/lib/processes.ts';

export { sleep, waitFor, type PrivatePostgres, type PrivateRedis, type Server } from '../../scripts/lib/processes.ts';

/** First of the ports these tests use: servers from here, PostgreSQL at +50, Redis at +60. */
export const PORT_BASE = Number(process.env.FAULTS_PORT ?? 3800);
let nextServerPort = PORT_BASE;
/** Avatars the servers of one test file store, outside the working tree (made on first use). */
let uploads: string | null = null;

/** Kills every server the test file started and did not stop, waits for them to end and removes their uploads (for afterAll). */
export async function killServers(): Promise<void> {
  await killServerProcesses();
  if (uploads) rmSync(uploads, { recursive: true, force: true });
  uploads = null;
}

/** The built server in its own process, ready when /healthz answers. */
export function startServer(env: Record<string, string>, port = nextServerPort++): Promise<Server> {
  return startBuiltServer({ UPLOAD_DIR: (uploads ??= mkdtempSync(join(tmpdir(), 'playport-faults-uploads-'))), ...env }, port);
}

/** A new PostgreSQL cluster in a temporary folder, listening on loopback only, started. */
export const createPostgres = (port = PORT_BASE + 50): PrivatePostgres => createPostgresOn(port);

/** The cluster that createPostgres made in `dir` (from another process: the global set-up's). */
export const postgresAt = (dir: string, port: number): PrivatePostgres => postgresIn(dir, port);

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

/** A Redis of its own without persistence. */
export const createRedis = (port = PORT_BASE + 60): PrivateRedis => createRedisOn(port);

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
