import { createHash } from 'node:crypto';
import sharp from 'sharp';
import {
  AVATAR_FIELD,
  AVATAR_MAX_AREA,
  AVATAR_MAX_BYTES,
  AVATAR_MAX_PIXELS,
  AVATAR_MIN_PIXELS,
  AVATAR_SIZES,
  type AvatarSizes,
} from '#common/api/accounts.schema.ts';
import { type FileStorage, publicUrl } from '#server/adapters/storage/file-storage.ts';
import { fieldError } from '#server/lib/app-error.ts';

type ImageFormat = 'png' | 'jpeg' | 'webp' | 'gif';

/** An avatar in storage: the URL user info shows and every rendition. */
export interface StoredAvatar {
  url: string;
  sizes: AvatarSizes;
}

const LARGEST = AVATAR_SIZES.at(-1)!;
const QUALITY = 85;
/** Our avatar keys: avatars/{user id}/{content hash}-{size}.webp, served at the storage's prefix. */
const OWN_KEY = /^avatars\/(\d+)\/([0-9a-f]{16})-\d+\.webp$/;

/**
 * Avatars: checks that the bytes are a real image of an allowed type (by their content, never
 * by the file name or declared type), re-encodes square webp renditions, and stores them under
 * names that carry a content hash, so a new avatar gets new URLs and old ones can be cached forever.
 */
export class AvatarsService {
  readonly #storage: FileStorage;
  constructor(storage: FileStorage) {
    this.#storage = storage;
  }

  /** Validates and re-encodes; throws a 422 naming the avatar field. Nothing is written here. */
  async render(bytes: Buffer): Promise<Map<number, Buffer>> {
    if (bytes.length === 0) throw fieldError({ [AVATAR_FIELD]: ['accounts:avatar.required'] });
    if (bytes.length > AVATAR_MAX_BYTES) throw avatarTooLarge();
    const format = sniff(bytes);
    if (!format) throw badType();
    const input = { limitInputPixels: AVATAR_MAX_AREA, failOn: 'error' as const };
    const metadata = await sharp(bytes, input)
      .metadata()
      .catch((cause: unknown) => {
        throw badType(cause);
      });
    if (metadata.format !== format) throw badType();
    const width = metadata.width;
    const height = metadata.pageHeight ?? metadata.height;
    if (width < AVATAR_MIN_PIXELS || height < AVATAR_MIN_PIXELS || width > AVATAR_MAX_PIXELS || height > AVATAR_MAX_PIXELS) {
      throw fieldError({ [AVATAR_FIELD]: [{ key: 'accounts:avatar.dimensions', values: { min: AVATAR_MIN_PIXELS, max: AVATAR_MAX_PIXELS } }] });
    }
    try {
      // rotate() applies the EXIF orientation; re-encoding drops every other metadata block.
      const base = sharp(bytes, input).rotate();
      const renditions = await Promise.all(
        AVATAR_SIZES.map(async (size) => [size, await base.clone().resize(size, size, { fit: 'cover' }).webp({ quality: QUALITY }).toBuffer()] as const),
      );
      return new Map(renditions);
    } catch (cause) {
      // A header can be valid while the pixel data is truncated or corrupt.
      throw badType(cause);
    }
  }

  /** Validates, re-encodes and writes the renditions for a user. */
  async store(userId: number, bytes: Buffer): Promise<StoredAvatar> {
    const renditions = await this.render(bytes);
    const hash = createHash('sha256').update(bytes).digest('hex').slice(0, 16);
    const written: string[] = [];
    try {
      for (const [size, data] of renditions) {
        const key = keyOf(userId, hash, size);
        await this.#storage.put(key, data);
        written.push(key);
      }
    } catch (error) {
      await Promise.all(written.map((key) => this.#storage.delete(key)));
      throw error;
    }
    return { url: this.#url(userId, hash, LARGEST), sizes: this.#sizes(userId, hash) };
  }

  /** The renditions of an avatar URL when it is one of ours (social avatars are plain URLs). */
  sizesFor(url: string | null): AvatarSizes | null {
    const match = this.#ownKey(url);
    return match ? this.#sizes(Number(match[1]), match[2]!) : null;
  }

  /** Deletes the files of one of our avatars; other URLs are left alone. */
  async remove(url: string | null): Promise<void> {
    const match = this.#ownKey(url);
    if (!match) return;
    await Promise.all(AVATAR_SIZES.map((size) => this.#storage.delete(keyOf(Number(match[1]), match[2]!, size))));
  }

  #ownKey(url: string | null): RegExpExecArray | null {
    const prefix = this.#storage.publicPrefix;
    return url?.startsWith(prefix) ? OWN_KEY.exec(url.slice(prefix.length)) : null;
  }

  #url(userId: number, hash: string, size: number): string {
    return publicUrl(this.#storage, keyOf(userId, hash, size));
  }

  #sizes(userId: number, hash: string): AvatarSizes {
    return { 64: this.#url(userId, hash, 64), 128: this.#url(userId, hash, 128), 256: this.#url(userId, hash, 256) };
  }
}

function keyOf(userId: number, hash: string, size: number): string {
  return `avatars/${userId}/${hash}-${size}.webp`;
}

/** The image type from the file's first bytes (magic numbers). */
export function sniff(bytes: Buffer): ImageFormat | null {
  const ascii = (start: number, end: number) => bytes.subarray(start, end).toString('latin1');
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'png';
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  if (bytes.length >= 6 && (ascii(0, 6) === 'GIF87a' || ascii(0, 6) === 'GIF89a')) return 'gif';
  if (bytes.length >= 12 && ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return 'webp';
  return null;
}

function badType(cause?: unknown) {
  return fieldError({ [AVATAR_FIELD]: ['accounts:avatar.type'] }, cause);
}

/** The 422 for a file over the size limit (the upload route stops reading at the limit). */
export function avatarTooLarge() {
  return fieldError({ [AVATAR_FIELD]: [{ key: 'accounts:avatar.tooLarge', values: { megabytes: AVATAR_MAX_BYTES / 1024 / 1024 } }] });
}
