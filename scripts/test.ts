// Everything CI runs: lint, typecheck, build, unit, database (SQLite, and PostgreSQL when
// DATABASE_URL is postgres://…) and end-to-end tests, the fault tests, the short soak run and the
// short bench with its speed budgets (these three on SQLite). Ends with one "N passed, N failed" line.
// `npm test -- unit db` runs only the named steps.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { retryVerdict } from './lib/known-flakes.ts';

const only = new Set(process.argv.slice(2));
const wanted = (step: string) => only.size === 0 || only.has(step);
const reports = mkdtempSync(join(tmpdir(), 'playport-test-'));
const postgresUrl = process.env.DATABASE_URL?.startsWith('postgres') ? process.env.DATABASE_URL : undefined;
let passed = 0;
let failed = 0;
const failures: string[] = [];
/** Browser tests that failed, then passed on their retry: each a defect to fix, named in the summary with what is known of it. */
const retried: string[] = [];
/** Every failed test by file and name: the summary's last lines are often all a CI log keeps. */
const failedTests: string[] = [];
/** Retried journeys tests/known-flakes.json does not list: each fails its step. */
const newRetries: string[] = [];
/** Skipped tests by name: a test that skips where a service is missing must not pass unseen. */
const skippedTests: string[] = [];

function run(step: string, command: string, args: string[], env: Record<string, string | undefined> = {}): boolean {
  console.log(`\n── ${step}: ${command} ${args.join(' ')}`);
  const started = Date.now();
  const result = spawnSync(command, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  const ok = result.status === 0;
  console.log(`── ${step}: ${ok ? 'ok' : `failed (exit ${result.status})`} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  if (!ok) failures.push(step);
  return ok;
}

/** A failure message's first non-empty line, cut to a length a summary can show. */
const firstLine = (text: string | undefined) =>
  text
    ?.split('\n')
    .find((line) => line.trim() !== '')
    ?.slice(0, 300) ?? '';

interface VitestReport {
  numPassedTests: number;
  numFailedTests: number;
  testResults: { name: string; message?: string; assertionResults: { fullName: string; status: string; failureMessages?: string[] }[] }[];
}

function countVitest(file: string, step: string) {
  if (!existsSync(file)) return;
  const report = JSON.parse(readFileSync(file, 'utf8')) as VitestReport;
  passed += report.numPassedTests;
  failed += report.numFailedTests;
  for (const result of report.testResults) {
    const path = result.name.replace(`${process.cwd()}/`, '');
    for (const test of result.assertionResults)
      if (test.status === 'failed') failedTests.push(`[${step}] ${path} › ${test.fullName}\n      ${firstLine(test.failureMessages?.[0])}`);
      else if (test.status === 'skipped' || test.status === 'pending' || test.status === 'todo') skippedTests.push(`[${step}] ${path} › ${test.fullName}`);
    // A file that failed before its tests ran (an import error, a hook's timeout) has no failed test of its own.
    if (result.message && !result.assertionResults.some((test) => test.status === 'failed'))
      failedTests.push(`[${step}] ${path}\n      ${firstLine(result.message)}`);
  }
}

interface PlaywrightSuite {
  title: string;
  specs?: { title: string; file: string; line: number; tests: { projectName: string; status: string }[] }[];
  suites?: PlaywrightSuite[];
}

function countPlaywright(file: string, pass: string) {
  if (!existsSync(file)) return;
  const report = JSON.parse(readFileSync(file, 'utf8')) as { stats: { expected: number; unexpected: number; flaky: number }; suites: PlaywrightSuite[] };
  passed += report.stats.expected + report.stats.flaky;
  failed += report.stats.unexpected;
  const walk = (suite: PlaywrightSuite, path: string[]): void => {
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests) {
        const name = `[${pass}, ${test.projectName}] ${spec.file}:${spec.line} › ${[...path, spec.title].join(' › ')}`;
        if (test.status === 'unexpected') failedTests.push(name);
        if (test.status === 'skipped') skippedTests.push(name);
        if (test.status !== 'flaky') continue;
        // A retry hides a defect: each is named with what tests/known-flakes.json knows of it; a new one fails the step.
        const verdict = retryVerdict(spec.file, [...path, spec.title].join(' › '));
        retried.push(`${name}\n      ${verdict.note}`);
        if (!verdict.passes) newRetries.push(name);
      }
    }
    for (const child of suite.suites ?? []) walk(child, [...path, child.title]);
  };
  for (const suite of report.suites) walk(suite, []);
}

const npx = (args: string[]) => ['exec', '--', ...args];

/** The newest modification time under `path` (a file or a folder), in ms. */
function newestChange(path: string): number {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(
    stat.mtimeMs,
    ...readdirSync(path)
      .filter((entry) => entry !== 'node_modules' && entry !== 'uploads')
      .map((entry) => newestChange(join(path, entry))),
  );
}

/** Whether build/ was made after every change to what goes into it: the PostgreSQL pass reuses the SQLite pass's build. */
function buildIsCurrent(): boolean {
  const entry = 'build/server/index.js';
  if (!existsSync(entry)) return false;
  const inputs = [
    'app',
    'common',
    'server',
    'public',
    'games',
    'sdk',
    'content',
    'package-lock.json',
    'vite.config.ts',
    'react-router.config.ts',
    'scripts/build-service-worker.ts',
    'scripts/compress-assets.ts',
  ];
  return statSync(entry).mtimeMs > Math.max(...inputs.map(newestChange));
}

/** Builds unless the build is current; false when a build was needed and failed. */
function built(): boolean {
  if (buildIsCurrent()) {
    console.log('\n── build: current, reused');
    return true;
  }
  return run('build', 'npm', ['run', 'build', '--silent']);
}

if (wanted('lint')) run('lint', 'npm', ['run', 'lint', '--silent']);
if (wanted('typecheck')) run('typecheck', 'npm', ['run', 'typecheck', '--silent']);

if (wanted('unit')) {
  const file = join(reports, 'unit.json');
  run('unit', 'npm', npx(['vitest', 'run', '--project', 'unit', '--reporter=default', '--reporter=json', `--outputFile.json=${file}`]));
  countVitest(file, 'unit');
}

// `db` runs the database tests on SQLite, then on PostgreSQL when DATABASE_URL names it;
// `db-postgres` only the second (CI's PostgreSQL pass, after its SQLite pass ran the first).
if (wanted('db')) {
  const sqlite = join(reports, 'db-sqlite.json');
  run('db (SQLite)', 'npm', npx(['vitest', 'run', '--project', 'db', '--reporter=default', '--reporter=json', `--outputFile.json=${sqlite}`]), {
    DATABASE_URL: '',
  });
  countVitest(sqlite, 'db (SQLite)');
}
if (wanted('db') || wanted('db-postgres')) {
  if (postgresUrl) {
    // server/instances.db.test.ts runs two instances of the built server.
    built();
    const pgReport = join(reports, 'db-postgres.json');
    run('db (PostgreSQL)', 'npm', npx(['vitest', 'run', '--project', 'db', '--reporter=default', '--reporter=json', `--outputFile.json=${pgReport}`]), {
      DATABASE_URL: postgresUrl,
    });
    countVitest(pgReport, 'db (PostgreSQL)');
  } else {
    console.log('── db (PostgreSQL): skipped, DATABASE_URL is not postgres://…');
  }
}

if (wanted('e2e')) {
  if (built()) {
    const file = join(reports, 'e2e.json');
    const pass = postgresUrl ? 'PostgreSQL' : 'SQLite';
    run(`e2e (${pass})`, 'npm', npx(['playwright', 'test']), { PLAYWRIGHT_JSON_OUTPUT_NAME: file, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1' });
    const before = newRetries.length;
    countPlaywright(file, pass);
    if (newRetries.length > before && !failures.includes(`e2e (${pass})`)) failures.push(`e2e (${pass}): a journey passed only on its retry`);
    // Decision 150: the journeys that read and write builds (the engine games, a Studio build shipped)
    // again with the files in a bucket of the local S3 stand-in. Once: in the SQLite pass.
    if (!postgresUrl) {
      const s3File = join(reports, 'e2e-s3.json');
      const s3Pass = 'object storage';
      const journeys = ['tests/e2e/games/engine-games.spec.ts', 'tests/e2e/studio/builds.spec.ts', 'tests/e2e/studio/preview.spec.ts'];
      run(`e2e (${s3Pass})`, 'npm', npx(['playwright', 'test', ...journeys, '--project', 'desktop']), {
        PLAYWRIGHT_JSON_OUTPUT_NAME: s3File,
        PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1',
        E2E_STORAGE: 's3',
      });
      const beforeS3 = newRetries.length;
      countPlaywright(s3File, s3Pass);
      if (newRetries.length > beforeS3 && !failures.includes(`e2e (${s3Pass})`)) failures.push(`e2e (${s3Pass}): a journey passed only on its retry`);
    }
  }
}

// The fault tests (tests/faults, decision 077): PostgreSQL and Redis stopped under load, SIGKILL
// during writes, SIGTERM draining, a full disk. They start their own PostgreSQL and Redis and
// the built server, whichever database the pass uses, so they run once: in the SQLite pass.
if (wanted('faults') && !postgresUrl) {
  if (built()) {
    const file = join(reports, 'faults.json');
    run('faults', 'npm', npx(['vitest', 'run', '--project', 'faults', '--reporter=default', '--reporter=json', `--outputFile.json=${file}`]));
    countVitest(file, 'faults');
  }
}

// A compressed day of traffic at a hundredth of its counts (npm run soak -- --short; docs/operations.md):
// two instances behind a proxy while PostgreSQL, Redis, an instance and the storage fail. It runs its
// own PostgreSQL and Redis, so once: in the SQLite pass. About 4 minutes.
if (wanted('soak') && !postgresUrl) {
  if (built()) run('soak (short)', 'npm', ['run', 'soak', '--silent', '--', '--short']);
}

// The speed budgets (docs/performance.md): ratios to a static file measured in the same run, so
// a slower machine does not fail them but a slower page does. Needs the build of the e2e step.
if (wanted('bench') && !postgresUrl) {
  if (built()) run('bench (short)', 'npm', ['run', 'bench', '--silent', '--', '--short']);
}

console.log(failures.length ? `\nFailed steps: ${failures.join(', ')}` : '\nAll steps passed.');
if (failedTests.length > 0) {
  console.log(`Failed tests: ${failedTests.length}`);
  for (const name of failedTests) console.log(`  ${name}`);
}
if (retried.length > 0) {
  console.log(`Retried, then passed: ${retried.length} (each a defect to fix; a known flake counts as passed, a new one fails the run):`);
  for (const name of retried) console.log(`  ${name}`);
}
if (skippedTests.length > 0) {
  console.log(`Skipped: ${skippedTests.length}`);
  for (const name of skippedTests) console.log(`  ${name}`);
}
console.log(`${passed} passed, ${failed} failed, ${retried.length} retried, ${skippedTests.length} skipped`);
process.exit(failures.length ? 1 : 0);
