import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type DatabaseHandle, openDatabase } from '../../server/db/client.ts';

/**
 * The end-to-end run's own database (playwright.config.ts: a SQLite file, or the run's schema on
 * PostgreSQL), for a journey that must set up what no page offers yet. Close it when done.
 */
export function openRunDatabase(): Promise<DatabaseHandle> {
  const runId = process.env.E2E_RUN_ID;
  if (!runId) throw new Error('E2E_RUN_ID is not set: run through playwright.config.ts');
  const url = process.env.DATABASE_URL;
  return url?.startsWith('postgres')
    ? openDatabase(url, { poolSize: 1, schema: `e2e_${runId}` })
    : openDatabase(`file:${join(tmpdir(), `playport-e2e-${runId}.sqlite`)}`);
}
