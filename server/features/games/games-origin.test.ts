import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '#server/config.ts';
import type { HostedGame } from '#server/features/catalogue/catalogue.service.ts';
import { buildGamesOrigin } from './games-origin.ts';

const config = loadConfig({ PORT: '3000' });
const GAMES: Record<string, HostedGame> = {
  'engine.games.localhost': { slug: 'engine', origin: 'http://engine.games.localhost:3001', backendOrigins: ['https://api.example.com'] },
  'plain.games.localhost': { slug: 'plain', origin: 'http://plain.games.localhost:3001', backendOrigins: [] },
};
const WASM = Buffer.from([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00]);

describe('the games origin', () => {
  let app: FastifyInstance;
  let root: string;
  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'playport-games-'));
    const engine = join(root, 'games', 'engine');
    mkdirSync(join(engine, 'Build'), { recursive: true });
    writeFileSync(join(engine, 'index.html'), '<!doctype html><title>Engine</title>');
    writeFileSync(join(engine, 'Build', 'game.wasm'), WASM);
    writeFileSync(join(engine, 'Build', 'game.wasm.br'), brotliCompressSync(WASM));
    writeFileSync(join(engine, 'Build', 'game.data.gz'), gzipSync(Buffer.alloc(4096, 7)));
    writeFileSync(join(engine, 'Build', 'code.0123abcd89.js'), 'postMessage(1)');
    writeFileSync(join(engine, 'level.bin'), Buffer.from(Array.from({ length: 100 }, (_, i) => i)));
    writeFileSync(join(engine, '.secret'), 'no');
    mkdirSync(join(root, 'games', 'plain'));
    writeFileSync(join(root, 'games', 'plain', 'index.html'), '<!doctype html><title>Plain</title>');
    symlinkSync(join(root, 'games', 'plain', 'index.html'), join(engine, 'other.html'));
    mkdirSync(join(root, 'games', 'shared'));
    writeFileSync(join(root, 'games', 'shared', 'game-shell.js'), 'window.GameShell = {};');
    mkdirSync(join(root, 'sdk', 'v1'), { recursive: true });
    writeFileSync(join(root, 'sdk', 'v1', 'playport.js'), "const served = '__PLAYPORT_PORTAL_ORIGIN__';");
    app = await buildGamesOrigin({
      config,
      catalogue: { hostedGame: async (hostname: string) => GAMES[hostname] ?? null },
      gamesDir: join(root, 'games'),
      sdkDir: join(root, 'sdk'),
      logger: false,
    });
  });
  afterAll(() => app.close());

  const get = (host: string, url: string, headers: Record<string, string> = {}) => app.inject({ method: 'GET', url, headers: { host, ...headers } });

  it('serves a game on its own host with the policy that lets it run and limits where it connects', async () => {
    const response = await get('engine.games.localhost:3001', '/index.html?locale=en');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    const policy = String(response.headers['content-security-policy']);
    expect(policy).toContain('sandbox allow-scripts allow-same-origin allow-pointer-lock');
    expect(policy).toContain("'wasm-unsafe-eval'");
    expect(policy).toContain("connect-src 'self' data: blob: https://api.example.com;");
    expect(policy).toContain('frame-ancestors http://localhost:3000');
    expect(response.headers['set-cookie']).toBeUndefined();
    // A game that declared nothing connects to its own origin only.
    const plain = String((await get('plain.games.localhost:3001', '/')).headers['content-security-policy']);
    expect(plain).toContain("connect-src 'self' data: blob:;");
    // A worker's script carries the policy too, without the document-only sandbox.
    const worker = String((await get('engine.games.localhost:3001', '/Build/code.0123abcd89.js')).headers['content-security-policy']);
    expect(worker).toContain("connect-src 'self' data: blob: https://api.example.com");
    expect(worker).not.toContain('sandbox');
  });

  it('serves engine builds as engines expect: WebAssembly, precompressed files by name, ranges, long caching of hashed names', async () => {
    const wasm = await get('engine.games.localhost:3001', '/Build/game.wasm');
    expect(wasm.headers['content-type']).toBe('application/wasm');
    expect(wasm.rawPayload).toEqual(WASM);

    const brotli = await get('engine.games.localhost:3001', '/Build/game.wasm.br');
    expect(brotli.statusCode).toBe(200);
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotli.headers['content-type']).toBe('application/wasm');
    expect(brotliDecompressSync(brotli.rawPayload)).toEqual(WASM);

    const gzipped = await get('engine.games.localhost:3001', '/Build/game.data.gz');
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    expect(gzipped.headers['content-type']).toBe('application/octet-stream');

    // A browser that accepts brotli gets the precompressed copy of a file asked for by its plain name.
    const chosen = await get('engine.games.localhost:3001', '/Build/game.wasm', { 'accept-encoding': 'br' });
    expect(chosen.headers['content-encoding']).toBe('br');
    expect(chosen.headers['content-type']).toBe('application/wasm');

    // Text is compressed on the way; an engine file goes as it is, with its length (a game's loading progress).
    writeFileSync(join(root, 'games', 'engine', 'big.js'), 'x'.repeat(4096));
    writeFileSync(join(root, 'games', 'engine', 'big.wasm'), Buffer.alloc(4096, 1));
    expect((await get('engine.games.localhost:3001', '/big.js', { 'accept-encoding': 'br' })).headers['content-encoding']).toBe('br');
    const engineFile = await get('engine.games.localhost:3001', '/big.wasm', { 'accept-encoding': 'br, gzip' });
    expect(engineFile.headers['content-encoding']).toBeUndefined();
    expect(engineFile.headers['content-length']).toBe('4096');

    const range = await get('engine.games.localhost:3001', '/level.bin', { range: 'bytes=10-19' });
    expect(range.statusCode).toBe(206);
    expect(range.headers['content-range']).toBe('bytes 10-19/100');
    expect([...range.rawPayload]).toEqual([10, 11, 12, 13, 14, 15, 16, 17, 18, 19]);

    expect((await get('engine.games.localhost:3001', '/Build/code.0123abcd89.js')).headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect((await get('engine.games.localhost:3001', '/level.bin')).headers['cache-control']).toBe('public, max-age=300, must-revalidate');
  });

  it('serves the SDK knowing the portal origin, and the house scripts', async () => {
    const sdk = await get('engine.games.localhost:3001', '/sdk/v1/playport.js');
    expect(sdk.body).toBe("const served = 'http://localhost:3000';");
    expect((await get('engine.games.localhost:3001', '/shared/game-shell.js')).body).toBe('window.GameShell = {};');
  });

  it('answers nothing but game files: unknown hosts, other paths, writes, dot files, links and escapes find nothing', async () => {
    for (const host of ['games.localhost:3001', 'localhost:3001', '127.0.0.1:3001', 'nope.games.localhost:3001', 'engine.games.localhost.evil.test']) {
      expect((await get(host, '/index.html')).statusCode, host).toBe(404);
    }
    for (const url of [
      '/serve/api/app/list/',
      '/settings',
      '/.secret',
      '/other.html',
      '/../plain/index.html',
      '/%2e%2e/plain/index.html',
      '/Build/../../plain/index.html',
      '/sdk/v1/other.js',
    ]) {
      const response = await get('engine.games.localhost:3001', url);
      expect(response.statusCode, url).toBeGreaterThanOrEqual(400);
      expect(response.statusCode, url).toBeLessThan(500);
      expect(response.body, url).not.toContain('Plain');
    }
    const post = await app.inject({ method: 'POST', url: '/index.html', headers: { host: 'engine.games.localhost:3001' }, payload: 'x' });
    expect(post.statusCode).toBe(405);
  });
});
