import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from './client.ts';
import { migrateToLatest } from './migrate.ts';

/*
 * Several instances starting at once on a new PostgreSQL database each run the migrations; the
 * advisory lock in migrateToLatest lets one apply them while the others wait and then find
 * nothing to do (decision 076).
 */
const postgresUrl = process.env.DATABASE_URL?.startsWith('postgres') ? process.env.DATABASE_URL : undefined;

describe.skipIf(!postgresUrl)('migrations started by several instances at once', () => {
  const schema = `t_${randomBytes(6).toString('hex')}`;
  afterAll(async () => {
    const admin = new pg.Client({ connectionString: postgresUrl });
    await admin.connect();
    await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await admin.end();
  });

  it('are applied once, and every start succeeds', async () => {
    const handles = await Promise.all([1, 2, 3].map(() => openDatabase(postgresUrl!, { schema, poolSize: 3 })));
    try {
      const results = await Promise.all(handles.map((handle) => migrateToLatest(handle.db, handle.kind)));
      const applied = results.flat().map((result) => result.migrationName);
      // Every migration ran exactly once, in one of the three.
      expect(applied.length).toBe(new Set(applied).size);
      expect(applied).toContain('0001-foundation');
      const recorded = await handles[0]!.db
        .selectFrom('kysely_migration' as never)
        .select('name' as never)
        .execute();
      expect(recorded.length).toBe(applied.length);
    } finally {
      await Promise.all(handles.map((handle) => handle.close()));
    }
  });
});
