import { readFile, realpath } from 'node:fs/promises';
import { extname, resolve, sep } from 'node:path';
import compress from '@fastify/compress';
import fastifyStatic from '@fastify/static';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest, LogController } from 'fastify';
import { HOSTED_GAME_SANDBOX } from '#common/constants.ts';
import type { Config } from '#server/config.ts';
import { DiskStorage } from '#server/adapters/storage/disk-storage.ts';
import { type FileStorage, isStorageKey } from '#server/adapters/storage/file-storage.ts';
import { sendStoredObject } from '#server/http/stored-object.ts';
import { cleanBackendOrigins } from '#server/lib/backend-origins.ts';
import type { CatalogueService, HostedGame } from '#server/features/catalogue/catalogue.service.ts';

/**
 * The games origin (decision 089): each hosted game's files on a host of its own,
 * `<slug>.<games origin host>`, so a game keeps a real origin (storage, workers, WebAssembly,
 * fetches of its own files) that shares nothing with the portal or with another game. This server
 * answers nothing else: no page, no API, no cookie of the portal's.
 */

/** The sandbox a game's document runs in, framed or opened directly (the play page's frame gives the same). */
export { HOSTED_GAME_SANDBOX };

/** Scripts a game runs as workers (and WebAssembly they compile): the one kind of response sent without a sandbox. */
const SCRIPT_TYPE = /^(text\/javascript|application\/javascript|text\/ecmascript|application\/ecmascript|application\/wasm)\s*(;|$)/i;
const HTML_TYPE = /^text\/html\s*(;|$)/i;

/**
 * The sandbox a response of this content type gets, or null for none. A game's HTML runs in the
 * game sandbox, framed or opened directly. Any other type a browser could open as a document
 * (SVG, XML, XHTML, a type it does not know) gets a sandbox that allows nothing: no script runs
 * in it and its origin is opaque. Scripts go without, as workers ignore the directive.
 */
export function sandboxOf(contentType: string): string | null {
  const type = contentType.trim();
  if (SCRIPT_TYPE.test(type)) return null;
  return HTML_TYPE.test(type) ? `sandbox ${HOSTED_GAME_SANDBOX}` : 'sandbox';
}

/**
 * What a game may do: its own files, WebAssembly, workers, and the backends it declared. The
 * backends are re-parsed here (decision 107): a value stored before the rule, or by any other
 * way, that is not a clean origin is left out rather than let it end the directive.
 */
export function gameContentSecurityPolicy(game: HostedGame, portalOrigin: string, options: { contentType: string }): string {
  const sandbox = sandboxOf(options.contentType);
  return [
    ...(sandbox ? [sandbox] : []),
    "default-src 'self'",
    "script-src 'self' 'unsafe-inline' 'wasm-unsafe-eval' blob:",
    "worker-src 'self' blob:",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "media-src 'self' data: blob:",
    "font-src 'self' data:",
    ["connect-src 'self' data: blob:", ...cleanBackendOrigins(game.backendOrigins)].join(' '),
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'none'",
    // Only the portal's play page may frame a game.
    `frame-ancestors ${portalOrigin}`,
  ].join('; ');
}

/** Engine files named by their content (Unity's and Godot's hashed names, Vite-style `name-hash.ext`) never change. */
const HASHED_NAME = /[.-][0-9a-f]{8,}\.[a-z0-9]+(\.(br|gz))?$/i;
const ONE_YEAR = 31_536_000;

/**
 * The request headers the games origin reads (decision 108): any game, or a preview opened
 * directly, can set cookies for the games' parent domain, up to 180 of 4 KB in Chromium, which
 * every game host then receives. Node's default 16 KB would answer those requests 431.
 */
export const GAMES_MAX_HEADER_BYTES = 1024 * 1024;

/** The encoding of a precompressed file a build asks for by name (Unity: `game.wasm.br`). */
const ENCODING_OF_SUFFIX: Record<string, string> = { '.br': 'br', '.gz': 'gzip' };

/** The content type of the file inside a `.br`/`.gz` (Unity's loader checks `application/wasm`). */
const TYPE_OF_EXTENSION: Record<string, string> = {
  '.wasm': 'application/wasm',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.txt': 'text/plain; charset=utf-8',
};

/** The content types of a build's files streamed from an object store (a local folder's are the static server's). */
const TYPE_OF_STORED_FILE: Record<string, string> = {
  ...TYPE_OF_EXTENSION,
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.gif': 'image/gif',
  '.ico': 'image/x-icon',
  '.mp3': 'audio/mpeg',
  '.ogg': 'audio/ogg',
  '.wav': 'audio/wav',
  '.xml': 'application/xml; charset=utf-8',
};

/** Files compressed as they are sent: text. An address without an extension is a folder's index.html. */
const COMPRESSED_AS_SENT = new Set(['', '.html', '.htm', '.js', '.mjs', '.css', '.json', '.svg', '.txt', '.xml']);

/** The SDK learns the portal's origin from this placeholder, which the games origin fills in. */
const PORTAL_ORIGIN_PLACEHOLDER = '__PLAYPORT_PORTAL_ORIGIN__';

/** A Vary value holding what was there and these names, each once (compared without case). */
function varyWith(current: unknown, names: string[]): string {
  const listed = (Array.isArray(current) ? current.join(',') : typeof current === 'string' ? current : '')
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  const all = [...listed];
  for (const name of names) if (!all.some((other) => other.toLowerCase() === name.toLowerCase())) all.push(name);
  return all.join(', ');
}

/** Each game folder's real path, looked up once (a folder that does not exist yet is looked up again). */
const realRoots = new Map<string, string>();

/** Sends a file that really is inside `root`: a link leading elsewhere (another game's files) is not followed. */
async function sendInside(reply: FastifyReply, path: string, root: string) {
  const file = path === '' || path.endsWith('/') ? `${path}index.html` : path;
  const realRoot = realRoots.get(root) ?? (await realpath(root).catch(() => null));
  if (realRoot !== null) realRoots.set(root, realRoot);
  const real = await realpath(resolve(root, file)).catch(() => null);
  if (realRoot === null || (real !== null && !real.startsWith(realRoot + sep))) return reply.callNotFound();
  return reply.sendFile(file, root);
}

/** The headers of a game's file by its name: the type of a precompressed copy, and how long it may be cached. */
function fileHeaders(reply: FastifyReply, path: string): void {
  const suffix = extname(path).toLowerCase();
  const encoding = ENCODING_OF_SUFFIX[suffix];
  if (encoding) {
    // Asked for by its compressed name, as engines' loaders do: the browser decodes it.
    reply.header('Content-Encoding', encoding);
    reply.header('Content-Type', TYPE_OF_EXTENSION[extname(path.slice(0, -suffix.length)).toLowerCase()] ?? 'application/octet-stream');
  }
  reply.header('Cache-Control', HASHED_NAME.test(path) ? `public, max-age=${ONE_YEAR}, immutable` : 'public, max-age=300, must-revalidate');
}

/** A build's file from storage that is not a folder here (an object store, decision 150), with the same headers as a folder's. */
async function sendStored(request: FastifyRequest, reply: FastifyReply, path: string, storage: FileStorage, prefix: string) {
  const file = path === '' || path.endsWith('/') ? `${path}index.html` : path;
  const key = prefix + file;
  if (!isStorageKey(key)) return reply.callNotFound();
  reply.type(TYPE_OF_STORED_FILE[extname(file).toLowerCase()] ?? 'application/octet-stream');
  fileHeaders(reply, file);
  // A copy asked for by its compressed name has its encoding already; another file may have copies beside it.
  return sendStoredObject(request, reply, storage, key, { precompressed: !ENCODING_OF_SUFFIX[extname(file).toLowerCase()] });
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The hosted game whose host this request came to. */
    hostedGame: HostedGame | null;
  }
}

export interface GamesOriginOptions {
  config: Config;
  catalogue: Pick<CatalogueService, 'hostedGame'>;
  /** Folder holding each game's files as <slug>/… and the house scripts under shared/. */
  gamesDir?: string;
  /**
   * Developers' builds (decision 097): the builds' storage (`<app id>/<build id>/…`, `files`, or
   * `dir`, a folder read as such), and the preview hosts (`<signed label>.<previews host>`, decision
   * 108), each serving one build of any status.
   */
  builds?: { previewHost(hostname: string): Promise<{ appId: number; buildId: number; slug: string; backendOrigins: string[] } | null> } & (
    { files: FileStorage } | { dir: string }
  );
  sdkDir?: string;
  /** false for none; a stream to write the log lines to (tests); else standard output at LOG_LEVEL. */
  logger?: false | { stream: { write(line: string): void } };
}

/** The games origin's server, listening apart from the portal (GAMES_PORT). */
export async function buildGamesOrigin(options: GamesOriginOptions): Promise<FastifyInstance> {
  const { config, catalogue } = options;
  const gamesDir = resolve(options.gamesDir ?? 'games');
  const sdkDir = resolve(options.sdkDir ?? 'sdk');
  const app = Fastify({
    logger: options.logger === false ? false : { level: config.logLevel, ...(options.logger ? { stream: options.logger.stream } : {}) },
    // As the portal: one line per request only at debug level (a game's page loads dozens of files).
    logController: new LogController({ disableRequestLogging: config.logLevel !== 'debug' && config.logLevel !== 'trace' }),
    trustProxy: false,
    http: { maxHeaderSize: GAMES_MAX_HEADER_BYTES },
  });
  app.decorateRequest('hostedGame', null);

  // No game may rely on cookies (decision 108): the games origin reads none, and a request that
  // carries any (planted by another game for the shared parent domain, or by a preview) has the
  // browser drop every cookie of the registrable domain, partitioned ones included, before the
  // answer is used.
  app.addHook('onSend', async (request, reply, payload) => {
    if (request.headers.cookie !== undefined) reply.header('Clear-Site-Data', '"cookies"');
    return payload;
  });

  // Every request names its game by host; anything else (the bare games host, an unknown or
  // unpublished game, an IP address) finds nothing here.
  app.addHook('onRequest', async (request, reply) => {
    const host = request.hostname.replace(/:\d+$/, '');
    const preview = options.builds ? await options.builds.previewHost(host) : null;
    request.hostedGame = preview
      ? { slug: preview.slug, origin: `${request.protocol}://${request.hostname}`, backendOrigins: preview.backendOrigins, build: preview }
      : await catalogue.hostedGame(host);
    if (!request.hostedGame) return reply.code(404).type('text/plain; charset=utf-8').send('No game here.');
    if (request.method !== 'GET' && request.method !== 'HEAD')
      return reply.code(405).header('Allow', 'GET, HEAD').type('text/plain; charset=utf-8').send('Game files are read only.');
  });
  app.addHook('onSend', async (request, reply, payload) => {
    reply.header('X-Content-Type-Options', 'nosniff');
    reply.header('Referrer-Policy', 'strict-origin-when-cross-origin');
    reply.header('Cross-Origin-Resource-Policy', 'cross-origin');
    // The play page keeps a copy of a small game for offline play (decision 065): it may read the files.
    reply.header('Access-Control-Allow-Origin', config.publicOrigin);
    // Any file may come in another encoding (a precompressed copy, text compressed as sent): a
    // cache in front must key on Accept-Encoding as well as Origin, whatever else set Vary.
    reply.header('Vary', varyWith(reply.getHeader('vary'), ['Origin', 'Accept-Encoding']));
    if (request.hostedGame) {
      const type = String(reply.getHeader('content-type') ?? '');
      reply.header('Content-Security-Policy', gameContentSecurityPolicy(request.hostedGame, config.publicOrigin, { contentType: type }));
    }
    return payload;
  });

  // Text is compressed as it is sent; engine files come precompressed (.br, .gz) or as they are, so
  // their length is known (a game's loading progress) and no large file is compressed per request.
  // @fastify/compress skips a request that carries x-no-compression, its one per-response switch.
  app.addHook('onRequest', async (request) => {
    if (!COMPRESSED_AS_SENT.has(extname(request.url.split('?')[0]!).toLowerCase())) request.headers['x-no-compression'] = '1';
  });
  await app.register(compress, { global: true, threshold: 1024, encodings: ['br', 'gzip'], brotliOptions: { params: { 1: 4 } } });
  await app.register(fastifyStatic, {
    root: gamesDir,
    serve: false,
    preCompressed: true,
    dotfiles: 'deny',
    index: ['index.html'],
    setHeaders: fileHeaders,
  });

  const sdkSource = new Map<string, string>();
  app.get<{ Params: { '*': string } }>('/sdk/*', async (request, reply) => {
    const file = request.params['*'];
    if (!/^v\d+\/playport\.(js|d\.ts)$/.test(file)) return reply.callNotFound();
    let source = sdkSource.get(file);
    if (source === undefined) {
      // A version or file that does not exist is a 404 like any other missing file.
      const text = await readFile(resolve(sdkDir, file), 'utf8').catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT' || error.code === 'ENOTDIR' || error.code === 'EISDIR') return null;
        throw error;
      });
      if (text === null) return reply.callNotFound();
      source = text.replaceAll(PORTAL_ORIGIN_PLACEHOLDER, config.publicOrigin);
      sdkSource.set(file, source);
    }
    return reply
      .type(file.endsWith('.js') ? 'text/javascript; charset=utf-8' : 'text/plain; charset=utf-8')
      .header('Cache-Control', 'public, max-age=3600')
      .send(source);
  });
  // The house scripts and styles the demo games share.
  app.get<{ Params: { '*': string } }>('/shared/*', async (request, reply) => sendInside(reply, request.params['*'], resolve(gamesDir, 'shared')));
  const buildFiles = !options.builds ? null : 'files' in options.builds ? options.builds.files : new DiskStorage(options.builds.dir, '/', { readOnly: true });
  app.get<{ Params: { '*': string } }>('/*', async (request, reply) => {
    const game = request.hostedGame!;
    // A developer's game is served from its build's stored files only, never from the games folder.
    if (game.build) {
      if (!buildFiles) return reply.callNotFound();
      const prefix = `${game.build.appId}/${game.build.buildId}/`;
      // A folder on this machine is served as the games folder is; an object store's files get the same ranges, copies and validators.
      const folder = buildFiles.localFolder(prefix);
      if (folder !== null) return sendInside(reply, request.params['*'], folder);
      return sendStored(request, reply, request.params['*'], buildFiles, prefix);
    }
    return sendInside(reply, request.params['*'], resolve(gamesDir, game.slug));
  });
  app.setNotFoundHandler(async (_request, reply) => reply.code(404).type('text/plain; charset=utf-8').send('Not found.'));
  app.setErrorHandler(async (error, request, reply) => {
    const status = (error as { statusCode?: number }).statusCode ?? 500;
    if (status >= 500) request.log.error({ err: error }, 'games origin error');
    return reply
      .code(status >= 400 && status < 600 ? status : 500)
      .type('text/plain; charset=utf-8')
      .send(status === 404 ? 'Not found.' : 'Could not serve this file.');
  });
  return app;
}
