// Everything CI runs: lint, typecheck, build, unit, database (SQLite, and PostgreSQL when
// DATABASE_URL is postgres://…) and end-to-end tests, the fault tests and the short bench with
// its speed budgets (both on SQLite). Ends with one "N passed, N failed" line.
// `npm test -- unit db` runs only the named steps.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const only = new Set(process.argv.slice(2));
const wanted = (step: string) => only.size === 0 || only.has(step);
const reports = mkdtempSync(join(tmpdir(), 'playport-test-'));
const postgresUrl = process.env.DATABASE_URL?.startsWith('postgres') ? process.env.DATABASE_URL : undefined;
let passed = 0;
let failed = 0;
const failures: string[] = [];

function run(step: string, command: string, args: string[], env: Record<string, string | undefined> = {}): boolean {
  console.log(`\n── ${step}: ${command} ${args.join(' ')}`);
  const started = Date.now();
  const result = spawnSync(command, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  const ok = result.status === 0;
  console.log(`── ${step}: ${ok ? 'ok' : `failed (exit ${result.status})`} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  if (!ok) failures.push(step);
  return ok;
}

function countVitest(file: string) {
  if (!existsSync(file)) return;
  const report = JSON.parse(readFileSync(file, 'utf8')) as { numPassedTests: number; numFailedTests: number };
  passed += report.numPassedTests;
  failed += report.numFailedTests;
}

function countPlaywright(file: string) {
  if (!existsSync(file)) return;
  const { stats } = JSON.parse(readFileSync(file, 'utf8')) as { stats: { expected: number; unexpected: number; flaky: number } };
  passed += stats.expected + stats.flaky;
  failed += stats.unexpected;
}

const npx = (args: string[]) => ['exec', '--', ...args];

if (wanted('lint')) run('lint', 'npm', ['run', 'lint', '--silent']);
if (wanted('typecheck')) run('typecheck', 'npm', ['run', 'typecheck', '--silent']);

if (wanted('unit')) {
  const file = join(reports, 'unit.json');
  run('unit', 'npm', npx(['vitest', 'run', '--project', 'unit', '--reporter=default', '--reporter=json', `--outputFile.json=${file}`]));
  countVitest(file);
}

if (wanted('db')) {
  const sqlite = join(reports, 'db-sqlite.json');
  run('db (SQLite)', 'npm', npx(['vitest', 'run', '--project', 'db', '--reporter=default', '--reporter=json', `--outputFile.json=${sqlite}`]), { DATABASE_URL: '' });
  countVitest(sqlite);
  if (postgresUrl) {
    // server/instances.db.test.ts runs two instances of the built server; the SQLite pass has usually built already.
    if (!existsSync('build/server/index.js')) run('build', 'npm', ['run', 'build', '--silent']);
    const pgReport = join(reports, 'db-postgres.json');
    run('db (PostgreSQL)', 'npm', npx(['vitest', 'run', '--project', 'db', '--reporter=default', '--reporter=json', `--outputFile.json=${pgReport}`]), { DATABASE_URL: postgresUrl });
    countVitest(pgReport);
  } else {
    console.log('── db (PostgreSQL): skipped, DATABASE_URL is not postgres://…');
  }
}

if (wanted('e2e')) {
  if (run('build', 'npm', ['run', 'build', '--silent'])) {
    const file = join(reports, 'e2e.json');
    run(`e2e (${postgresUrl ? 'PostgreSQL' : 'SQLite'})`, 'npm', npx(['playwright', 'test']), { PLAYWRIGHT_JSON_OUTPUT_NAME: file, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1' });
    countPlaywright(file);
  }
}

// The fault tests (tests/faults, decision 077): PostgreSQL and Redis stopped under load, SIGKILL
// during writes, SIGTERM draining, a full disk. They start their own PostgreSQL and Redis and
// the built server, whichever database the pass uses, so they run once: in the SQLite pass.
if (wanted('faults') && !postgresUrl) {
  if (existsSync('build/server/index.js') || run('build', 'npm', ['run', 'build', '--silent'])) {
    const file = join(reports, 'faults.json');
    run('faults', 'npm', npx(['vitest', 'run', '--project', 'faults', '--reporter=default', '--reporter=json', `--outputFile.json=${file}`]));
    countVitest(file);
  }
}

// The speed budgets (docs/performance.md): ratios to a static file measured in the same run, so
// a slower machine does not fail them but a slower page does. Needs the build of the e2e step.
if (wanted('bench') && !postgresUrl) {
  if (existsSync('build/server/index.js') || run('build', 'npm', ['run', 'build', '--silent'])) run('bench (short)', 'npm', ['run', 'bench', '--silent', '--', '--short']);
}

console.log(failures.length ? `\nFailed steps: ${failures.join(', ')}` : '\nAll steps passed.');
console.log(`${passed} passed, ${failed} failed`);
process.exit(failures.length ? 1 : 0);
