// A full disk under SQLite: writes answer 503 with Retry-After (never a 500 or a crash), reads go
// on, writes succeed again once space returns, and the database passes its integrity check
// (decision 077). The disk is a small tmpfs mounted for the test, which needs root; elsewhere the
// test is skipped and says so.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, copyFileSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { afterAll, expect, inject, it } from 'vitest';
import { Client, killServers, startServer, waitFor } from './support.ts';

const disk = mkdtempSync(join(tmpdir(), 'playport-faults-disk-'));
const mounted = (() => {
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=4m', 'tmpfs', disk], { stdio: 'pipe' });
    return true;
  } catch (error) {
    console.warn(`disk-full test skipped: cannot mount a tmpfs (${(error as Error).message.split('\n')[0]})`);
    return false;
  }
})();

afterAll(async () => {
  await killServers();
  if (mounted) execFileSync('umount', [disk]);
  rmSync(disk, { recursive: true, force: true });
});

/** Writes zeros into `path` until the disk refuses more. */
function fillDisk(path: string): void {
  const fd = openSync(path, 'w');
  const block = Buffer.alloc(64 * 1024);
  try {
    for (;;) writeSync(fd, block);
  } catch (error) {
    if ((error as { code?: string }).code !== 'ENOSPC') throw error;
  } finally {
    closeSync(fd);
  }
}

it.skipIf(!mounted)(
  'answers 503 while the disk is full and keeps the database intact',
  async () => {
    const file = join(disk, 'playport.sqlite');
    copyFileSync(inject('faults').sqliteTemplate, file);
    const server = await startServer({ DATABASE_URL: `file:${file}` });
    const client = new Client(server.origin);
    const member = await client.newMember(`disk_${randomBytes(4).toString('hex')}`);
    const apps = (await client.call<{ items: Array<{ id: number }> }>('GET', '/app/list/')).data.items;
    const auth = { token: member.token };
    const value = 'x'.repeat(30_000);
    const save = (n: number) => client.call('PUT', `/game/saves/${apps[n % apps.length]!.id}/slot-${n}`, { ...auth, body: { value } });

    const acknowledged: number[] = [];
    for (let n = 0; n < 5; n++) if ((await save(n)).status === 200) acknowledged.push(n);
    expect(acknowledged).toHaveLength(5);

    fillDisk(join(disk, 'filler'));
    const statuses: number[] = [];
    for (let n = 5; n < 40; n++) {
      const answer = await save(n);
      statuses.push(answer.status);
      if (answer.status === 200) acknowledged.push(n);
      else expect(answer, server.output()).toMatchObject({ status: 503, code: 503, message: 'The service is temporarily unavailable.' });
      if (answer.status === 503) expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    console.info(
      `disk full: ${statuses.filter((s) => s === 503).length} of ${statuses.length} writes answered 503, ${statuses.filter((s) => s === 200).length} fitted in space already allocated`,
    );
    expect(statuses).toContain(503);
    // Reads go on while no write fits.
    expect((await client.call('GET', '/member/info/', auth)).status).toBe(200);
    expect(server.child.exitCode).toBeNull();

    rmSync(join(disk, 'filler'));
    const freedAt = Date.now();
    await waitFor('writes to succeed again', async () => ((await save(1000)).status === 200 ? true : undefined), 10_000, 50);
    console.info(`disk full: writes accepted again ${Date.now() - freedAt} ms after space returned`);
    await server.stop();

    const database = new SQLite(file, { readonly: true });
    try {
      expect(database.pragma('integrity_check', { simple: true })).toBe('ok');
      const keys = database.prepare('select key from game_saves').all() as Array<{ key: string }>;
      for (const n of acknowledged) expect(keys.map((row) => row.key)).toContain(`slot-${n}`);
    } finally {
      database.close();
    }
  },
  90_000,
);
