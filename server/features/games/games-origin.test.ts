import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { type IncomingHttpHeaders, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gzipSync } from 'node:zlib';
import { S3Client } from '@aws-sdk/client-s3';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { S3Storage, s3ClientConfig } from '#server/adapters/storage/s3-storage.ts';
import { loadConfig } from '#server/config.ts';
import type { HostedGame } from '#server/features/catalogue/catalogue.service.ts';
import { startS3StandIn } from '#server/testing/s3-stand-in.ts';
import { buildGamesOrigin, gameContentSecurityPolicy, HOSTED_GAME_SANDBOX } from './games-origin.ts';

const config = loadConfig({ PORT: '3000' });
const GAMES: Record<string, HostedGame> = {
  'engine.games.localhost': { slug: 'engine', origin: 'http://engine.games.localhost:3001', backendOrigins: ['https://api.example.com'] },
  'plain.games.localhost': { slug: 'plain', origin: 'http://plain.games.localhost:3001', backendOrigins: [] },
};

/** The directives of a policy by name, each with its sources. */
function directives(policy: string): Map<string, string[]> {
  const byName = new Map<string, string[]>();
  for (const part of policy.split(';')) {
    const [name, ...sources] = part.trim().split(/\s+/);
    if (name) byName.set(name, sources);
  }
  return byName;
}
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
    writeFileSync(join(engine, 'art.svg'), '<svg xmlns="http://www.w3.org/2000/svg"><script>parent.x = 1</script></svg>');
    writeFileSync(join(engine, 'data.xml'), '<?xml version="1.0"?><root/>');
    writeFileSync(join(engine, 'page.xhtml'), '<html xmlns="http://www.w3.org/1999/xhtml"><script>1</script></html>');
    writeFileSync(join(engine, 'page.htm'), '<script>1</script>');
    writeFileSync(join(engine, 'notes.unknownext'), '<script>1</script>');
    writeFileSync(join(engine, 'module.mjs'), 'export {}');
    writeFileSync(join(engine, 'big.txt'), 'y'.repeat(4096));
    mkdirSync(join(root, 'games', 'plain'));
    writeFileSync(join(root, 'games', 'plain', 'index.html'), '<!doctype html><title>Plain</title>');
    symlinkSync(join(root, 'games', 'plain', 'index.html'), join(engine, 'other.html'));
    mkdirSync(join(root, 'games', 'shared'));
    writeFileSync(join(root, 'games', 'shared', 'game-shell.js'), 'window.GameShell = {};');
    mkdirSync(join(root, 'sdk', 'v1'), { recursive: true });
    writeFileSync(join(root, 'sdk', 'v1', 'playport.js'), "const served = '__PLAYPORT_PORTAL_ORIGIN__';");
    writeFileSync(join(root, 'sdk', 'v1', 'playport.d.ts'), 'export {};');
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
    expect(policy).toContain('sandbox allow-scripts allow-same-origin allow-pointer-lock allow-storage-access-by-user-activation');
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

  it('builds the policy from clean origins only, whatever was stored (decision 107)', () => {
    const stored = [
      'https://api.example.com',
      'https://x;frame-ancestors',
      'https://x; frame-ancestors https://evil.test',
      'https://*',
      'https://a,b',
      "https://x'",
      "'unsafe-eval'",
      'https://api.example.com/path',
      'wss://live.example.com/',
    ];
    const policy = gameContentSecurityPolicy(
      { slug: 'engine', origin: 'http://engine.games.localhost:3001', backendOrigins: stored },
      'http://localhost:3000',
      { contentType: 'text/html; charset=utf-8' },
    );
    const parsed = directives(policy);
    expect(parsed.get('connect-src')).toEqual(["'self'", 'data:', 'blob:', 'https://api.example.com', 'wss://live.example.com']);
    expect(parsed.get('frame-ancestors')).toEqual(['http://localhost:3000']);
    // Each directive once, none of them made up of a stored value.
    expect(policy.split(';').filter((part) => part.trim().startsWith('frame-ancestors'))).toHaveLength(1);
    expect([...parsed.keys()].sort()).toEqual(
      [
        'sandbox',
        'default-src',
        'script-src',
        'worker-src',
        'style-src',
        'img-src',
        'media-src',
        'font-src',
        'connect-src',
        'object-src',
        'base-uri',
        'form-action',
        'frame-ancestors',
      ].sort(),
    );
    expect(policy).not.toMatch(/[,*]|evil| 'unsafe-eval'|x'/);
  });

  /** The sandbox directive's flags on a file of the engine game, or null without one. */
  const sandboxOfResponse = async (url: string) => {
    const response = await get('engine.games.localhost:3001', url);
    return directives(String(response.headers['content-security-policy'])).get('sandbox') ?? null;
  };

  it('runs no script in any document but a game page: SVG, XML, XHTML and unknown types get a sandbox that allows nothing', async () => {
    for (const url of ['/index.html', '/page.htm', '/']) expect(await sandboxOfResponse(url), url).toEqual(HOSTED_GAME_SANDBOX.split(' '));
    for (const url of ['/art.svg', '/data.xml', '/page.xhtml', '/notes.unknownext', '/level.bin', '/big.txt', '/nothing-here.html', '/sdk/v1/playport.d.ts'])
      expect(await sandboxOfResponse(url), url).toEqual([]);
    for (const url of ['/Build/code.0123abcd89.js', '/module.mjs', '/Build/game.wasm', '/Build/game.wasm.br', '/shared/game-shell.js', '/sdk/v1/playport.js'])
      expect(await sandboxOfResponse(url), url).toBeNull();
  });

  it('tells caches that files vary by encoding as well as by origin', async () => {
    for (const [url, headers] of [
      ['/Build/game.wasm.br', {}],
      ['/Build/game.wasm', { 'accept-encoding': 'br' }],
      ['/Build/game.wasm', {}],
      ['/big.txt', { 'accept-encoding': 'gzip' }],
      ['/big.txt', {}],
      ['/index.html', { 'accept-encoding': 'br' }],
    ] as const) {
      const response = await get('engine.games.localhost:3001', url, headers);
      const vary = String(response.headers.vary)
        .split(',')
        .map((name) => name.trim().toLowerCase());
      expect(vary, `${url} ${JSON.stringify(headers)}`).toContain('origin');
      expect(vary, `${url} ${JSON.stringify(headers)}`).toContain('accept-encoding');
      expect(new Set(vary).size, url).toBe(vary.length);
    }
    expect((await get('engine.games.localhost:3001', '/big.txt', { 'accept-encoding': 'gzip' })).headers['content-encoding']).toBe('gzip');
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
    // An SDK version or file that does not exist is missing, not a failure.
    for (const url of ['/sdk/v2/playport.js', '/sdk/v999/playport.d.ts', '/sdk/v0/playport.js']) {
      const response = await get('engine.games.localhost:3001', url);
      expect(response.statusCode, url).toBe(404);
      expect(response.body, url).toBe('Not found.');
    }
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

/** The log lines of a games origin at `level` after three requests. */
async function linesAt(level: string): Promise<Array<{ msg: string }>> {
  const lines: Array<{ msg: string }> = [];
  const root = mkdtempSync(join(tmpdir(), 'playport-games-log-'));
  mkdirSync(join(root, 'plain'));
  writeFileSync(join(root, 'plain', 'index.html'), '<!doctype html><title>Plain</title>');
  const app = await buildGamesOrigin({
    config: loadConfig({ PORT: '3000', LOG_LEVEL: level }),
    catalogue: { hostedGame: async (hostname: string) => GAMES[hostname] ?? null },
    gamesDir: root,
    logger: { stream: { write: (line: string) => void lines.push(JSON.parse(line) as { msg: string }) } },
  });
  for (let i = 0; i < 3; i++) await app.inject({ method: 'GET', url: '/', headers: { host: 'plain.games.localhost:3001' } });
  await app.close();
  return lines;
}

describe('logs of the games origin', () => {
  it('writes no line per request at info, as the portal, and one per request and answer at debug', async () => {
    expect((await linesAt('info')).filter((line) => /request|response/i.test(line.msg))).toEqual([]);
    const debug = await linesAt('debug');
    expect(debug.filter((line) => line.msg === 'incoming request')).toHaveLength(3);
    expect(debug.filter((line) => line.msg === 'request completed')).toHaveLength(3);
  });
});

describe('the games origin and cookies (decision 108)', () => {
  let app: FastifyInstance;
  let port: number;
  beforeAll(async () => {
    const root = mkdtempSync(join(tmpdir(), 'playport-games-cookies-'));
    mkdirSync(join(root, 'plain'));
    writeFileSync(join(root, 'plain', 'index.html'), '<!doctype html><title>Plain</title>');
    app = await buildGamesOrigin({
      config,
      catalogue: { hostedGame: async (hostname: string) => GAMES[hostname] ?? null },
      gamesDir: root,
      logger: false,
    });
    await app.listen({ host: '127.0.0.1', port: 0 });
    port = (app.server.address() as AddressInfo).port;
  });
  afterAll(() => app.close());

  /** A real HTTP request, so Node's header parser (and its size limit) is the one a browser meets. */
  const send = (host: string, headers: Record<string, string>) =>
    new Promise<{ status: number; headers: IncomingHttpHeaders; body: string }>((done, fail) => {
      const request = httpRequest({ host: '127.0.0.1', port, path: '/index.html', agent: false, headers: { host, ...headers } }, (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () => done({ status: response.statusCode!, headers: response.headers, body }));
      });
      request.on('error', fail);
      request.end();
    });

  it('serves a request carrying eight 4 KB cookies planted for the games domain, and has the browser clear them', async () => {
    const planted = Array.from({ length: 8 }, (_, i) => `c${i}=${'x'.repeat(4000)}`).join('; ');
    const answer = await send('plain.games.localhost:3001', { cookie: planted });
    expect(answer.status).toBe(200);
    expect(answer.body).toContain('Plain');
    expect(answer.headers['clear-site-data']).toBe('"cookies"');
    // Chromium keeps up to 180 cookies of 4 KB for one domain: all of them still parse.
    const most = Array.from({ length: 180 }, (_, i) => `c${i}=${'x'.repeat(4090)}`).join('; ');
    expect((await send('nope.games.localhost:3001', { cookie: most })).status).toBe(404);
    expect((await send('nope.games.localhost:3001', { cookie: most })).headers['clear-site-data']).toBe('"cookies"');
  });

  it('clears nothing when no cookie came', async () => {
    const answer = await send('plain.games.localhost:3001', {});
    expect(answer.status).toBe(200);
    expect(answer.headers['clear-site-data']).toBeUndefined();
  });
});

describe("the games origin and a build's files in an object store (decision 150)", () => {
  let root: string;
  let standIn: Awaited<ReturnType<typeof startS3StandIn>>;
  let client: S3Client;
  let app: FastifyInstance;
  const large = Buffer.from(Array.from({ length: 100_000 }, (_, i) => i % 251));
  const script = 'console.log("stored game");'.repeat(100);

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'playport-games-stored-'));
    standIn = await startS3StandIn({ port: 0, directory: root, bucket: 'games-test' });
    client = new S3Client(s3ClientConfig(standIn.settings));
    const objects = new S3Storage({ client, bucket: 'games-test', keyPrefix: 'playport/builds/', publicPrefix: '/' });
    await objects.put('4/9/index.html', Buffer.from('<!doctype html><title>Stored</title>'));
    await objects.put('4/9/Build/game.0123abcd89.wasm', WASM);
    await objects.put('4/9/Build/game.0123abcd89.data', large);
    await objects.put('4/9/Build/loader.js', Buffer.from(script));
    await objects.put('4/9/Build/loader.js.br', brotliCompressSync(script));
    await objects.put('4/9/Build/loader.js.gz', gzipSync(script));
    await objects.put('4/8/secret.txt', Buffer.from('another build'));
    app = await buildGamesOrigin({
      config,
      catalogue: { hostedGame: async () => null },
      builds: {
        files: objects,
        previewHost: async (host) => (host === 'p1.previews.localhost' ? { appId: 4, buildId: 9, slug: 'stored', backendOrigins: [] } : null),
      },
      logger: false,
    });
  });
  afterAll(async () => {
    await app.close();
    client.destroy();
    await standIn.stop();
    rmSync(root, { recursive: true, force: true });
  });
  const get = (url: string, headers: Record<string, string> = {}) =>
    app.inject({ method: 'GET', url, headers: { host: 'p1.previews.localhost:3001', ...headers } });

  it('streams a build with the same types and caching as a folder, and nothing outside the build', async () => {
    const page = await get('/');
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.body).toContain('Stored');
    expect(page.headers['content-security-policy']).toContain('sandbox');
    expect(page.headers['cache-control']).toBe('public, max-age=300, must-revalidate');
    const wasm = await get('/Build/game.0123abcd89.wasm');
    expect([wasm.statusCode, wasm.headers['content-type'], wasm.headers['cache-control'], wasm.headers['content-length']]).toEqual([
      200,
      'application/wasm',
      'public, max-age=31536000, immutable',
      String(WASM.length),
    ]);
    expect([...wasm.rawPayload]).toEqual([...WASM]);
    expect((await get('/missing.js')).statusCode).toBe(404);
    expect((await get('/../8/secret.txt')).statusCode).toBe(404);
    expect((await get('/%2e%2e/8/secret.txt')).statusCode).toBe(404);
  });

  it('answers byte ranges with 206 and Content-Range, a range past the end with 416, and several ranges with the whole file', async () => {
    const part = await get('/Build/game.0123abcd89.data', { range: 'bytes=1000-1999' });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 1000-1999/${large.length}`);
    expect(part.headers['content-length']).toBe('1000');
    expect(part.headers['accept-ranges']).toBe('bytes');
    expect(part.rawPayload.equals(large.subarray(1000, 2000))).toBe(true);
    const tail = await get('/Build/game.0123abcd89.data', { range: 'bytes=-10' });
    expect([tail.statusCode, tail.headers['content-range']]).toEqual([206, `bytes ${large.length - 10}-${large.length - 1}/${large.length}`]);
    expect(tail.rawPayload.equals(large.subarray(-10))).toBe(true);
    const open = await get('/Build/game.0123abcd89.data', { range: `bytes=${large.length - 5}-` });
    expect(open.rawPayload.equals(large.subarray(-5))).toBe(true);
    const past = await get('/Build/game.0123abcd89.data', { range: `bytes=${large.length}-` });
    expect([past.statusCode, past.headers['content-range']]).toEqual([416, `bytes */${large.length}`]);
    const several = await get('/Build/game.0123abcd89.data', { range: 'bytes=0-1,5-6' });
    expect([several.statusCode, several.rawPayload.length]).toEqual([200, large.length]);
    // A range of a version the browser no longer holds is the whole new file.
    const stale = await get('/Build/game.0123abcd89.data', { range: 'bytes=0-9', 'if-range': '"not-this-one"' });
    expect([stale.statusCode, stale.rawPayload.length]).toEqual([200, large.length]);
  });

  it('chooses a precompressed copy stored beside a file by Accept-Encoding, and the file itself otherwise', async () => {
    const brotli = await get('/Build/loader.js', { 'accept-encoding': 'gzip, deflate, br' });
    expect([brotli.statusCode, brotli.headers['content-encoding'], brotli.headers['content-type']]).toEqual([200, 'br', 'text/javascript; charset=utf-8']);
    expect(brotliDecompressSync(brotli.rawPayload).toString()).toBe(script);
    expect(String(brotli.headers.vary)).toMatch(/Accept-Encoding/);
    const gzip = await get('/Build/loader.js', { 'accept-encoding': 'gzip, br;q=0' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    const plain = await get('/Build/loader.js', { 'accept-encoding': 'identity' });
    expect([plain.headers['content-encoding'], plain.body]).toEqual([undefined, script]);
    expect(plain.headers.etag).not.toBe(brotli.headers.etag);
    // Asked for by its compressed name, as engines' loaders do.
    const named = await get('/Build/loader.js.br');
    expect([named.headers['content-encoding'], named.headers['content-type']]).toEqual(['br', 'text/javascript; charset=utf-8']);
  });

  it('answers 304 to a browser that holds the same version, by ETag or by date', async () => {
    const first = await get('/Build/game.0123abcd89.wasm');
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^"/);
    expect(first.headers['last-modified']).toBeTruthy();
    const again = await get('/Build/game.0123abcd89.wasm', { 'if-none-match': etag });
    expect([again.statusCode, again.rawPayload.length, again.headers.etag]).toEqual([304, 0, etag]);
    expect((await get('/Build/game.0123abcd89.wasm', { 'if-none-match': '"other"' })).statusCode).toBe(200);
    expect((await get('/Build/game.0123abcd89.wasm', { 'if-modified-since': String(first.headers['last-modified']) })).statusCode).toBe(304);
    expect((await get('/Build/game.0123abcd89.wasm', { 'if-modified-since': new Date(0).toUTCString() })).statusCode).toBe(200);
  });
});
