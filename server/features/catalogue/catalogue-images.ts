import type { FastifyPluginAsync } from 'fastify';
import sharp from 'sharp';
import { IMAGE_ENDPOINT, parseImageRequest } from '#common/images.ts';
import type { FileStorage } from '#server/adapters/storage/file-storage.ts';

export interface ImageEndpointOptions {
  /** Where source images live, each at its public prefix (the games, the uploads). */
  sources: FileStorage[];
  /** Bytes of resized images kept in memory. */
  cacheBytes?: number;
}

interface Cached {
  body: Buffer;
  type: string;
}

const DEFAULT_CACHE_BYTES = 32 * 1024 * 1024;
/** The most an SVG is scaled up when drawn (a tiny viewBox asked for wide would otherwise make a huge canvas). */
const MAX_SVG_DENSITY = 72 * 64;
/** Sources larger than this are not decoded (a decompression bomb would stall the process). */
const MAX_INPUT_PIXELS = 40_000_000;

/**
 * Resizes the catalogue's images on request (`/_img/w_400,q_85,f_webp/games/x/shot.png`), SVG
 * drawn as WebP, and keeps recent results in memory. Only plain keys of the configured sources are read.
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
    const source = wanted && options.sources.find((storage) => wanted.source.startsWith(storage.publicPrefix));
    const notFound = () => reply.code(404).header('Cache-Control', 'no-store').send({ code: 404, message: 'Not found.', data: null });
    if (!wanted || !source) return notFound();
    const objectKey = decodeOrNull(wanted.source.slice(source.publicPrefix.length));
    const info = objectKey === null ? null : await source.stat(objectKey);
    if (!info || objectKey === null) return notFound();

    const key = `${source.publicPrefix}${objectKey}\n${info.modifiedMs}\n${wanted.width}\n${wanted.quality}\n${wanted.format}`;
    let result = cache.get(key);
    if (result) {
      cache.delete(key);
      cache.set(key, result);
    } else {
      const bytes = await source.read(objectKey);
      if (!bytes) return notFound();
      try {
        // An SVG is drawn at the density that makes it as wide as asked (at 72 dpi it is its own width), so it stays sharp.
        const svgWidth = wanted.source.toLowerCase().endsWith('.svg') ? ((await sharp(bytes).metadata()).width ?? wanted.width) : null;
        const density = svgWidth === null ? undefined : Math.min(MAX_SVG_DENSITY, Math.max(72, (72 * wanted.width) / svgWidth));
        const body = await sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS, ...(density ? { density } : {}) })
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
