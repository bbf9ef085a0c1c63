import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AppError } from '#server/lib/app-error.ts';
import { DiskStorage } from '#server/adapters/storage/disk-storage.ts';
import { AvatarsService, sniff } from './avatars.service.ts';

const image = (width: number, height: number, format: 'png' | 'jpeg' | 'webp' | 'gif') =>
  sharp({ create: { width, height, channels: 3, background: '#2a9d8f' } })
    .toFormat(format)
    .toBuffer();

const fieldMessages = async (promise: Promise<unknown>) => {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  expect((error as AppError).code).toBe('validation');
  return (error as AppError).options.fields?.avatar;
};

describe('AvatarsService', () => {
  let root: string;
  let avatars: AvatarsService;
  const files = () =>
    readdirSync(root, { recursive: true })
      .map(String)
      .filter((f) => f.endsWith('.webp') || f.endsWith('.tmp'));

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'playport-avatars-'));
    avatars = new AvatarsService(new DiskStorage(root, '/uploads/'));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it.each(['png', 'jpeg', 'webp', 'gif'] as const)('re-encodes a %s into square webp renditions', async (format) => {
    const stored = await avatars.store(7, await image(300, 200, format));
    expect(stored.url).toMatch(/^\/uploads\/avatars\/7\/[0-9a-f]{16}-256\.webp$/);
    expect(files().sort()).toHaveLength(3);
    for (const size of [64, 128, 256] as const) {
      const file = join(root, stored.sizes[size].replace('/uploads/', ''));
      const meta = await sharp(file).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(['webp', size, size]);
    }
    expect(avatars.sizesFor(stored.url)).toEqual(stored.sizes);
  });

  it('names files by content, so another image gets other URLs', async () => {
    const one = await avatars.store(7, await image(100, 100, 'png'));
    const two = await avatars.store(7, await image(120, 100, 'png'));
    expect(one.url).not.toBe(two.url);
    await avatars.remove(one.url);
    expect(files().sort()).toEqual(
      Object.values(two.sizes)
        .map((u) => u.replace('/uploads/', ''))
        .sort(),
    );
  });

  it('rejects what is not an allowed image, writing nothing', async () => {
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100"><rect width="100" height="100"/></svg>');
    const tiff = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#000' } })
      .tiff()
      .toBuffer();
    const png = await image(100, 100, 'png');
    const truncated = png.subarray(0, 60);
    const pngHeaderOnText = Buffer.concat([png.subarray(0, 8), Buffer.from('this is not a png at all')]);
    for (const bytes of [Buffer.from('hello, I am a text file\n'), svg, tiff, truncated, pngHeaderOnText]) {
      expect(await fieldMessages(avatars.store(7, bytes))).toEqual(['accounts:avatar.type']);
    }
    expect(await fieldMessages(avatars.store(7, Buffer.alloc(0)))).toEqual(['accounts:avatar.required']);
    expect(files()).toEqual([]);
  });

  it('rejects images that are too small or too large', async () => {
    expect(await fieldMessages(avatars.store(7, await image(16, 100, 'png')))).toMatchObject([{ key: 'accounts:avatar.dimensions' }]);
    expect(await fieldMessages(avatars.store(7, await image(10_001, 40, 'png')))).toMatchObject([{ key: 'accounts:avatar.dimensions' }]);
    expect(await fieldMessages(avatars.store(7, Buffer.alloc(5 * 1024 * 1024 + 1, 0xff)))).toMatchObject([{ key: 'accounts:avatar.tooLarge' }]);
    expect(files()).toEqual([]);
  });

  it('leaves other avatar URLs alone', async () => {
    expect(avatars.sizesFor('https://example.com/me.png')).toBeNull();
    expect(avatars.sizesFor(null)).toBeNull();
    await avatars.remove('https://example.com/me.png');
  });
});

describe('sniff', () => {
  it('recognises the four formats by their first bytes', async () => {
    for (const format of ['png', 'jpeg', 'webp', 'gif'] as const) expect(sniff(await image(40, 40, format))).toBe(format);
    expect(sniff(Buffer.from('GIF'))).toBeNull();
    expect(sniff(Buffer.from('RIFF0000WAVE'))).toBeNull();
  });
});
