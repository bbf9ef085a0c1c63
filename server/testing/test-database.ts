import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import pg from 'pg';
import { type DatabaseHandle, openDatabase } from '../db/client.ts';
import { migrateToLatest } from '../db/migrate.ts';
import type { Database } from '../db/schema.ts';

/** The database the db tests run on: PostgreSQL when DATABASE_URL says so, else SQLite. */
const testDatabaseUrl = process.env.DATABASE_URL?.startsWith('postgres') ? process.env.DATABASE_URL : 'file:';

export interface TestDatabase extends DatabaseHandle {
  drop(): Promise<void>;
  /** Another handle (own connections) on the same database, as a second server instance has. */
  reopen(): Promise<DatabaseHandle>;
  /** How another process reaches this database: DATABASE_URL and, on PostgreSQL, DATABASE_SCHEMA. */
  env: Record<string, string>;
}

/**
 * A fresh, migrated database for one test file: a temporary SQLite file, or a new
 * PostgreSQL schema. `drop()` removes it.
 */
export async function openTestDatabase(): Promise<TestDatabase> {
  const suffix = randomBytes(6).toString('hex');
  if (testDatabaseUrl.startsWith('postgres')) {
    const schema = `t_${suffix}`;
    const handle = await openDatabase(testDatabaseUrl, { schema, poolSize: 4 });
    await migrateToLatest(handle.db, handle.kind);
    return {
      ...handle,
      reopen: () => openDatabase(testDatabaseUrl, { schema, poolSize: 4 }),
      env: { DATABASE_URL: testDatabaseUrl, DATABASE_SCHEMA: schema },
      async drop() {
        await handle.close();
        const admin = new pg.Client({ connectionString: testDatabaseUrl });
        await admin.connect();
        await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
        await admin.end();
      },
    };
  }
  const file = join(tmpdir(), `playport-test-${suffix}.sqlite`);
  const handle = await openDatabase(`file:${file}`);
  await migrateToLatest(handle.db, handle.kind);
  return {
    ...handle,
    reopen: () => openDatabase(`file:${file}`),
    env: { DATABASE_URL: `file:${file}` },
    async drop() {
      await handle.close();
      for (const extra of ['', '-wal', '-shm']) rmSync(file + extra, { force: true });
    },
  };
}

/** How many rows a table holds now (a test's before and after). */
export async function rowCount(db: Kysely<Database>, table: keyof Database): Promise<number> {
  const row = await db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
