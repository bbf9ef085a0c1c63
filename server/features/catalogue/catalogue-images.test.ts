import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IMAGE_WIDTHS, resizedUrl } from '#common/images.ts';
import { DiskStorage } from '#server/adapters/storage/disk-storage.ts';
import { imageEndpoint } from './catalogue-images.ts';

describe('image endpoint', () => {
  let app: FastifyInstance;
  const root = mkdtempSync(join(tmpdir(), 'playport-images-'));

  beforeAll(async () => {
    mkdirSync(join(root, 'games', 'demo'), { recursive: true });
    const png = await sharp({ create: { width: 800, height: 600, channels: 3, background: '#16a34a' } })
      .png()
      .toBuffer();
    writeFileSync(join(root, 'games', 'demo', 'shot.png'), png);
    writeFileSync(join(root, 'games', 'demo', 'thumb.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    writeFileSync(
      join(root, 'games', 'demo', 'tile.svg'),
      '<svg xmlns="http://www.w3.org/2000/svg" width="200" height="150" viewBox="0 0 4 3"><rect width="4" height="3" fill="#16a34a"/><circle cx="2" cy="1.5" r="1" fill="#fff"/></svg>',
    );
    writeFileSync(join(root, 'secret.png'), png);
    app = Fastify();
    await app.register(imageEndpoint, { sources: [new DiskStorage(join(root, 'games'), '/games/', { readOnly: true })] });
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('resizes a raster image to WebP at the requested width and caches it', async () => {
    for (let i = 0; i < 2; i++) {
      const response = await app.inject({ url: resizedUrl('/games/demo/shot.png', 320) });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('image/webp');
      expect(response.headers['cache-control']).toBe('public, max-age=86400');
      const meta = await sharp(response.rawPayload).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(['webp', 320, 240]);
    }
  });

  it('draws an SVG as WebP at the requested width, sharp at twice its own size', async () => {
    for (const width of [320, 640]) {
      const response = await app.inject({ url: resizedUrl('/games/demo/tile.svg', width) });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('image/webp');
      const meta = await sharp(response.rawPayload).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(['webp', width, (width * 3) / 4]);
      // The middle is the circle's white, drawn at this size rather than blown up from a small bitmap.
      const { data, info } = await sharp(response.rawPayload).raw().toBuffer({ resolveWithObject: true });
      const middle = ((info.height / 2) * info.width + info.width / 2) * info.channels;
      expect(data[middle]).toBeGreaterThan(240);
    }
  });

  it('never enlarges', async () => {
    const response = await app.inject({ url: resizedUrl('/games/demo/shot.png', 1280) });
    expect((await sharp(response.rawPayload).metadata()).width).toBe(800);
  });

  it('serves every width a page asks for, and nothing else', async () => {
    for (const width of IMAGE_WIDTHS) {
      expect((await app.inject({ url: resizedUrl('/games/demo/shot.png', width) })).statusCode, String(width)).toBe(200);
    }
    expect(IMAGE_WIDTHS.size).toBeLessThan(20);
  });

  it('answers 404 (or 400) to anything but an allowed resize of an existing raster file below a root', async () => {
    for (const url of [
      '/_img/w_320,q_85,f_webp/games/demo/missing.png',
      '/_img/w_320,q_85,f_webp/games/demo/thumb.svg',
      '/_img/w_320,q_85,f_webp/games/../secret.png',
      '/_img/w_320,q_85,f_webp/games/%2e%2e/secret.png',
      '/_img/w_320,q_85,f_webp/uploads/demo/shot.png',
      '/_img/w_5000,q_85,f_webp/games/demo/shot.png',
      '/_img/w_8,q_85,f_webp/games/demo/shot.png',
      '/_img/w_200,q_0,f_webp/games/demo/shot.png',
      '/_img/w_200,q_85,f_bmp/games/demo/shot.png',
      '/_img/width=200/games/demo/shot.png',
      // Widths, qualities and formats no page asks for: each would be one more encoded variant.
      '/_img/w_200,q_85,f_webp/games/demo/shot.png',
      '/_img/w_321,q_85,f_webp/games/demo/shot.png',
      '/_img/w_320,q_84,f_webp/games/demo/shot.png',
      '/_img/w_320,q_100,f_webp/games/demo/shot.png',
      '/_img/w_320,q_85,f_avif/games/demo/shot.png',
      '/_img/w_320,q_85,f_png/games/demo/shot.png',
      '/_img/w_320,q_85,f_jpeg/games/demo/shot.png',
      // A malformed escape is a client's mistake, never a server error.
      '/_img/w_320,q_85,f_webp/games/%25zz.png',
      '/_img/w_320,q_85,f_webp/games/%zz.png',
      '/_img/w_100,q_85,f_webp/games/%25zz.png',
    ]) {
      const response = await app.inject({ url });
      // 400 where Fastify's router refuses the escape itself, 404 from the endpoint; never 500.
      expect(url.includes('%zz') ? [400, 404] : [404], url).toContain(response.statusCode);
    }
  });
});
