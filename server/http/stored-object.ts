// Answers with a stored object as a static file server answers with a file (decision 150): the
// object store has no folder to hand to @fastify/static, so its ranges, precompressed copies and
// validators are done here.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FileStorage, StoredObject } from '#server/adapters/storage/file-storage.ts';

/** The precompressed copies a stored file may have beside it, in the order they are preferred (as the static server's). */
const PRECOMPRESSED: { encoding: string; suffix: string }[] = [
  { encoding: 'br', suffix: '.br' },
  { encoding: 'gzip', suffix: '.gz' },
];

/** Whether an Accept-Encoding header accepts an encoding (by name or `*`, with a quality above 0). */
function acceptsEncoding(header: string | undefined, encoding: string): boolean {
  if (!header) return false;
  return header.split(',').some((part) => {
    const [name = '', ...parameters] = part.trim().toLowerCase().split(';');
    const quality = parameters.map((parameter) => /^\s*q=([\d.]+)\s*$/.exec(parameter)?.[1]).find((value) => value !== undefined);
    return (name === encoding || name === '*') && (quality === undefined || Number(quality) > 0);
  });
}

/**
 * The one byte range of a Range header within `size` bytes: null when the header is absent, not
 * bytes, or several ranges (the whole file is sent then, as a static server may); 'unsatisfiable' for 416.
 */
function byteRangeOf(header: string | undefined, size: number): { start: number; end: number } | 'unsatisfiable' | null {
  const match = header ? /^bytes=(\d*)-(\d*)$/.exec(header.trim()) : null;
  if (!match || (match[1] === '' && match[2] === '')) return null;
  if (match[1] === '') {
    const suffix = Number(match[2]);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(match[1]);
  const end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  if (start >= size || end < start) return 'unsatisfiable';
  return { start, end };
}

/**
 * Sends the object at `key` (the caller has set its type and caching): with `precompressed`, a
 * `.br`/`.gz` copy stored beside it when the browser accepts that encoding; one byte range (206, or
 * 416 with the size); ETag and Last-Modified, with 304 for a browser holding the same version.
 */
export async function sendStoredObject(request: FastifyRequest, reply: FastifyReply, storage: FileStorage, key: string, options: { precompressed: boolean }) {
  let stored = key;
  let encoding: string | null = null;
  let info: StoredObject | null = null;
  if (options.precompressed) {
    for (const copy of PRECOMPRESSED) {
      if (!acceptsEncoding(request.headers['accept-encoding'], copy.encoding)) continue;
      info = await storage.stat(key + copy.suffix);
      if (info) {
        stored = key + copy.suffix;
        encoding = copy.encoding;
        break;
      }
    }
    reply.header('Vary', 'Accept-Encoding');
  }
  info ??= await storage.stat(key);
  if (!info) return reply.callNotFound();
  // Sent as stored: a copy already compressed, or a file whose length a compression as sent would change under a range.
  request.headers['x-no-compression'] = '1';
  if (encoding) reply.header('Content-Encoding', encoding);
  const etag = info.etag ?? `W/"${info.size.toString(16)}-${Math.floor(info.modifiedMs).toString(16)}"`;
  const modified = new Date(Math.floor(info.modifiedMs / 1000) * 1000);
  reply.header('ETag', etag).header('Last-Modified', modified.toUTCString()).header('Accept-Ranges', 'bytes');
  const ifNoneMatch = request.headers['if-none-match'];
  const since = request.headers['if-modified-since'] ? Date.parse(request.headers['if-modified-since']) : Number.NaN;
  const unchanged = ifNoneMatch !== undefined ? ifNoneMatch.split(',').some((tag) => sameTag(tag, etag)) : !Number.isNaN(since) && modified.getTime() <= since;
  if (unchanged) return reply.code(304).send();
  // If-Range: a range of another version than the browser holds is the whole file instead.
  const ifRange = request.headers['if-range'] as string | undefined;
  const rangeHeader = ifRange === undefined || sameTag(ifRange, etag) || ifRange === modified.toUTCString() ? request.headers.range : undefined;
  const range = byteRangeOf(rangeHeader, info.size);
  if (range === 'unsatisfiable') {
    return reply.code(416).header('Content-Range', `bytes */${info.size}`).type('text/plain; charset=utf-8').send('Range not satisfiable.');
  }
  const stream = await storage.getStream(stored, range ?? undefined);
  if (!stream) return reply.callNotFound();
  if (range) reply.code(206).header('Content-Range', `bytes ${range.start}-${range.end}/${info.size}`);
  reply.header('Content-Length', range ? range.end - range.start + 1 : info.size);
  return reply.send(stream);
}

/** Whether an entity tag of a request names this one (weakly: W/ is ignored, as for GET). */
function sameTag(tag: string, etag: string): boolean {
  return tag.trim() === '*' || strongPart(tag) === strongPart(etag);
}

function strongPart(tag: string): string {
  return tag.trim().replace(/^W\//, '');
}
