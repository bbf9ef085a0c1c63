import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, type LogEvent, PostgresDialect, SqliteDialect, type SqliteDatabase, sql } from 'kysely';
import pg from 'pg';
import type { Database } from './schema.ts';

export type DatabaseKind = 'sqlite' | 'postgres';

export interface DatabaseHandle {
  db: Kysely<Database>;
  kind: DatabaseKind;
  /** A human-readable description without credentials, for logs. */
  description: string;
  /** Tells `listener` of every query run from now on (the operators' metrics). */
  onQuery(listener: (query: ExecutedQuery) => void): void;
  /** The connection pool's use now; null on SQLite, which has one connection and no pool. */
  poolUse(): PoolUse | null;
  close(): Promise<void>;
}

/** What a query was and how long it took: a short fixed vocabulary, never the SQL text. */
export interface ExecutedQuery {
  statement: 'select' | 'insert' | 'update' | 'delete' | 'other';
  seconds: number;
  failed: boolean;
}

export interface PoolUse {
  /** Connections handed to a query or transaction. */
  inUse: number;
  idle: number;
  /** Requests waiting for a connection (the pool is full). */
  waiting: number;
  max: number;
}

const STATEMENTS = new Set<ExecutedQuery['statement']>(['select', 'insert', 'update', 'delete']);

/** Kysely's log hook feeding the listeners added later with `onQuery`; costs one empty loop without them. */
function queryListeners(): { log(event: LogEvent): void; add(listener: (query: ExecutedQuery) => void): void } {
  const listeners: Array<(query: ExecutedQuery) => void> = [];
  return {
    log(event) {
      if (listeners.length === 0) return;
      // The first keyword of the SQL (a `with … select` counts as other): a bounded label.
      const keyword = /^\s*([a-z]+)/i.exec(event.query.sql)?.[1]?.toLowerCase() as ExecutedQuery['statement'] | undefined;
      const query: ExecutedQuery = {
        statement: keyword && STATEMENTS.has(keyword) ? keyword : 'other',
        seconds: event.queryDurationMillis / 1000,
        failed: event.level === 'error',
      };
      for (const listener of listeners) listener(query);
    },
    add: (listener) => listeners.push(listener),
  };
}

export interface DatabaseOptions {
  poolSize?: number;
  /** PostgreSQL only: run in this schema (created if missing). Used to isolate test workers. */
  schema?: string;
}

// COUNT(*) and BIGINT arrive as strings from pg by default; our counts fit in a double.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

/** Opens the database named by a `file:` or `postgres://` URL. */
export async function openDatabase(url: string, options: DatabaseOptions = {}): Promise<DatabaseHandle> {
  if (url.startsWith('file:')) return openSqlite(url.slice('file:'.length));
  return openPostgres(url, options);
}

function openSqlite(path: string): DatabaseHandle {
  const file = path === ':memory:' ? path : resolve(path);
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  const connection = new SQLite(file);
  // WAL with synchronous=FULL: a write that returned has reached the disk.
  connection.pragma('journal_mode = WAL');
  connection.pragma('synchronous = FULL');
  connection.pragma('foreign_keys = ON');
  connection.pragma('busy_timeout = 5000');
  const queries = queryListeners();
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(connection) }), log: queries.log });
  return {
    db,
    kind: 'sqlite',
    description: `sqlite ${file}`,
    onQuery: queries.add,
    poolUse: () => null,
    close: () => db.destroy(),
  };
}

/** Stands in for ROLLBACK when SQLite has already rolled the transaction back. */
const ROLLED_BACK_ALREADY = { reader: false, run: () => ({ changes: 0, lastInsertRowid: 0 }) } as unknown as SQLite.Statement;

/** How many distinct SQL texts keep their prepared statement (a list's `IN (?, ?)` varies in length). */
const STATEMENT_CACHE_SIZE = 500;

/**
 * The connection as Kysely sees it, with each SQL text prepared once: Kysely prepares every query
 * again, which took about a tenth of a page render (docs/performance.md). Safe because queries run
 * one at a time to completion (all/run); nothing here streams rows with iterate().
 */
function withStatementCache(connection: SQLite.Database): SqliteDatabase {
  const statements = new Map<string, SQLite.Statement>();
  return {
    close: () => connection.close(),
    prepare(query: string) {
      // SQLite itself rolls a transaction back when the disk is full or an I/O error strikes; the
      // ROLLBACK that follows would fail with "no transaction is active" and hide that cause.
      if (query === 'rollback' && !connection.inTransaction) return ROLLED_BACK_ALREADY;
      let statement = statements.get(query);
      if (!statement) {
        if (statements.size >= STATEMENT_CACHE_SIZE) statements.delete(statements.keys().next().value!);
        statement = connection.prepare(query);
        statements.set(query, statement);
      }
      return statement;
    },
  };
}

async function openPostgres(url: string, options: DatabaseOptions): Promise<DatabaseHandle> {
  const schema = options.schema;
  if (schema && !/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`invalid schema name ${schema}`);
  if (schema) {
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      // IF NOT EXISTS is not safe against a concurrent create (instances starting together):
      // the transaction-scoped lock makes the second wait and then find the schema.
      await admin.query('BEGIN');
      await admin.query(`SELECT pg_advisory_xact_lock(hashtext('playport:create-schema'))`);
      await admin.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
      await admin.query('COMMIT');
    } finally {
      await admin.end();
    }
  }
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolSize ?? 10,
    // While PostgreSQL is away a request fails within seconds (503) instead of waiting for a connection.
    connectionTimeoutMillis: 5000,
    // JIT compiling is off: the portal's queries are short, and compiling one took 3.2 s of a
    // 3.4 s statistics query whose cost estimate passed jit_above_cost (docs/performance.md).
    options: ['-c jit=off', ...(schema ? [`-c search_path=${schema}`] : [])].join(' '),
  });
  // An idle connection that PostgreSQL closes (restart, failover) is an 'error' event on the pool;
  // unheard, it would end the process (decision 077). The pool drops that connection and opens a new one when
  // next needed, so service returns by itself once the database does.
  pool.on('error', () => undefined);
  // The same for a connection in use: pg reports its loss to the query too (which fails with a 503),
  // but also as an 'error' event on the connection, which would otherwise end the process.
  pool.on('connect', (client) => client.on('error', () => undefined));
  const queries = queryListeners();
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }), log: queries.log });
  const parsed = new URL(url);
  return {
    db,
    kind: 'postgres',
    description: `postgres ${parsed.hostname}:${parsed.port || 5432}${parsed.pathname}${schema ? ` schema ${schema}` : ''}`,
    onQuery: queries.add,
    poolUse: () => ({ inUse: pool.totalCount - pool.idleCount, idle: pool.idleCount, waiting: pool.waitingCount, max: pool.options.max }),
    close: () => db.destroy(),
  };
}

/** Answers whether the database accepts a query (for /readyz). */
export async function pingDatabase(db: Kysely<Database>): Promise<void> {
  await sql`select 1`.execute(db);
}
