import type { Readable } from 'node:stream';

/**
 * Files the portal keeps and serves: avatars, article media, game builds' files, unfinished build
 * uploads, and (read-only) the games' own images.
 * Keys are relative paths ("avatars/12/abc-64.webp"); each is served at `publicPrefix + key`.
 * A folder (`DiskStorage`, shared by every instance) or an S3-compatible object store (`S3Storage`,
 * decision 150), whose public prefix is then the portal's path or a CDN's address.
 */
export interface FileStorage {
  /** Where the stored files are served: a path on the portal ("/uploads/") or an absolute URL. */
  readonly publicPrefix: string;
  /** Writes the whole object or nothing: a reader never sees half of it. */
  put(key: string, bytes: Buffer): Promise<void>;
  /** The object's bytes, or null when there is none. */
  read(key: string): Promise<Buffer | null>;
  /** The object's size and last change (for cache keys), or null when there is none. */
  stat(key: string): Promise<StoredObject | null>;
  /**
   * The object's bytes as a stream, or null when there is none (a large build file is not read
   * whole); with `range`, only those bytes. A range that starts past the end is refused with a
   * RangeNotSatisfiable error (check the size with `stat` first); an end past it is the last byte.
   */
  getStream(key: string, range?: ByteRange): Promise<Readable | null>;
  /** Removes the object; removing one that is not there is not an error. */
  delete(key: string): Promise<void>;
  /** The keys under a folder prefix ("12/" or "" for all), in no particular order; none is an empty list. */
  list(prefix: string): Promise<string[]>;
  /**
   * The folder on this machine that holds the keys under `prefix`, when the storage is one (a
   * static file server can then serve them with ranges and precompressed copies); null otherwise.
   */
  localFolder(prefix: string): string | null;
}

export interface StoredObject {
  size: number;
  modifiedMs: number;
  /** The store's entity tag of this version, where it keeps one (an object store); a folder has none. */
  etag?: string;
}

/** Bytes `start` to `end` of an object, both included, as in an HTTP Range header. */
export interface ByteRange {
  start: number;
  end: number;
}

/** A range asked of an object that does not reach it (HTTP 416). */
export class RangeNotSatisfiable extends Error {
  constructor(key: string, range: ByteRange) {
    super(`bytes ${range.start}-${range.end} are not within ${JSON.stringify(key)}`);
    this.name = 'RangeNotSatisfiable';
  }
}

const SEGMENT = /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/;

/**
 * Whether a key is a plain relative path: segments of letters, digits, dot, dash and underscore,
 * none of them "." or "..", no leading slash or backslash. Keys may come from a URL; a key that
 * is not plain is refused before any storage sees it.
 */
export function isStorageKey(key: string): boolean {
  if (key.length === 0 || key.length > 512) return false;
  return key.split('/').every((segment) => SEGMENT.test(segment) && segment !== '.' && segment !== '..');
}

/** The public URL of a key. */
export function publicUrl(storage: Pick<FileStorage, 'publicPrefix'>, key: string): string {
  return storage.publicPrefix + key;
}
