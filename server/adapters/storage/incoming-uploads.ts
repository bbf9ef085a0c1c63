import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { FileStore } from '@tus/file-store';
import { S3Store } from '@tus/s3-store';
import type { DataStore } from '@tus/server';
import type { DiskStorage } from './disk-storage.ts';
import type { FileStorage } from './file-storage.ts';

/**
 * Where unfinished build uploads (the tus protocol, decision 109) are kept: a folder, or the object
 * store (decision 150) so that every instance resumes any upload. `files` sees the same objects by
 * upload id (`<id>`, and `<id>.json` in a folder or `<id>.info`/`<id>.part` in a bucket).
 */
export interface IncomingUploads {
  /** The upload server's store. */
  datastore: DataStore;
  /** What the store's ids start with before the upload's own id (the bucket prefix of the unfinished uploads). */
  idPrefix: string;
  /** The unfinished uploads' objects, for the clean-up of abandoned ones. */
  files: FileStorage;
}

/** Unfinished uploads in a folder (`BUILDS_DIR/.incoming`), each a file and its `.json` info file. */
export function folderIncomingUploads(files: DiskStorage): IncomingUploads {
  return { datastore: new FileStore({ directory: files.localFolder('') }), idPrefix: '', files };
}

/** What S3 answers for an object that is not there. */
const NOT_THERE = new Set(['NoSuchKey', 'NotFound', 'NoSuchUpload']);

/**
 * The tus S3 store, except that a bucket that cannot be read is not an upload that does not exist:
 * the library answers "not found" for any failure to read an upload's info, which would have the
 * Studio's uploader start again from nothing; here the failure itself goes on (a 503, decision 077).
 */
class BucketUploadStore extends S3Store {
  override async getUpload(id: string) {
    try {
      // Read once: the store keeps what it read for the call below.
      await this.getMetadata(id);
    } catch (error) {
      const name = (error as { name?: unknown; Code?: unknown }).name ?? (error as { Code?: unknown }).Code;
      if (typeof name !== 'string' || !NOT_THERE.has(name)) throw error;
    }
    return super.getUpload(id);
  }
}

/** Unfinished uploads in the bucket as S3 multipart uploads, under the prefix of `files`. */
export function bucketIncomingUploads(
  files: FileStorage & { keyPrefix: string },
  s3: ConstructorParameters<typeof S3Store>[0]['s3ClientConfig'],
): IncomingUploads {
  return { datastore: new BucketUploadStore({ s3ClientConfig: s3 }), idPrefix: files.keyPrefix, files };
}

/** Removes every piece of an upload: the store's own (a bucket's multipart upload, its info) and any file left beside. */
export async function removeIncomingUpload(incoming: IncomingUploads, id: string): Promise<void> {
  await incoming.datastore.remove(incoming.idPrefix + id).catch(() => undefined);
  await Promise.all([id, `${id}.json`, `${id}.info`, `${id}.part`].map((name) => incoming.files.delete(name)));
}

/**
 * Runs `use` with a path on this machine holding the stored object `key` (a zip is read at random
 * places): the file itself in a folder, else a temporary copy removed afterwards.
 */
export async function withLocalCopy<T>(files: FileStorage, key: string, use: (path: string) => Promise<T>): Promise<T> {
  const folder = files.localFolder('');
  if (folder !== null) return use(join(folder, key));
  const directory = await mkdtemp(join(tmpdir(), 'playport-upload-'));
  try {
    const stream = await files.getStream(key);
    if (!stream) throw new Error(`the finished upload ${key} is not in the store`);
    const path = join(directory, 'upload');
    await pipeline(stream, createWriteStream(path));
    return await use(path);
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}
