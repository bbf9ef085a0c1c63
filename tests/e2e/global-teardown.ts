import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

/** Removes the run's database: the SQLite files or the PostgreSQL schema. */
export default async function globalTeardown() {
  const runId = process.env.E2E_RUN_ID;
  if (!runId) return;
  if (process.env.DATABASE_URL?.startsWith('postgres')) {
    const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await client.connect();
    await client.query(`DROP SCHEMA IF EXISTS e2e_${runId} CASCADE`);
    await client.end();
  }
  for (const suffix of ['', '-wal', '-shm']) rmSync(join(tmpdir(), `playport-e2e-${runId}.sqlite${suffix}`), { force: true });
  rmSync(join(tmpdir(), `playport-e2e-uploads-${runId}`), { recursive: true, force: true });
  rmSync(join(tmpdir(), `playport-e2e-s3-${runId}`), { recursive: true, force: true });
}
