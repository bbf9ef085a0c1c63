import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

/*
 * The tus client of the playport-studio package (decision 123): after a dropped connection it asks
 * the server where the upload stands and goes on from there, and starts again when the server no
 * longer knows the upload, as tus-js-client did before it.
 */

interface TusAnswer {
  status: number;
  body: string;
}
type TusUpload = (options: {
  endpoint: string;
  file: string;
  size: number;
  headers: Record<string, string>;
  chunkSize?: number;
  retryDelays?: number[];
}) => Promise<TusAnswer>;

// Plain JavaScript of the package, loaded as a pipeline loads it.
const tusModule = resolve(import.meta.dirname, '../../../studio-cli/lib/tus.js');
const { tusUpload } = (await import(tusModule)) as { tusUpload: TusUpload };

const read = (request: IncomingMessage) =>
  new Promise<Buffer>((done) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => done(Buffer.concat(chunks)));
  });

describe('the playport-studio tus client', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'playport-tus-'));
  const file = join(scratch, 'build.zip');
  const content = Buffer.from('0123456789abcdefghijklmnopqrstuvwxyz'.repeat(3));
  let server: Server;
  let endpoint: string;
  const log: string[] = [];
  const state = { uploads: new Map<string, Buffer>(), dropPatch: 0, forgetAfterDrop: false, created: 0 };

  beforeAll(async () => {
    writeFileSync(file, content);
    server = createServer(async (request, response) => {
      log.push(`${request.method} ${request.url}`);
      if (request.headers['tus-resumable'] !== '1.0.0' || request.headers.authorization !== 'Bearer pk_1_key') return response.writeHead(400).end();
      if (request.method === 'POST') {
        const id = String((state.created += 1));
        state.uploads.set(id, Buffer.alloc(0));
        return response.writeHead(201, { location: `/files/${id}` }).end();
      }
      const id = request.url!.split('/').at(-1)!;
      const stored = state.uploads.get(id);
      if (!stored) return response.writeHead(404).end();
      if (request.method === 'HEAD') return response.writeHead(200, { 'upload-offset': String(stored.length) }).end();
      const body = await read(request);
      if (Number(request.headers['upload-offset']) !== stored.length) return response.writeHead(409).end();
      const now = Buffer.concat([stored, body]);
      state.uploads.set(id, now);
      if (state.dropPatch > 0 && (state.dropPatch -= 1) === 0) {
        // The bytes arrived, the answer never does: the connection drops.
        if (state.forgetAfterDrop) state.uploads.delete(id);
        return request.socket.destroy();
      }
      if (now.length === content.length) return response.writeHead(200, { 'upload-offset': String(now.length) }).end('{"data":{"id":7}}');
      return response.writeHead(204, { 'upload-offset': String(now.length) }).end();
    });
    await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
    endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}/uploads`;
  });
  afterEach(() => {
    log.length = 0;
    Object.assign(state, { uploads: new Map(), dropPatch: 0, forgetAfterDrop: false, created: 0 });
  });
  afterAll(async () => {
    await new Promise((done) => server.close(done));
    rmSync(scratch, { recursive: true, force: true });
  });

  const upload = () =>
    tusUpload({ endpoint, file, size: content.length, headers: { authorization: 'Bearer pk_1_key' }, chunkSize: 40, retryDelays: [0, 0, 0] });

  it('sends the file in pieces and answers the last PATCH', async () => {
    expect(await upload()).toMatchObject({ status: 200, body: '{"data":{"id":7}}' });
    expect(log).toEqual(['POST /uploads', 'PATCH /files/1', 'PATCH /files/1', 'PATCH /files/1']);
    expect(state.uploads.get('1')).toEqual(content);
  });

  it('resumes after a dropped connection from the offset the server holds', async () => {
    state.dropPatch = 1;
    expect(await upload()).toMatchObject({ status: 200 });
    expect(log).toEqual(['POST /uploads', 'PATCH /files/1', 'HEAD /files/1', 'PATCH /files/1', 'PATCH /files/1']);
    expect(state.uploads.get('1')).toEqual(content);
  });

  it('starts again when the server forgot the upload', async () => {
    Object.assign(state, { dropPatch: 2, forgetAfterDrop: true });
    expect(await upload()).toMatchObject({ status: 200 });
    expect(log).toEqual([
      'POST /uploads',
      'PATCH /files/1',
      'PATCH /files/1',
      'HEAD /files/1',
      'POST /uploads',
      'PATCH /files/2',
      'PATCH /files/2',
      'PATCH /files/2',
    ]);
    expect(state.uploads.get('2')).toEqual(content);
  });

  it('gives up on a refusal without retrying it', async () => {
    await expect(
      tusUpload({ endpoint, file, size: content.length, headers: { authorization: 'Bearer pk_1_wrong' }, retryDelays: [0, 0, 0] }),
    ).rejects.toMatchObject({ answer: { status: 400 } });
    expect(log).toEqual(['POST /uploads']);
  });
});
