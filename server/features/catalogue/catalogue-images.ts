import { stat } from 'node:fs/promises';
import { resolve, sep } from 'node:path';
import type { FastifyPluginAsync } from 'fastify';
import sharp from 'sharp';
import { IMAGE_ENDPOINT, parseImageRequest } from '#common/images.ts';

export interface ImageEndpointOptions {
  /** URL prefixes and the folders they are served from (the games and the uploads). */
  roots: Array<{ prefix: string; folder: string }>;
  /** Bytes of resized images kept in memory. */
  cacheBytes?: number;
}

interface Cached {
  body: Buffer;
  type: string;
}

const DEFAULT_CACHE_BYTES = 32 * 1024 * 1024;
/** Sources larger than this are not decoded (a decompression bomb would stall the process). */
const MAX_INPUT_PIXELS = 40_000_000;

/**
 * Resizes the catalogue's raster images on request (`/_img/w_400,q_85,f_webp/games/x/shot.png`)
 * and keeps recent results in memory. Only files below the configured roots are read.
 */
export const imageEndpoint: FastifyPluginAsync<ImageEndpointOptions> = async (app, options) => {
  const cache = new Map<string, Cached>();
  const limit = options.cacheBytes ?? DEFAULT_CACHE_BYTES;
  let size = 0;
  const remember = (key: string, value: Cached) => {
    cache.set(key, value);
    size += value.body.length;
    // Oldest first: a Map iterates in insertion order, and hits are re-inserted.
    for (const [oldKey, old] of cache) {
      if (size <= limit) break;
      cache.delete(oldKey);
      size -= old.body.length;
    }
  };

  app.get<{ Params: { modifiers: string; '*': string } }>(`${IMAGE_ENDPOINT}:modifiers/*`, async (request, reply) => {
    const wanted = parseImageRequest(request.params.modifiers, request.params['*']);
    const root = wanted && options.roots.find((r) => wanted.source.startsWith(r.prefix));
    const notFound = () => reply.code(404).header('Cache-Control', 'no-store').send({ code: 404, message: 'Not found.', data: null });
    if (!wanted || !root) return notFound();
    const folder = resolve(root.folder);
    const relative = decodeOrNull(wanted.source.slice(root.prefix.length));
    if (relative === null) return notFound();
    const file = resolve(folder, relative);
    if (!file.startsWith(folder + sep)) return notFound();
    const info = await stat(file).catch(() => null);
    if (!info?.isFile()) return notFound();

    const key = `${file}\n${info.mtimeMs}\n${wanted.width}\n${wanted.quality}\n${wanted.format}`;
    let result = cache.get(key);
    if (result) {
      cache.delete(key);
      cache.set(key, result);
    } else {
      try {
        const body = await sharp(file, { limitInputPixels: MAX_INPUT_PIXELS })
          .rotate()
          .resize({ width: wanted.width, withoutEnlargement: true })
          .toFormat(wanted.format, { quality: wanted.quality })
          .toBuffer();
        result = { body, type: `image/${wanted.format}` };
        remember(key, result);
      } catch (error) {
        request.log.warn({ err: error, file: wanted.source }, 'image could not be resized');
        return notFound();
      }
    }
    return reply.type(result.type).header('Cache-Control', 'public, max-age=86400').send(result.body);
  });
};

/** A percent-decoded path, or null when its escapes are malformed (`%zz`). */
function decodeOrNull(value: string): string | null {
  try {
    return decodeURIComponent(value);
  } catch {
    return null;
  }
}
