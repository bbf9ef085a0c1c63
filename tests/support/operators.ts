import { execFile } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const COMMAND = resolve(import.meta.dirname, '../../scripts/operators.ts');

/**
 * Makes a member an operator the only way there is (decision 095): the `operators` command on the
 * server, against the database of this run's server (playwright.config.ts names it).
 */
export async function grantOperator(userId: number): Promise<void> {
  const runId = process.env.E2E_RUN_ID;
  if (!runId) throw new Error('E2E_RUN_ID is set by playwright.config.ts');
  const onPostgres = process.env.DATABASE_URL?.startsWith('postgres') ?? false;
  const env = {
    ...process.env,
    LOG_LEVEL: 'silent',
    DATABASE_URL: onPostgres ? process.env.DATABASE_URL! : `file:${join(tmpdir(), `playport-e2e-${runId}.sqlite`)}`,
    ...(onPostgres ? { DATABASE_SCHEMA: `e2e_${runId}` } : {}),
  };
  const { stdout } = await run(process.execPath, [COMMAND, 'grant', String(userId)], { env });
  if (!stdout.includes(`Member ${userId} is an operator.`)) throw new Error(`operators grant ${userId}: ${stdout}`);
}
