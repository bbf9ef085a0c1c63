import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { Readable } from 'node:stream';
import type { ObjectStorageConfig } from '#server/config/storage.ts';
import { type ByteRange, type FileStorage, isStorageKey, RangeNotSatisfiable, type StoredObject } from './file-storage.ts';

/** Where an S3-compatible store is and how to sign in to it (STORAGE_URL and the S3_ variables, decision 150). */
export type ObjectStoreSettings = Omit<ObjectStorageConfig, 'publicUrl'>;

/**
 * The client settings for a store: checksums only where S3 requires them, as S3-compatible servers
 * differ in which newer checksum headers they understand; a store that does not answer within
 * seconds fails the request rather than holding it.
 */
export function s3ClientConfig(settings: ObjectStoreSettings): S3ClientConfig {
  return {
    region: settings.region,
    ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
    forcePathStyle: settings.forcePathStyle,
    credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    requestHandler: { connectionTimeout: 5_000, requestTimeout: 60_000 },
  };
}

/** Whether an S3 error says the object (or bucket) is not there. */
function isAbsent(error: unknown): boolean {
  const failure = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return failure.name === 'NoSuchKey' || failure.name === 'NotFound' || failure.$metadata?.httpStatusCode === 404;
}

/**
 * Files in an S3-compatible bucket (decision 150), under `<bucket prefix><storage prefix>`. A PUT is
 * atomic in S3: a reader gets the old object or the new one, never half of either.
 */
export class S3Storage implements FileStorage {
  readonly publicPrefix: string;
  readonly bucket: string;
  /** The prefix of this storage's keys in the bucket ("playport/uploads/"). */
  readonly keyPrefix: string;
  readonly #client: S3Client;

  constructor(options: { client: S3Client; bucket: string; keyPrefix: string; publicPrefix: string }) {
    this.#client = options.client;
    this.bucket = options.bucket;
    this.keyPrefix = options.keyPrefix === '' || options.keyPrefix.endsWith('/') ? options.keyPrefix : `${options.keyPrefix}/`;
    this.publicPrefix = options.publicPrefix.endsWith('/') ? options.publicPrefix : `${options.publicPrefix}/`;
  }

  async put(key: string, bytes: Buffer): Promise<void> {
    await this.#client.send(new PutObjectCommand({ Bucket: this.bucket, Key: this.#key(key), Body: bytes, ContentLength: bytes.length }));
  }

  async read(key: string): Promise<Buffer | null> {
    if (!isStorageKey(key)) return null;
    try {
      const answer = await this.#client.send(new GetObjectCommand({ Bucket: this.bucket, Key: this.#key(key) }));
      return Buffer.from(await answer.Body!.transformToByteArray());
    } catch (error) {
      if (isAbsent(error)) return null;
      throw error;
    }
  }

  async stat(key: string): Promise<StoredObject | null> {
    if (!isStorageKey(key)) return null;
    try {
      const answer = await this.#client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: this.#key(key) }));
      return { size: answer.ContentLength ?? 0, modifiedMs: answer.LastModified?.getTime() ?? 0, ...(answer.ETag ? { etag: answer.ETag } : {}) };
    } catch (error) {
      if (isAbsent(error)) return null;
      throw error;
    }
  }

  async getStream(key: string, range?: ByteRange): Promise<Readable | null> {
    if (!isStorageKey(key)) return null;
    if (range && (range.start < 0 || range.end < range.start)) throw new RangeNotSatisfiable(key, range);
    try {
      const answer = await this.#client.send(
        new GetObjectCommand({ Bucket: this.bucket, Key: this.#key(key), ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}) }),
      );
      const body = answer.Body;
      // In Node the body is the response's own stream; an empty object may come without one.
      return body instanceof Readable ? body : Readable.from(body ? [Buffer.from(await body.transformToByteArray())] : []);
    } catch (error) {
      if (isAbsent(error)) return null;
      if ((error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 416) throw new RangeNotSatisfiable(key, range!);
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await this.#client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.#key(key) }));
  }

  async list(prefix: string): Promise<string[]> {
    const path = prefix.replace(/\/$/, '');
    if (path !== '' && !isStorageKey(path)) throw new Error(`not a storage prefix: ${JSON.stringify(prefix)}`);
    const base = path === '' ? '' : `${path}/`;
    const keys: string[] = [];
    let token: string | undefined;
    do {
      const page = await this.#client.send(
        new ListObjectsV2Command({ Bucket: this.bucket, Prefix: this.keyPrefix + base, ...(token ? { ContinuationToken: token } : {}) }),
      );
      for (const item of page.Contents ?? []) {
        const key = item.Key?.slice(this.keyPrefix.length);
        if (key !== undefined && isStorageKey(key)) keys.push(key);
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return keys;
  }

  localFolder(): null {
    return null;
  }

  /** The bucket key of a storage key; a key that is not plain is refused before any request. */
  #key(key: string): string {
    if (!isStorageKey(key)) throw new Error(`not a storage key: ${JSON.stringify(key)}`);
    return this.keyPrefix + key;
  }
}
