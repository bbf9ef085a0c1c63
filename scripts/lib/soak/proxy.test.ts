// The soak run's proxy and storage fault: what the run's verdicts rest on.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../server/config.ts';
import { fileStoragesFor } from '../../../server/services/outside-systems.ts';
import { waitFor } from '../processes.ts';
import { startFolderStorage, startObjectStorage } from './storage.ts';

const PROXY = 3985;
const UPSTREAMS = [3986, 3987];

/** An upstream that answers its own port, and counts what it was sent. */
function upstream(port: number): Promise<{ server: Server; hits: number; forwardedFor: string[] }> {
  const state = { server: null as unknown as Server, hits: 0, forwardedFor: [] as string[] };
  state.server = createServer((request, response) => {
    state.hits++;
    state.forwardedFor.push(String(request.headers['x-forwarded-for']));
    if (request.url === '/die') {
      request.socket.destroy();
      return;
    }
    response.end(String(port));
  });
  return new Promise((done) => state.server.listen(port, '127.0.0.1', () => done(state)));
}

const get = async (path = '/') => {
  const response = await fetch(`http://127.0.0.1:${PROXY}${path}`);
  return { status: response.status, text: await response.text() };
};

describe('the soak proxy', () => {
  let proxy: ChildProcess;
  let first: Awaited<ReturnType<typeof upstream>>;
  let second: Awaited<ReturnType<typeof upstream>>;

  beforeAll(async () => {
    first = await upstream(UPSTREAMS[0]!);
    second = await upstream(UPSTREAMS[1]!);
    proxy = spawn(process.execPath, [resolve(import.meta.dirname, 'proxy.ts'), JSON.stringify([{ port: PROXY, upstreams: UPSTREAMS }])], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    await new Promise((done) => proxy.stdout!.once('data', done));
  });
  afterAll(() => {
    proxy?.kill('SIGKILL');
    first?.server.close();
    second?.server.close();
  });

  it('serves the instances in turn and tells each the client address', async () => {
    const answers = [await get(), await get(), await get(), await get()];
    expect(answers.map((a) => a.text).sort()).toEqual(['3986', '3986', '3987', '3987']);
    expect(first.forwardedFor.at(-1)).toBe('127.0.0.1');
  });

  it('answers 502 for a request an instance drops, without trying the other', async () => {
    const before = first.hits + second.hits;
    const answers = [await get('/die'), await get('/die')];
    expect(answers.map((a) => a.status)).toEqual([502, 502]);
    // One attempt each: nothing was retried on the other instance.
    expect(first.hits + second.hits - before).toBe(2);
  });

  it('takes out an instance that refuses connections and puts it back once it listens again', async () => {
    await new Promise((done) => second.server.close(done));
    second.server.closeAllConnections();
    const answers: number[] = [];
    for (let n = 0; n < 6; n++) answers.push((await get()).status);
    // At most the one request that found it gone is lost; the rest go to the other.
    expect(answers.filter((status) => status === 502).length).toBeLessThanOrEqual(1);
    expect(answers.filter((status) => status === 200).length).toBeGreaterThanOrEqual(5);
    await new Promise<void>((done) => second.server.listen(UPSTREAMS[1], '127.0.0.1', done));
    await waitFor('the instance back in turn', async () => ((await get()).text === '3987' ? true : undefined), 5000, 50);
  });
});

describe('the folder storage', () => {
  it('fails every read and write while stopped and has everything back after start', async () => {
    const directory = join(mkdtempSync(join(tmpdir(), 'playport-soak-storage-')), 'storage');
    const storage = await startFolderStorage({ directory });
    const file = join(storage.env.UPLOAD_DIR!, 'kept.txt');
    writeFileSync(file, 'kept');
    await storage.stop();
    expect(() => readFileSync(file)).toThrow(/ENOTDIR/);
    expect(() => writeFileSync(join(storage.env.BUILDS_DIR!, 'new.txt'), 'x')).toThrow(/ENOTDIR/);
    await storage.start();
    expect(readFileSync(file, 'utf8')).toBe('kept');
    await storage.start();
    expect(readFileSync(file, 'utf8')).toBe('kept');
    await storage.remove();
    expect(existsSync(directory)).toBe(false);
    rmSync(join(directory, '..'), { recursive: true, force: true });
  });
});

describe('the object storage', () => {
  it('refuses every request while stopped and serves every object again after start', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'playport-soak-bucket-'));
    const storage = await startObjectStorage({ directory, port: 3988 });
    // The uploads storage as an instance given the storage's environment builds it.
    const bucket = fileStoragesFor(loadConfig({ APP_ENV: 'test', ...storage.env })).uploads;
    await bucket.put('kept.txt', Buffer.from('kept'));
    await storage.stop();
    await expect(bucket.read('kept.txt')).rejects.toThrow();
    await expect(bucket.put('new.txt', Buffer.from('x'))).rejects.toThrow();
    await storage.start();
    await storage.start();
    expect((await bucket.read('kept.txt'))?.toString()).toBe('kept');
    expect(await bucket.read('new.txt')).toBeNull();
    await storage.remove();
    expect(existsSync(directory)).toBe(false);
  });
});
