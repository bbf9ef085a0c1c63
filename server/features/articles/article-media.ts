import { createHash } from 'node:crypto';
import { extname } from 'node:path';
import { type FileStorage, publicUrl } from '#server/adapters/storage/file-storage.ts';

/** Where imported article images are kept and from which URL they are served. */
export interface ArticleMediaStore {
  /** Stores the bytes under a name derived from their content and returns its public URL. */
  save(name: string, bytes: Buffer): Promise<string>;
}

/**
 * Keeps images in the portal's file storage under articles/. Names carry a hash of the content,
 * so the URL changes whenever the image does and the files may be cached for a year.
 */
export class StoredMediaStore implements ArticleMediaStore {
  readonly #storage: FileStorage;
  constructor(storage: FileStorage) {
    this.#storage = storage;
  }

  async save(name: string, bytes: Buffer): Promise<string> {
    const extension = extname(name).toLowerCase();
    const stem =
      name
        .slice(0, name.length - extension.length)
        .replace(/[^A-Za-z0-9_-]+/g, '-')
        .replace(/^-+|-+$/g, '')
        .slice(0, 60) || 'image';
    const hash = createHash('sha256').update(bytes).digest('hex').slice(0, 16);
    const key = `articles/${stem}-${hash}${extension}`;
    // The same content under the same name is there already: an import run again writes nothing.
    if ((await this.#storage.stat(key))?.size !== bytes.length) await this.#storage.put(key, bytes);
    return publicUrl(this.#storage, key);
  }
}
