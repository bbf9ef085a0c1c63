import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

// The real server entry started with a database it cannot reach: a process that must stop
// cleanly, so it runs with the other process-level tests rather than in the unit project.

/** Starts the real server entry with an unreachable database; resolves with its exit and output. */
function startServer(env: Record<string, string>): Promise<{ code: number | null; stderr: string; stdout: string; ms: number }> {
  const started = Date.now();
  return new Promise((done) => {
    const child = spawn(process.execPath, [resolve('server/main.ts')], {
      env: { ...process.env, LOG_LEVEL: 'silent', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('exit', (code) => done({ code, stderr, stdout, ms: Date.now() - started }));
  });
}

describe('start-up with an unreachable database', () => {
  it('PostgreSQL: one clear line naming DATABASE_URL without its password, retries, then exits non-zero without a stack trace', async () => {
    const result = await startServer({ DATABASE_URL: 'postgres://portal:hunter2-secret@127.0.0.1:9/portal', DATABASE_CONNECT_TIMEOUT_SECONDS: '2' });
    expect(result.code).toBe(1);
    expect(result.ms).toBeGreaterThanOrEqual(1500);
    const lines = result.stderr.trim().split('\n');
    expect(lines).toEqual([
      'Database unreachable at DATABASE_URL=postgres://portal:***@127.0.0.1:9/portal: ECONNREFUSED connect ECONNREFUSED 127.0.0.1:9; retrying for 2 s.',
      expect.stringMatching(
        /^Database unreachable at DATABASE_URL=postgres:\/\/portal:\*\*\*@127\.0\.0\.1:9\/portal: ECONNREFUSED connect ECONNREFUSED 127\.0\.0\.1:9; gave up after \d+ attempts\.$/,
      ),
    ]);
    expect(result.stderr + result.stdout).not.toContain('hunter2');
    expect(result.stderr).not.toMatch(/^\s+at /m);
  }, 20_000);

  it('a DATABASE_URL that does not parse stops the start at once, naming DATABASE_URL, without retrying', async () => {
    // Left to retry, it would wait DATABASE_CONNECT_TIMEOUT_SECONDS (60 s by default); the bound leaves room for a busy machine.
    const result = await startServer({ DATABASE_URL: 'postgres://portal:hunter2-secret@db.internal:notaport/portal' });
    expect(result.code).toBe(1);
    expect(result.ms).toBeLessThan(30_000);
    expect(result.stderr).toContain('DATABASE_URL: is not a valid URL');
    expect(result.stderr).not.toContain('Database unreachable');
    expect(result.stderr + result.stdout).not.toContain('hunter2');
    expect(result.stderr).not.toMatch(/^\s+at /m);
  }, 45_000);

  it('SQLite: a path that cannot be created gets the same one line and exit status', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'playport-unreachable-'));
    const blocker = join(folder, 'not-a-folder');
    writeFileSync(blocker, 'a file where the database folder should be');
    try {
      const result = await startServer({ DATABASE_URL: `file:${blocker}/db.sqlite`, DATABASE_CONNECT_TIMEOUT_SECONDS: '0' });
      expect(result.code).toBe(1);
      expect(result.stderr.trim().split('\n')).toEqual([
        expect.stringMatching(new RegExp(`^Database unreachable at DATABASE_URL=file:${blocker}/db\\.sqlite: EEXIST .*; gave up after 1 attempt\\.$`)),
      ]);
      expect(result.stderr).not.toMatch(/^\s+at /m);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  }, 20_000);
});
