import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import type { Readable } from 'node:stream';
import { type ByteRange, type FileStorage, isStorageKey, RangeNotSatisfiable, type StoredObject } from './file-storage.ts';

/**
 * Files in a folder on disk. Writes go to a temporary name beside the target and are renamed
 * into place, so a reader (or a one-year browser cache) never gets half a file.
 */
export class DiskStorage implements FileStorage {
  readonly publicPrefix: string;
  readonly #root: string;
  readonly #readOnly: boolean;

  constructor(root: string, publicPrefix: string, options: { readOnly?: boolean } = {}) {
    this.#root = resolve(root);
    this.publicPrefix = publicPrefix.endsWith('/') ? publicPrefix : `${publicPrefix}/`;
    this.#readOnly = options.readOnly ?? false;
  }

  async put(key: string, bytes: Buffer): Promise<void> {
    if (this.#readOnly) throw new Error(`storage at ${this.publicPrefix} is read-only`);
    const file = this.#file(key);
    await mkdir(dirname(file), { recursive: true });
    const temporary = `${file}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      await writeFile(temporary, bytes);
      await rename(temporary, file);
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
  }

  async read(key: string): Promise<Buffer | null> {
    if (!isStorageKey(key)) return null;
    return readFile(this.#file(key)).catch(() => null);
  }

  async stat(key: string): Promise<StoredObject | null> {
    if (!isStorageKey(key)) return null;
    const info = await stat(this.#file(key)).catch(() => null);
    return info?.isFile() ? { size: info.size, modifiedMs: info.mtimeMs } : null;
  }

  async getStream(key: string, range?: ByteRange): Promise<Readable | null> {
    const info = await this.stat(key);
    if (!info) return null;
    if (!range) return createReadStream(this.#file(key));
    if (range.start < 0 || range.start >= info.size || range.end < range.start) throw new RangeNotSatisfiable(key, range);
    return createReadStream(this.#file(key), { start: range.start, end: Math.min(range.end, info.size - 1) });
  }

  async list(prefix: string): Promise<string[]> {
    const names = await readdir(this.#folder(prefix), { recursive: true }).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT' || error.code === 'ENOTDIR') return [] as string[];
      throw error;
    });
    // Files only, by key: folders and names that are not keys (a temporary file being written) are left out.
    const base = prefix === '' || prefix.endsWith('/') ? prefix : `${prefix}/`;
    const keys = names.map((name) => base + name.split(sep).join('/')).filter((key) => isStorageKey(key) && !key.endsWith('.tmp'));
    const files = await Promise.all(keys.map(async (key) => ((await this.stat(key)) ? key : null)));
    return files.filter((key) => key !== null);
  }

  localFolder(prefix: string): string {
    return this.#folder(prefix);
  }

  async delete(key: string): Promise<void> {
    if (this.#readOnly) throw new Error(`storage at ${this.publicPrefix} is read-only`);
    await rm(this.#file(key), { force: true });
  }

  /** The folder of a prefix ("" or a key's folder with or without its slash); nothing outside the root. */
  #folder(prefix: string): string {
    const path = prefix.replace(/\/$/, '');
    if (path !== '' && !isStorageKey(path)) throw new Error(`not a storage prefix: ${JSON.stringify(prefix)}`);
    return path === '' ? this.#root : join(this.#root, path);
  }

  /** The file of a key; a key that could leave the folder is refused here as well. */
  #file(key: string): string {
    const file = resolve(this.#root, key);
    if (!isStorageKey(key) || !file.startsWith(this.#root + sep)) throw new Error(`not a storage key: ${JSON.stringify(key)}`);
    return file;
  }
}
