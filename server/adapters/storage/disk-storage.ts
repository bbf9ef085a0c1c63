import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, resolve, sep } from 'node:path';
import { type FileStorage, isStorageKey, type StoredObject } from './file-storage.ts';

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

  async delete(key: string): Promise<void> {
    if (this.#readOnly) throw new Error(`storage at ${this.publicPrefix} is read-only`);
    await rm(this.#file(key), { force: true });
  }

  /** The file of a key; a key that could leave the folder is refused here as well. */
  #file(key: string): string {
    const file = resolve(this.#root, key);
    if (!isStorageKey(key) || !file.startsWith(this.#root + sep)) throw new Error(`not a storage key: ${JSON.stringify(key)}`);
    return file;
  }
}
