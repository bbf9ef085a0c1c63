import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DiskStorage } from './disk-storage.ts';
import { isStorageKey, publicUrl } from './file-storage.ts';

describe('DiskStorage', () => {
  let root: string;
  let storage: DiskStorage;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'playport-storage-'));
    storage = new DiskStorage(join(root, 'uploads'), '/uploads');
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('writes, reads, describes and deletes an object, leaving no temporary file', async () => {
    await storage.put('avatars/7/abc-64.webp', Buffer.from('pixels'));
    expect((await storage.read('avatars/7/abc-64.webp'))?.toString()).toBe('pixels');
    expect(await storage.stat('avatars/7/abc-64.webp')).toMatchObject({ size: 6 });
    expect(
      readdirSync(join(root, 'uploads'), { recursive: true })
        .map(String)
        .filter((f) => f.endsWith('.tmp')),
    ).toEqual([]);
    expect(publicUrl(storage, 'avatars/7/abc-64.webp')).toBe('/uploads/avatars/7/abc-64.webp');
    await storage.delete('avatars/7/abc-64.webp');
    expect(await storage.read('avatars/7/abc-64.webp')).toBeNull();
    expect(await storage.stat('avatars/7/abc-64.webp')).toBeNull();
    await expect(storage.delete('avatars/7/abc-64.webp')).resolves.toBeUndefined();
  });

  it('never reads or writes outside its folder, whatever the key', async () => {
    writeFileSync(join(root, 'secret.txt'), 'outside');
    for (const key of [
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
    ]) {
      expect(isStorageKey(key), key).toBe(false);
      expect(await storage.read(key), key).toBeNull();
      expect(await storage.stat(key), key).toBeNull();
      await expect(storage.put(key, Buffer.from('x')), key).rejects.toThrow(/not a storage key/);
      await expect(storage.delete(key), key).rejects.toThrow(/not a storage key/);
    }
    expect(isStorageKey('articles/cover-0123abcd.png')).toBe(true);
  });

  it('a read-only storage (the games) refuses writes and deletions', async () => {
    writeFileSync(join(root, 'secret.txt'), 'outside');
    const games = new DiskStorage(root, '/games/', { readOnly: true });
    await expect(games.put('x.png', Buffer.from('x'))).rejects.toThrow(/read-only/);
    await expect(games.delete('secret.txt')).rejects.toThrow(/read-only/);
    expect((await games.read('secret.txt'))?.toString()).toBe('outside');
  });

  it('streams an object, lists the keys under a folder, and names its folder on this machine', async () => {
    await storage.put('12/3/index.html', Buffer.from('<p>game</p>'));
    await storage.put('12/3/Build/game.wasm', Buffer.from('wasm'));
    await storage.put('13/1/index.html', Buffer.from('other'));
    const stream = await storage.getStream('12/3/index.html');
    const chunks: Buffer[] = [];
    for await (const chunk of stream!) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).toString()).toBe('<p>game</p>');
    expect(await storage.getStream('12/3/missing.html')).toBeNull();
    expect((await storage.list('12/')).sort()).toEqual(['12/3/Build/game.wasm', '12/3/index.html']);
    expect((await storage.list('12')).sort()).toEqual(['12/3/Build/game.wasm', '12/3/index.html']);
    expect((await storage.list('')).length).toBe(3);
    expect(await storage.list('99/')).toEqual([]);
    expect(storage.localFolder('12/3/')).toBe(join(root, 'uploads', '12', '3'));
    // A prefix that would leave the folder is refused, as a key is.
    await expect(storage.list('../')).rejects.toThrow(/not a storage prefix/);
    expect(() => storage.localFolder('..')).toThrow(/not a storage prefix/);
  });
});
