import { execFile } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * Makes a member an operator the only way there is (decision 095): the command on the server,
 * against the database of this test run (playwright.config.ts names it by E2E_RUN_ID).
 */
export async function grantOperator(userId: number): Promise<void> {
  const runId = process.env.E2E_RUN_ID!;
  const onPostgres = process.env.DATABASE_URL?.startsWith('postgres') ?? false;
  const env = {
    ...process.env,
    LOG_LEVEL: 'silent',
    DATABASE_URL: onPostgres ? process.env.DATABASE_URL! : `file:${join(tmpdir(), `playport-e2e-${runId}.sqlite`)}`,
    ...(onPostgres ? { DATABASE_SCHEMA: `e2e_${runId}` } : {}),
  };
  await run(process.execPath, [resolve('scripts/operators.ts'), 'grant', String(userId)], { env });
}
