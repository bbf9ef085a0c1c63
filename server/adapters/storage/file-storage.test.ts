import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startS3StandIn } from '#server/testing/s3-stand-in.ts';
import { DiskStorage } from './disk-storage.ts';
import { type FileStorage, isStorageKey, publicUrl, RangeNotSatisfiable } from './file-storage.ts';
import { S3Storage, s3ClientConfig } from './s3-storage.ts';

async function bytesOf(stream: Readable | null): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream!) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

const REFUSED_KEYS = [
  '../secret.txt',
  'a/../../secret.txt',
  '/etc/passwd',
  'a\\..\\..\\secret.txt',
  '.',
  '..',
  '',
  'a//b',
  'a/./b',
  '.hidden/../../secret.txt',
];

/**
 * The contract every FileStorage keeps (decision 150), run on the folder and on the object store
 * (against the local S3 stand-in): each test uses keys of its own, so the storages are made once.
 */
function storageContract(name: string, make: () => Promise<{ storage: FileStorage; stop(): Promise<void> }>) {
  describe(`${name} keeps the storage contract`, () => {
    let storage: FileStorage;
    let stop: () => Promise<void>;
    beforeAll(async () => {
      ({ storage, stop } = await make());
    });
    afterAll(() => stop());

    it('writes, reads, describes and deletes an object; deleting one that is not there is no error', async () => {
      await storage.put('avatars/7/abc-64.webp', Buffer.from('pixels'));
      expect((await storage.read('avatars/7/abc-64.webp'))?.toString()).toBe('pixels');
      const info = await storage.stat('avatars/7/abc-64.webp');
      expect(info).toMatchObject({ size: 6 });
      expect(Math.abs(info!.modifiedMs - Date.now())).toBeLessThan(60_000);
      expect(publicUrl(storage, 'avatars/7/abc-64.webp')).toBe(`${storage.publicPrefix}avatars/7/abc-64.webp`);
      await storage.delete('avatars/7/abc-64.webp');
      expect(await storage.read('avatars/7/abc-64.webp')).toBeNull();
      expect(await storage.stat('avatars/7/abc-64.webp')).toBeNull();
      expect(await storage.getStream('avatars/7/abc-64.webp')).toBeNull();
      await expect(storage.delete('avatars/7/abc-64.webp')).resolves.toBeUndefined();
    });

    it('answers null for an absent key, and an empty object is an object', async () => {
      expect(await storage.read('absent/none.txt')).toBeNull();
      expect(await storage.stat('absent/none.txt')).toBeNull();
      expect(await storage.getStream('absent/none.txt', { start: 0, end: 3 })).toBeNull();
      await storage.put('empty/zero.bin', Buffer.alloc(0));
      expect(await storage.stat('empty/zero.bin')).toMatchObject({ size: 0 });
      expect((await storage.read('empty/zero.bin'))?.length).toBe(0);
      expect((await bytesOf(await storage.getStream('empty/zero.bin'))).length).toBe(0);
    });

    it('refuses every key that is not a plain relative path, reading nothing and writing nothing', async () => {
      for (const key of REFUSED_KEYS) {
        expect(isStorageKey(key), key).toBe(false);
        expect(await storage.read(key), key).toBeNull();
        expect(await storage.stat(key), key).toBeNull();
        expect(await storage.getStream(key), key).toBeNull();
        await expect(storage.put(key, Buffer.from('x')), key).rejects.toThrow(/not a storage key/);
        await expect(storage.delete(key), key).rejects.toThrow(/not a storage key/);
      }
      await expect(storage.list('../')).rejects.toThrow(/not a storage prefix/);
      expect((await storage.list('')).filter((key) => !isStorageKey(key))).toEqual([]);
    });

    it('streams byte ranges: inside, to the end, past the end clipped, and refuses one that starts past the end', async () => {
      await storage.put('ranges/file.bin', Buffer.from('0123456789'));
      expect((await bytesOf(await storage.getStream('ranges/file.bin', { start: 2, end: 5 }))).toString()).toBe('2345');
      expect((await bytesOf(await storage.getStream('ranges/file.bin', { start: 9, end: 9 }))).toString()).toBe('9');
      expect((await bytesOf(await storage.getStream('ranges/file.bin', { start: 7, end: 100 }))).toString()).toBe('789');
      expect((await bytesOf(await storage.getStream('ranges/file.bin'))).toString()).toBe('0123456789');
      await expect(storage.getStream('ranges/file.bin', { start: 10, end: 12 })).rejects.toThrow(RangeNotSatisfiable);
      await expect(storage.getStream('ranges/file.bin', { start: 5, end: 4 })).rejects.toThrow(RangeNotSatisfiable);
    });

    it('lists the keys under a folder prefix, with or without its slash, and nothing of a neighbour', async () => {
      await storage.put('list/12/3/index.html', Buffer.from('<p>game</p>'));
      await storage.put('list/12/3/Build/game.wasm', Buffer.from('wasm'));
      await storage.put('list/13/1/index.html', Buffer.from('other'));
      await storage.put('list/123/1/index.html', Buffer.from('neighbour'));
      expect((await storage.list('list/12/')).sort()).toEqual(['list/12/3/Build/game.wasm', 'list/12/3/index.html']);
      expect((await storage.list('list/12')).sort()).toEqual(['list/12/3/Build/game.wasm', 'list/12/3/index.html']);
      expect((await storage.list('list')).length).toBe(4);
      expect(await storage.list('list/99/')).toEqual([]);
      expect(await storage.list('')).toEqual(expect.arrayContaining(['list/13/1/index.html']));
    });

    it('lists more keys than one page of a listing holds', async () => {
      const keys = Array.from({ length: 1_030 }, (_, index) => `many/${String(index).padStart(4, '0')}.txt`);
      for (let index = 0; index < keys.length; index += 50) await Promise.all(keys.slice(index, index + 50).map((key) => storage.put(key, Buffer.from(key))));
      expect((await storage.list('many/')).sort()).toEqual(keys);
    });

    it('overwrites atomically: a reader during many rewrites sees one whole version, never a mix', async () => {
      const versions = ['a', 'b', 'c', 'd'].map((letter) => Buffer.alloc(256 * 1024, letter));
      await storage.put('atomic/file.bin', versions[0]!);
      const writes = (async () => {
        for (let round = 0; round < 6; round += 1) await storage.put('atomic/file.bin', versions[round % versions.length]!);
      })();
      const seen = new Set<string>();
      while (seen.size < 50) {
        const bytes = await storage.read('atomic/file.bin');
        expect(bytes?.length).toBe(256 * 1024);
        const letters = new Set(bytes!.toString('latin1'));
        expect(letters.size).toBe(1);
        seen.add(`${seen.size}`);
      }
      await writes;
    });

    it('streams a large object without changing a byte', async () => {
      const large = randomBytes(12 * 1024 * 1024);
      await storage.put('large/build.data', large);
      const digest = createHash('sha256');
      for await (const chunk of (await storage.getStream('large/build.data'))!) digest.update(chunk as Buffer);
      expect(digest.digest('hex')).toBe(createHash('sha256').update(large).digest('hex'));
      expect((await storage.stat('large/build.data'))?.size).toBe(large.length);
      const tail = await bytesOf(await storage.getStream('large/build.data', { start: large.length - 1000, end: large.length - 1 }));
      expect(tail.equals(large.subarray(large.length - 1000))).toBe(true);
    });
  });
}

storageContract('DiskStorage', async () => {
  const root = mkdtempSync(join(tmpdir(), 'playport-storage-'));
  return { storage: new DiskStorage(join(root, 'uploads'), '/uploads'), stop: async () => rmSync(root, { recursive: true, force: true }) };
});

storageContract('S3Storage', async () => {
  const root = mkdtempSync(join(tmpdir(), 'playport-s3-'));
  const standIn = await startS3StandIn({ port: 0, directory: root, bucket: 'contract' });
  const client = new S3Client(s3ClientConfig(standIn.settings));
  return {
    storage: new S3Storage({ client, bucket: 'contract', keyPrefix: 'playport/uploads/', publicPrefix: '/uploads/' }),
    stop: async () => {
      client.destroy();
      await standIn.stop();
      rmSync(root, { recursive: true, force: true });
    },
  };
});

describe('DiskStorage', () => {
  it('leaves no temporary file, names its folder on this machine, and never leaves it', async () => {
    const root = mkdtempSync(join(tmpdir(), 'playport-storage-'));
    try {
      const storage = new DiskStorage(join(root, 'uploads'), '/uploads');
      writeFileSync(join(root, 'secret.txt'), 'outside');
      await storage.put('12/3/index.html', Buffer.from('<p>game</p>'));
      expect(
        readdirSync(join(root, 'uploads'), { recursive: true })
          .map(String)
          .filter((f) => f.endsWith('.tmp')),
      ).toEqual([]);
      expect(storage.localFolder('12/3/')).toBe(join(root, 'uploads', '12', '3'));
      expect(() => storage.localFolder('..')).toThrow(/not a storage prefix/);
      expect(await storage.read('../secret.txt')).toBeNull();
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('a read-only storage (the games) refuses writes and deletions', async () => {
    const root = mkdtempSync(join(tmpdir(), 'playport-storage-'));
    try {
      writeFileSync(join(root, 'secret.txt'), 'outside');
      const games = new DiskStorage(root, '/games/', { readOnly: true });
      await expect(games.put('x.png', Buffer.from('x'))).rejects.toThrow(/read-only/);
      await expect(games.delete('secret.txt')).rejects.toThrow(/read-only/);
      expect((await games.read('secret.txt'))?.toString()).toBe('outside');
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('the S3 stand-in', () => {
  it('serves the same objects when started again on its directory and port, and refuses an unknown access key and a wrong signature', async () => {
    const root = mkdtempSync(join(tmpdir(), 'playport-s3-'));
    try {
      let standIn = await startS3StandIn({ port: 0, directory: root, bucket: 'again' });
      const port = Number(new URL(standIn.endpoint).port);
      const settings = standIn.settings;
      const client = new S3Client({ ...s3ClientConfig(settings), maxAttempts: 1 });
      const storage = new S3Storage({ client, bucket: 'again', keyPrefix: 'p/', publicPrefix: '/' });
      await storage.put('kept.txt', Buffer.from('kept'));
      await standIn.stop();
      await expect(storage.read('kept.txt')).rejects.toThrow();
      standIn = await startS3StandIn({ port, directory: root, bucket: 'again' });
      expect((await storage.read('kept.txt'))?.toString()).toBe('kept');
      const stranger = new S3Storage({
        client: new S3Client({ ...s3ClientConfig({ ...settings, accessKeyId: 'someone-else' }), maxAttempts: 1 }),
        bucket: 'again',
        keyPrefix: 'p/',
        publicPrefix: '/',
      });
      await expect(stranger.read('kept.txt')).rejects.toThrow(/Access Key Id/);
      // Its signatures are checked: the right key with a wrong secret, or signed for another region, is refused.
      for (const wrong of [{ secretAccessKey: 'not-the-secret' }, { region: 'eu-west-1' }]) {
        const misconfigured = new S3Storage({
          client: new S3Client({ ...s3ClientConfig({ ...settings, ...wrong }), maxAttempts: 1 }),
          bucket: 'again',
          keyPrefix: 'p/',
          publicPrefix: '/',
        });
        await expect(misconfigured.read('kept.txt'), JSON.stringify(wrong)).rejects.toThrow(/signature|malformed/i);
        await expect(misconfigured.put('other.txt', Buffer.from('no')), JSON.stringify(wrong)).rejects.toThrow();
      }
      expect(await storage.read('other.txt')).toBeNull();
      // A signature that does not match its request is refused.
      const signed = await fetch(`${standIn.endpoint}/again/p/kept.txt`, {
        headers: {
          authorization: `AWS4-HMAC-SHA256 Credential=${settings.accessKeyId}/20260101/us-east-1/s3/aws4_request, SignedHeaders=host;x-amz-date, Signature=${'0'.repeat(64)}`,
          'x-amz-date': '20260101T000000Z',
          'x-amz-content-sha256': 'UNSIGNED-PAYLOAD',
        },
      });
      expect(signed.status).toBe(403);
      expect(await signed.text()).toContain('SignatureDoesNotMatch');
      client.destroy();
      await standIn.stop();
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
