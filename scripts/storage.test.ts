import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { S3Storage, s3ClientConfig } from '../server/adapters/storage/s3-storage.ts';
import { startS3StandIn } from '../server/testing/s3-stand-in.ts';

/** Runs the storage command as an operator would, answering its exit code and output. */
function storageCommand(args: string[], env: Record<string, string>): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['scripts/storage.ts', ...args], { env: { PATH: process.env.PATH ?? '', ...env }, stdio: 'pipe' });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('close', (code) => resolve({ code, out, err }));
  });
}

describe('npm run storage -- migrate (decision 150)', () => {
  const root = mkdtempSync(join(tmpdir(), 'playport-storage-migrate-'));
  const folders = { UPLOAD_DIR: join(root, 'uploads'), BUILDS_DIR: join(root, 'builds'), EXPORTS_DIR: join(root, 'exports') };
  let standIn: Awaited<ReturnType<typeof startS3StandIn>>;
  let env: Record<string, string>;
  let client: S3Client;
  const bucket = (name: string) => new S3Storage({ client, bucket: 'migrate-test', keyPrefix: `playport/${name}/`, publicPrefix: '/' });

  beforeAll(async () => {
    standIn = await startS3StandIn({ port: 0, directory: join(root, 's3'), bucket: 'migrate-test' });
    env = { ...standIn.env, ...folders, APP_ENV: 'test' };
    client = new S3Client(s3ClientConfig(standIn.settings));
    mkdirSync(join(folders.UPLOAD_DIR, 'avatars', '7'), { recursive: true });
    writeFileSync(join(folders.UPLOAD_DIR, 'avatars', '7', 'abc-64.webp'), 'avatar pixels');
    writeFileSync(join(folders.UPLOAD_DIR, 'cover.png'), Buffer.alloc(300_000, 3));
    mkdirSync(join(folders.BUILDS_DIR, '12', '3', 'Build'), { recursive: true });
    writeFileSync(join(folders.BUILDS_DIR, '12', '3', 'index.html'), '<p>game</p>');
    writeFileSync(join(folders.BUILDS_DIR, '12', '3', 'Build', 'game.wasm'), Buffer.from([0, 97, 115, 109]));
    // Unfinished uploads and a file being written are not copied.
    mkdirSync(join(folders.BUILDS_DIR, '.incoming'), { recursive: true });
    writeFileSync(join(folders.BUILDS_DIR, '.incoming', '12-0123456789abcdef0123456789abcdef'), 'half');
    writeFileSync(join(folders.BUILDS_DIR, '12', '3', 'index.html.a1b2c3.tmp'), 'half');
    mkdirSync(folders.EXPORTS_DIR, { recursive: true });
    writeFileSync(join(folders.EXPORTS_DIR, '5-export.zip'), 'zip bytes');
  });
  afterAll(async () => {
    client.destroy();
    await standIn.stop();
    rmSync(root, { recursive: true, force: true });
  });

  it('copies the three folders into their prefixes, then skips what is already there whole', async () => {
    const first = await storageCommand(['migrate'], env);
    expect(first.code, first.err).toBe(0);
    expect(first.out).toContain('uploads: ');
    expect(first.out).toMatch(/builds: .*: 2 files, 2 copied, 0 already there, 2 checked the same, 2 left out/);
    expect(first.out).toMatch(/exports: .*: 1 files, 1 copied/);
    expect((await bucket('uploads').read('avatars/7/abc-64.webp'))?.toString()).toBe('avatar pixels');
    expect((await bucket('builds').list('')).sort()).toEqual(['12/3/Build/game.wasm', '12/3/index.html']);
    expect((await bucket('exports').read('5-export.zip'))?.toString()).toBe('zip bytes');
    const again = await storageCommand(['migrate', '--kind', 'uploads'], env);
    expect(again.code, again.err).toBe(0);
    expect(again.out).toMatch(/uploads: .*: 2 files, 0 copied, 2 already there, 2 checked the same/);
    expect(again.out).not.toContain('builds:');
  }, 20_000);

  it('finds a damaged and a missing object, exits 1 naming them, and copies them again on the next migrate', async () => {
    expect((await storageCommand(['migrate'], env)).code).toBe(0);
    // The same size, other bytes: only the SHA-256 tells.
    await bucket('builds').put('12/3/index.html', Buffer.from('<p>gamf</p>'));
    await bucket('uploads').delete('cover.png');
    const check = await storageCommand(['check'], env);
    expect(check.code).toBe(1);
    expect(check.err).toContain('builds: 12/3/index.html: SHA-256 differs from the folder');
    expect(check.err).toContain('uploads: cover.png: missing in the storage');
    expect(check.err.match(/: (SHA-256 differs|missing|size)/g)).toHaveLength(2);
    const repair = await storageCommand(['migrate'], env);
    expect(repair.code, repair.err).toBe(0);
    expect(repair.out).toMatch(/uploads: .*: 2 files, 1 copied, 1 already there, 2 checked the same/);
    expect(repair.out).toMatch(/builds: .*: 2 files, 1 copied, 1 already there, 2 checked the same/);
    expect((await bucket('builds').read('12/3/index.html'))?.toString()).toBe('<p>game</p>');
  }, 20_000);

  it('refuses a file whose name cannot be a key, bad arguments, and a run without a bucket', async () => {
    const odd = join(root, 'odd');
    mkdirSync(odd, { recursive: true });
    writeFileSync(join(odd, 'fine.txt'), 'fine');
    writeFileSync(join(odd, 'two words.txt'), 'not a key');
    const result = await storageCommand(['migrate', '--kind', 'exports', '--from', odd], env);
    expect(result.code).toBe(1);
    expect(result.err).toContain('exports: two words.txt: not copied: the name is not a storage key');
    expect((await bucket('exports').read('fine.txt'))?.toString()).toBe('fine');
    const [unknownKind, fromAlone, unknownCommand, withoutBucket, badUrl] = await Promise.all([
      storageCommand(['migrate', '--kind', 'avatars'], env),
      storageCommand(['migrate', '--from', odd], env),
      storageCommand(['copy'], env),
      storageCommand(['migrate'], { ...folders, APP_ENV: 'test' }),
      storageCommand(['migrate'], { ...env, STORAGE_URL: 'http://bucket/x', S3_ACCESS_KEY_ID: '' }),
    ]);
    expect([unknownKind.code, fromAlone.code, unknownCommand.code]).toEqual([2, 2, 2]);
    expect([withoutBucket.code, withoutBucket.err]).toEqual([2, expect.stringContaining('STORAGE_URL is not set')]);
    expect(badUrl.code).toBe(1);
    expect(badUrl.err).toContain('STORAGE_URL: must be s3://bucket or s3://bucket/prefix');
    expect(badUrl.err).toContain('S3_ACCESS_KEY_ID: is required with STORAGE_URL');
    // The secret that was set is named nowhere.
    expect(badUrl.err).not.toContain(env.S3_SECRET_ACCESS_KEY!);
  }, 20_000);
});
