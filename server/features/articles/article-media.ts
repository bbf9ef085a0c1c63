import { createHash, randomBytes } from 'node:crypto';
import { mkdir, rename, stat, writeFile } from 'node:fs/promises';
import { extname, join } from 'node:path';
import sharp from 'sharp';

/** Formats an article may show: what browsers display and sharp can measure. */
const IMAGE_TYPES: Record<string, string> = {
  '.svg': 'svg',
  '.png': 'png',
  '.jpg': 'jpeg',
  '.jpeg': 'jpeg',
  '.webp': 'webp',
  '.gif': 'gif',
  '.avif': 'heif',
};

export function isImagePath(path: string): boolean {
  return extname(path).toLowerCase() in IMAGE_TYPES;
}

/** Intrinsic size of an image file, or an error message that names what is wrong with it. */
export async function measureImage(bytes: Buffer, path: string): Promise<{ width: number; height: number } | string> {
  const expected = IMAGE_TYPES[extname(path).toLowerCase()];
  if (!expected) return `must be an image (${Object.keys(IMAGE_TYPES).join(', ')})`;
  try {
    const meta = await sharp(bytes).metadata();
    if (meta.format !== expected) return `is not a ${expected.toUpperCase()} image although its name says so`;
    if (!meta.width || !meta.height) return 'has no width and height';
    return { width: meta.width, height: meta.height };
  } catch {
    return 'cannot be read as an image';
  }
}

/** Where imported article images are kept and from which URL they are served. */
export interface ArticleMediaStore {
  /** Stores the bytes under a name derived from their content and returns its public URL. */
  save(name: string, bytes: Buffer): Promise<string>;
}

/**
 * Keeps images in a folder that the portal serves (the uploads folder, shared by every
 * instance). Names carry a hash of the content, so the URL changes whenever the image does
 * and the files may be cached for a year.
 */
export class FolderMediaStore implements ArticleMediaStore {
  readonly #folder: string;
  readonly #publicPrefix: string;
  constructor(folder: string, publicPrefix: string) {
    this.#folder = folder;
    this.#publicPrefix = publicPrefix.endsWith('/') ? publicPrefix : `${publicPrefix}/`;
  }

  async save(name: string, bytes: Buffer): Promise<string> {
    const extension = extname(name).toLowerCase();
    const stem = name.slice(0, name.length - extension.length).replace(/[^A-Za-z0-9_-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 60) || 'image';
    const hash = createHash('sha256').update(bytes).digest('hex').slice(0, 16);
    const file = `${stem}-${hash}${extension}`;
    const target = join(this.#folder, file);
    const existing = await stat(target).catch(() => null);
    if (existing?.size !== bytes.length) {
      await mkdir(this.#folder, { recursive: true });
      // Written aside and renamed: a reader (or a second importer) never sees half a file.
      const temporary = `${target}.${randomBytes(6).toString('hex')}.tmp`;
      await writeFile(temporary, bytes);
      await rename(temporary, target);
    }
    return this.#publicPrefix + file;
  }
}
