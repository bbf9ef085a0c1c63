import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Transform, type TransformCallback } from 'node:stream';
import type { ObjectStoreSettings } from '../adapters/storage/s3-storage.ts';

/** The credentials the stand-in accepts: any other access key is refused as S3 refuses it. */
const ACCESS_KEY_ID = 'playport-stand-in';
const SECRET_ACCESS_KEY = 'playport-stand-in-secret';
const REGION = 'us-east-1';

interface ObjectMeta {
  key: string;
  /** The file under objects/ holding this version's bytes: a new name per write, so a reader never sees two versions mixed. */
  file: string;
  size: number;
  etag: string;
  lastModified: string;
  contentType: string;
  metadata: Record<string, string>;
}

interface PartMeta {
  partNumber: number;
  size: number;
  etag: string;
  lastModified: string;
}

interface UploadMeta {
  key: string;
  uploadId: string;
  initiated: string;
  contentType: string;
  metadata: Record<string, string>;
}

class StandInError extends Error {
  readonly status: number;
  readonly code: string;
  constructor(status: number, code: string, message: string) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

/**
 * A local S3-compatible server (decision 150) for tests and development: path-style requests to
 * one bucket, its objects kept as files under `directory`, so a stand-in started again on the same
 * directory serves the same objects. It speaks what the portal's S3 client and the resumable
 * upload store send: objects (PUT, GET with ranges and conditions, HEAD, DELETE, batch delete),
 * ListObjectsV2 with pages, and multipart uploads (create, parts, list parts, list uploads,
 * complete, abort). Each request's Signature Version 4 is checked (an unknown key, a wrong secret or
 * a changed signed header is refused); the body's hash is taken as the client states it.
 * Never part of a production server.
 */
export async function startS3StandIn(options: {
  port: number;
  directory: string;
  bucket: string;
}): Promise<{ endpoint: string; env: Record<string, string>; settings: ObjectStoreSettings; stop(): Promise<void> }> {
  const store = await BucketStore.open(join(options.directory, options.bucket), options.bucket);
  const sockets = new Set<Socket>();
  const server = createServer((request, response) => {
    handle(store, request, response).catch((error: unknown) => {
      const failure = error instanceof StandInError ? error : new StandInError(500, 'InternalError', String(error));
      if (response.headersSent) return void response.destroy();
      // The request's body is not read to its end after a refusal: the connection is closed with the answer.
      sendError(response.setHeader('connection', 'close'), failure, request.method === 'HEAD');
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, '127.0.0.1', () => resolve());
  });
  const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    endpoint,
    env: {
      STORAGE_URL: `s3://${options.bucket}/playport`,
      S3_ENDPOINT: endpoint,
      S3_REGION: REGION,
      S3_ACCESS_KEY_ID: ACCESS_KEY_ID,
      S3_SECRET_ACCESS_KEY: SECRET_ACCESS_KEY,
      S3_FORCE_PATH_STYLE: 'true',
    },
    // The same, as an S3 client of the portal's takes them (s3ClientConfig).
    settings: {
      bucket: options.bucket,
      prefix: 'playport/',
      endpoint,
      region: REGION,
      accessKeyId: ACCESS_KEY_ID,
      secretAccessKey: SECRET_ACCESS_KEY,
      forcePathStyle: true,
    },
    async stop() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
}

/** One bucket's objects and unfinished multipart uploads in a folder: objects/, uploads/. */
class BucketStore {
  readonly objects = new Map<string, ObjectMeta>();
  readonly root: string;
  readonly name: string;

  private constructor(root: string, name: string) {
    this.root = root;
    this.name = name;
  }

  static async open(root: string, name: string): Promise<BucketStore> {
    const store = new BucketStore(root, name);
    await mkdir(join(root, 'objects'), { recursive: true });
    await mkdir(join(root, 'uploads'), { recursive: true });
    for (const entry of await readdir(join(root, 'objects'))) {
      if (!entry.endsWith('.json')) continue;
      const meta = JSON.parse(await readFile(join(root, 'objects', entry), 'utf8')) as ObjectMeta;
      store.objects.set(meta.key, meta);
    }
    return store;
  }

  /** Records a new version of `key` whose bytes are already in `file`, then removes the old version's bytes. */
  async commit(meta: ObjectMeta): Promise<void> {
    const previous = this.objects.get(meta.key);
    const metaFile = join(this.root, 'objects', `${hashOf(meta.key)}.json`);
    await writeFile(`${metaFile}.tmp`, JSON.stringify(meta));
    await rename(`${metaFile}.tmp`, metaFile);
    this.objects.set(meta.key, meta);
    // A reader that opened the old bytes keeps reading them: the file goes when it is closed.
    if (previous && previous.file !== meta.file) await rm(this.objectFile(previous.file), { force: true });
  }

  async remove(key: string): Promise<void> {
    const previous = this.objects.get(key);
    if (!previous) return;
    this.objects.delete(key);
    await rm(join(this.root, 'objects', `${hashOf(key)}.json`), { force: true });
    await rm(this.objectFile(previous.file), { force: true });
  }

  objectFile(file: string): string {
    return join(this.root, 'objects', file);
  }

  newObjectFile(key: string): string {
    return `${hashOf(key)}-${randomBytes(6).toString('hex')}.bin`;
  }

  uploadFolder(uploadId: string): string {
    if (!/^[0-9a-f]{32}$/.test(uploadId)) throw new StandInError(404, 'NoSuchUpload', 'The specified upload does not exist.');
    return join(this.root, 'uploads', uploadId);
  }

  async upload(uploadId: string, key: string): Promise<UploadMeta> {
    const text = await readFile(join(this.uploadFolder(uploadId), 'upload.json'), 'utf8').catch(() => null);
    const upload = text === null ? null : (JSON.parse(text) as UploadMeta);
    if (!upload || upload.key !== key) throw new StandInError(404, 'NoSuchUpload', 'The specified upload does not exist.');
    return upload;
  }

  async parts(uploadId: string): Promise<PartMeta[]> {
    const folder = this.uploadFolder(uploadId);
    const names = (await readdir(folder)).filter((name) => /^part-\d+\.json$/.test(name));
    const parts = await Promise.all(names.map(async (name) => JSON.parse(await readFile(join(folder, name), 'utf8')) as PartMeta));
    return parts.sort((a, b) => a.partNumber - b.partNumber);
  }

  async uploads(): Promise<UploadMeta[]> {
    const ids = await readdir(join(this.root, 'uploads'));
    const all = await Promise.all(
      ids.map(async (id) => {
        const text = await readFile(join(this.root, 'uploads', id, 'upload.json'), 'utf8').catch(() => null);
        return text === null ? null : (JSON.parse(text) as UploadMeta);
      }),
    );
    return all.filter((upload) => upload !== null).sort((a, b) => a.key.localeCompare(b.key) || a.uploadId.localeCompare(b.uploadId));
  }
}

async function handle(store: BucketStore, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const url = new URL(request.url ?? '/', 'http://stand-in');
  checkSignature(request);
  const [, bucket = '', ...rest] = url.pathname.split('/');
  if (decodeURIComponent(bucket) !== store.name) throw new StandInError(404, 'NoSuchBucket', 'The specified bucket does not exist.');
  const key = rest.map((segment) => decodeURIComponent(segment)).join('/');
  const query = url.searchParams;
  const method = request.method ?? 'GET';

  if (key === '') {
    if (method === 'HEAD' || (method === 'PUT' && query.size === 0)) return void response.writeHead(200).end();
    if (method === 'GET' && query.has('uploads')) return listUploads(store, query, response);
    if (method === 'GET') return listObjects(store, query, response);
    if (method === 'POST' && query.has('delete')) return deleteObjects(store, request, response);
    throw new StandInError(501, 'NotImplemented', `${method} on the bucket is not implemented by the stand-in.`);
  }
  if (key.length > 1024) throw new StandInError(400, 'KeyTooLongError', 'Your key is too long.');
  if (method === 'POST' && query.has('uploads')) return createUpload(store, key, request, response);
  if (method === 'POST' && query.has('uploadId')) return completeUpload(store, key, query.get('uploadId')!, request, response);
  if (method === 'PUT' && query.has('uploadId')) return uploadPart(store, key, query, request, response);
  if (method === 'GET' && query.has('uploadId')) return listParts(store, key, query, response);
  if (method === 'DELETE' && query.has('uploadId')) {
    await store.upload(query.get('uploadId')!, key);
    await rm(store.uploadFolder(query.get('uploadId')!), { recursive: true, force: true });
    return void response.writeHead(204).end();
  }
  if (method === 'PUT') {
    if (request.headers['x-amz-copy-source']) throw new StandInError(501, 'NotImplemented', 'Copying is not implemented by the stand-in.');
    return putObject(store, key, request, response);
  }
  if (method === 'GET' || method === 'HEAD') return getObject(store, key, request, response, method === 'HEAD');
  if (method === 'DELETE') {
    await store.remove(key);
    return void response.writeHead(204).end();
  }
  throw new StandInError(405, 'MethodNotAllowed', 'The specified method is not allowed against this resource.');
}

/**
 * Checks the request's Signature Version 4 as S3 does for a signed header (the client's payload
 * hash as stated, the body itself not hashed: it may stream): an unknown access key, a wrong secret,
 * region or service, or a signed header changed on the way are refused. Presigned addresses are not
 * accepted: the portal never makes them.
 */
function checkSignature(request: IncomingMessage): void {
  const authorization = request.headers.authorization ?? '';
  const parts = /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, ?SignedHeaders=([a-z0-9;-]+), ?Signature=([0-9a-f]{64})$/.exec(
    authorization,
  );
  if (!parts || parts[1] !== ACCESS_KEY_ID) {
    throw new StandInError(403, 'InvalidAccessKeyId', 'The AWS Access Key Id you provided does not exist in our records.');
  }
  const [, , day, region, service, signedHeaders, signature] = parts as unknown as [string, string, string, string, string, string, string];
  const amzDate = String(request.headers['x-amz-date'] ?? '');
  const payloadHash = request.headers['x-amz-content-sha256'];
  if (region !== REGION || service !== 's3' || !amzDate.startsWith(day) || typeof payloadHash !== 'string') {
    throw new StandInError(403, 'AuthorizationHeaderMalformed', 'The authorization header is malformed.');
  }
  const [path = '/', query = ''] = (request.url ?? '/').split('?', 2);
  const headerNames = signedHeaders.split(';');
  const canonicalRequest = [
    request.method,
    path,
    canonicalQuery(query),
    ...headerNames.map((name) => `${name}:${headerValue(request, name)}`),
    '',
    signedHeaders,
    payloadHash,
  ].join('\n');
  const scope = `${day}/${region}/${service}/aws4_request`;
  const stringToSign = ['AWS4-HMAC-SHA256', amzDate, scope, createHash('sha256').update(canonicalRequest).digest('hex')].join('\n');
  const key = [day, region, service, 'aws4_request'].reduce<Buffer>(
    (signingKey, part) => createHmac('sha256', signingKey).update(part).digest(),
    Buffer.from(`AWS4${SECRET_ACCESS_KEY}`),
  );
  const expected = createHmac('sha256', key).update(stringToSign).digest();
  if (!timingSafeEqual(expected, Buffer.from(signature, 'hex'))) {
    throw new StandInError(403, 'SignatureDoesNotMatch', 'The request signature we calculated does not match the signature you provided.');
  }
}

/** A header as SigV4 signs it: the host as sent, values trimmed with inner runs of spaces as one. */
function headerValue(request: IncomingMessage, name: string): string {
  const value = request.headers[name];
  return (Array.isArray(value) ? value.join(',') : (value ?? '')).trim().replace(/\s+/g, ' ');
}

/** Encoded as RFC 3986 says (encodeURIComponent leaves !'()* as they are). */
const rfc3986 = (text: string) => encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
const fromQuery = (text: string) => decodeURIComponent(text.replace(/\+/g, '%20'));

/** The query string as SigV4 signs it: each name and value encoded as RFC 3986 says, sorted by name then value. */
function canonicalQuery(query: string): string {
  return query
    .split('&')
    .filter((pair) => pair !== '')
    .map((pair) => {
      const at = pair.indexOf('=');
      const [name, value] = at === -1 ? [pair, ''] : [pair.slice(0, at), pair.slice(at + 1)];
      return [rfc3986(fromQuery(name)), rfc3986(fromQuery(value))] as const;
    })
    .sort(([a, x], [b, y]) => (a < b ? -1 : a > b ? 1 : x < y ? -1 : x > y ? 1 : 0))
    .map(([name, value]) => `${name}=${value}`)
    .join('&');
}

/** The request's bytes as sent: the client's `aws-chunked` framing (a checksum trailer) is taken off. */
function bodyOf(request: IncomingMessage): NodeJS.ReadableStream {
  const streaming = String(request.headers['x-amz-content-sha256'] ?? '').startsWith('STREAMING-');
  const chunked = String(request.headers['content-encoding'] ?? '').includes('aws-chunked');
  return streaming || chunked ? request.pipe(new AwsChunkedDecoder()) : request;
}

/** Writes a body to a file, answering its size and MD5 (S3's ETag of a single-part object). */
async function receive(request: IncomingMessage, file: string): Promise<{ size: number; md5: string }> {
  const hash = createHash('md5');
  let size = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      hash.update(chunk);
      size += chunk.length;
      callback(null, chunk);
    },
  });
  try {
    await pipeline(bodyOf(request), counter, createWriteStream(file));
  } catch (error) {
    await rm(file, { force: true });
    throw error;
  }
  return { size, md5: hash.digest('hex') };
}

function userMetadataOf(request: IncomingMessage): Record<string, string> {
  const metadata: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (name.startsWith('x-amz-meta-') && typeof value === 'string') metadata[name.slice('x-amz-meta-'.length)] = value;
  }
  return metadata;
}

async function putObject(store: BucketStore, key: string, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const file = store.newObjectFile(key);
  const { size, md5 } = await receive(request, store.objectFile(file));
  const etag = `"${md5}"`;
  await store.commit({
    key,
    file,
    size,
    etag,
    lastModified: new Date().toISOString(),
    contentType: String(request.headers['content-type'] ?? 'binary/octet-stream'),
    metadata: userMetadataOf(request),
  });
  response.writeHead(200, { etag }).end();
}

async function getObject(store: BucketStore, key: string, request: IncomingMessage, response: ServerResponse, headOnly: boolean): Promise<void> {
  const meta = store.objects.get(key);
  if (!meta) throw new StandInError(404, headOnly ? 'NotFound' : 'NoSuchKey', 'The specified key does not exist.');
  const headers: Record<string, string | number> = {
    etag: meta.etag,
    'last-modified': new Date(meta.lastModified).toUTCString(),
    'content-type': meta.contentType,
    'accept-ranges': 'bytes',
  };
  for (const [name, value] of Object.entries(meta.metadata)) headers[`x-amz-meta-${name}`] = value;
  const ifNoneMatch = request.headers['if-none-match'];
  if (ifNoneMatch && ifNoneMatch.split(',').some((tag) => tag.trim() === meta.etag || tag.trim() === '*')) {
    return void response.writeHead(304, headers).end();
  }
  const ifMatch = request.headers['if-match'];
  if (ifMatch && !ifMatch.split(',').some((tag) => tag.trim() === meta.etag || tag.trim() === '*')) {
    throw new StandInError(412, 'PreconditionFailed', 'At least one of the preconditions you specified did not hold.');
  }
  let start = 0;
  let end = meta.size - 1;
  let status = 200;
  const range = request.headers.range;
  if (range) {
    const match = /^bytes=(\d*)-(\d*)$/.exec(range.trim());
    if (match && (match[1] !== '' || match[2] !== '')) {
      if (match[1] === '') {
        start = Math.max(0, meta.size - Number(match[2]));
      } else {
        start = Number(match[1]);
        if (match[2] !== '') end = Math.min(end, Number(match[2]));
      }
      if (start >= meta.size || start > end) {
        throw new StandInError(416, 'InvalidRange', 'The requested range is not satisfiable');
      }
      status = 206;
      headers['content-range'] = `bytes ${start}-${end}/${meta.size}`;
    }
  }
  headers['content-length'] = meta.size === 0 ? 0 : end - start + 1;
  if (headOnly || meta.size === 0) return void response.writeHead(status, headers).end();
  const stream = createReadStream(store.objectFile(meta.file), { start, end });
  stream.once('open', () => response.writeHead(status, headers));
  await pipeline(stream, response);
}

async function deleteObjects(store: BucketStore, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const body = await textOf(request);
  const keys = [...body.matchAll(/<Key>([\s\S]*?)<\/Key>/g)].map((match) => unescapeXml(match[1]!));
  for (const key of keys) await store.remove(key);
  sendXml(response, 200, `<DeleteResult>${keys.map((key) => `<Deleted><Key>${escapeXml(key)}</Key></Deleted>`).join('')}</DeleteResult>`);
}

function listObjects(store: BucketStore, query: URLSearchParams, response: ServerResponse): void {
  const prefix = query.get('prefix') ?? '';
  const delimiter = query.get('delimiter') ?? '';
  const maxKeys = Math.min(1000, Number(query.get('max-keys') ?? 1000));
  const token = query.get('continuation-token');
  const after = token ? Buffer.from(token, 'base64url').toString('utf8') : (query.get('start-after') ?? '');
  const keys = [...store.objects.keys()].filter((key) => key.startsWith(prefix) && key > after).sort();
  const contents: ObjectMeta[] = [];
  const commonPrefixes = new Set<string>();
  let last = '';
  let truncated = false;
  for (const key of keys) {
    if (contents.length + commonPrefixes.size >= maxKeys) {
      truncated = true;
      break;
    }
    const cut = delimiter ? key.indexOf(delimiter, prefix.length) : -1;
    if (cut >= 0) {
      const common = key.slice(0, cut + delimiter.length);
      if (last.startsWith(common)) continue;
      commonPrefixes.add(common);
    } else {
      contents.push(store.objects.get(key)!);
    }
    last = key;
  }
  const next = truncated ? `<NextContinuationToken>${Buffer.from(last).toString('base64url')}</NextContinuationToken>` : '';
  sendXml(
    response,
    200,
    `<ListBucketResult><Name>${escapeXml(store.name)}</Name><Prefix>${escapeXml(prefix)}</Prefix><KeyCount>${contents.length + commonPrefixes.size}</KeyCount>` +
      `<MaxKeys>${maxKeys}</MaxKeys><IsTruncated>${truncated}</IsTruncated>${next}` +
      contents
        .map(
          (meta) =>
            `<Contents><Key>${escapeXml(meta.key)}</Key><LastModified>${meta.lastModified}</LastModified><ETag>${escapeXml(meta.etag)}</ETag><Size>${meta.size}</Size><StorageClass>STANDARD</StorageClass></Contents>`,
        )
        .join('') +
      [...commonPrefixes].map((common) => `<CommonPrefixes><Prefix>${escapeXml(common)}</Prefix></CommonPrefixes>`).join('') +
      '</ListBucketResult>',
  );
}

async function createUpload(store: BucketStore, key: string, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const uploadId = randomBytes(16).toString('hex');
  const folder = store.uploadFolder(uploadId);
  await mkdir(folder, { recursive: true });
  const upload: UploadMeta = {
    key,
    uploadId,
    initiated: new Date().toISOString(),
    contentType: String(request.headers['content-type'] ?? 'binary/octet-stream'),
    metadata: userMetadataOf(request),
  };
  await writeFile(join(folder, 'upload.json'), JSON.stringify(upload));
  request.resume();
  sendXml(
    response,
    200,
    `<InitiateMultipartUploadResult><Bucket>${escapeXml(store.name)}</Bucket><Key>${escapeXml(key)}</Key><UploadId>${uploadId}</UploadId></InitiateMultipartUploadResult>`,
  );
}

async function uploadPart(store: BucketStore, key: string, query: URLSearchParams, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const uploadId = query.get('uploadId')!;
  await store.upload(uploadId, key);
  const partNumber = Number(query.get('partNumber'));
  if (!Number.isInteger(partNumber) || partNumber < 1 || partNumber > 10_000) {
    throw new StandInError(400, 'InvalidArgument', 'Part number must be an integer between 1 and 10000, inclusive.');
  }
  const folder = store.uploadFolder(uploadId);
  const temporary = join(folder, `part-${partNumber}.${randomBytes(4).toString('hex')}.tmp`);
  const { size, md5 } = await receive(request, temporary);
  await rename(temporary, join(folder, `part-${partNumber}`));
  const part: PartMeta = { partNumber, size, etag: `"${md5}"`, lastModified: new Date().toISOString() };
  await writeFile(join(folder, `part-${partNumber}.json`), JSON.stringify(part));
  response.writeHead(200, { etag: part.etag }).end();
}

function listParts(store: BucketStore, key: string, query: URLSearchParams, response: ServerResponse): Promise<void> {
  const uploadId = query.get('uploadId')!;
  return store.upload(uploadId, key).then(async () => {
    const marker = Number(query.get('part-number-marker') ?? 0);
    const maxParts = Math.min(1000, Number(query.get('max-parts') ?? 1000));
    const after = (await store.parts(uploadId)).filter((part) => part.partNumber > marker);
    const page = after.slice(0, maxParts);
    const truncated = after.length > page.length;
    sendXml(
      response,
      200,
      `<ListPartsResult><Bucket>${escapeXml(store.name)}</Bucket><Key>${escapeXml(key)}</Key><UploadId>${uploadId}</UploadId>` +
        `<PartNumberMarker>${marker}</PartNumberMarker><MaxParts>${maxParts}</MaxParts><IsTruncated>${truncated}</IsTruncated>` +
        (truncated ? `<NextPartNumberMarker>${page.at(-1)!.partNumber}</NextPartNumberMarker>` : '') +
        page
          .map(
            (part) =>
              `<Part><PartNumber>${part.partNumber}</PartNumber><LastModified>${part.lastModified}</LastModified><ETag>${escapeXml(part.etag)}</ETag><Size>${part.size}</Size></Part>`,
          )
          .join('') +
        '</ListPartsResult>',
    );
  });
}

async function listUploads(store: BucketStore, query: URLSearchParams, response: ServerResponse): Promise<void> {
  const prefix = query.get('prefix') ?? '';
  const uploads = (await store.uploads()).filter((upload) => upload.key.startsWith(prefix));
  sendXml(
    response,
    200,
    `<ListMultipartUploadsResult><Bucket>${escapeXml(store.name)}</Bucket><Prefix>${escapeXml(prefix)}</Prefix><IsTruncated>false</IsTruncated>` +
      uploads
        .map(
          (upload) =>
            `<Upload><Key>${escapeXml(upload.key)}</Key><UploadId>${upload.uploadId}</UploadId><Initiated>${upload.initiated}</Initiated><StorageClass>STANDARD</StorageClass></Upload>`,
        )
        .join('') +
      '</ListMultipartUploadsResult>',
  );
}

async function completeUpload(store: BucketStore, key: string, uploadId: string, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const upload = await store.upload(uploadId, key);
  const body = await textOf(request);
  const wanted = [...body.matchAll(/<Part>([\s\S]*?)<\/Part>/g)].map((match) => ({
    partNumber: Number(/<PartNumber>(\d+)<\/PartNumber>/.exec(match[1]!)?.[1]),
    etag: unescapeXml(/<ETag>([\s\S]*?)<\/ETag>/.exec(match[1]!)?.[1] ?? ''),
  }));
  const parts = new Map((await store.parts(uploadId)).map((part) => [part.partNumber, part]));
  if (wanted.length === 0) throw new StandInError(400, 'MalformedXML', 'The XML you provided was not well-formed.');
  for (const [index, part] of wanted.entries()) {
    const stored = parts.get(part.partNumber);
    if (!stored || stored.etag.replaceAll('"', '') !== part.etag.replaceAll('"', '')) {
      throw new StandInError(400, 'InvalidPart', 'One or more of the specified parts could not be found.');
    }
    if (index > 0 && part.partNumber <= wanted[index - 1]!.partNumber)
      throw new StandInError(400, 'InvalidPartOrder', 'The list of parts was not in ascending order.');
    if (index < wanted.length - 1 && stored.size < 5 * 1024 * 1024)
      throw new StandInError(400, 'EntityTooSmall', 'Your proposed upload is smaller than the minimum allowed object size.');
  }
  const folder = store.uploadFolder(uploadId);
  const file = store.newObjectFile(key);
  const out = createWriteStream(store.objectFile(file));
  const md5s = createHash('md5');
  let size = 0;
  for (const part of wanted) {
    const stored = parts.get(part.partNumber)!;
    md5s.update(Buffer.from(stored.etag.replaceAll('"', ''), 'hex'));
    size += stored.size;
    await pipeline(createReadStream(join(folder, `part-${part.partNumber}`)), out, { end: false });
  }
  await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())));
  const etag = `"${md5s.digest('hex')}-${wanted.length}"`;
  await store.commit({ key, file, size, etag, lastModified: new Date().toISOString(), contentType: upload.contentType, metadata: upload.metadata });
  await rm(folder, { recursive: true, force: true });
  sendXml(
    response,
    200,
    `<CompleteMultipartUploadResult><Bucket>${escapeXml(store.name)}</Bucket><Key>${escapeXml(key)}</Key><ETag>${escapeXml(etag)}</ETag></CompleteMultipartUploadResult>`,
  );
}

/**
 * Takes off the `aws-chunked` framing: `<hex size>[;chunk-signature=…]\r\n<bytes>\r\n`, ending with
 * a chunk of size 0 and optional trailer lines (the checksum), which are not checked.
 */
class AwsChunkedDecoder extends Transform {
  #buffer = Buffer.alloc(0);
  #remaining = 0;
  #state: 'size' | 'data' | 'crlf' | 'trailer' = 'size';

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.#buffer = Buffer.concat([this.#buffer, chunk]);
    while (this.#buffer.length > 0) {
      if (this.#state === 'data') {
        const take = Math.min(this.#remaining, this.#buffer.length);
        this.push(this.#buffer.subarray(0, take));
        this.#buffer = this.#buffer.subarray(take);
        this.#remaining -= take;
        if (this.#remaining === 0) this.#state = 'crlf';
        continue;
      }
      if (this.#state === 'crlf') {
        if (this.#buffer.length < 2) break;
        this.#buffer = this.#buffer.subarray(2);
        this.#state = 'size';
        continue;
      }
      if (this.#state === 'trailer') {
        this.#buffer = Buffer.alloc(0);
        break;
      }
      const end = this.#buffer.indexOf('\r\n');
      if (end < 0) break;
      const line = this.#buffer.subarray(0, end).toString('latin1');
      this.#buffer = this.#buffer.subarray(end + 2);
      const size = Number.parseInt(line.split(';')[0]!, 16);
      if (!Number.isFinite(size)) return callback(new StandInError(400, 'IncompleteBody', 'The chunked body could not be read.'));
      if (size === 0) this.#state = 'trailer';
      else {
        this.#remaining = size;
        this.#state = 'data';
      }
    }
    callback();
  }
}

async function textOf(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of bodyOf(request)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function sendXml(response: ServerResponse, status: number, body: string): void {
  response.writeHead(status, { 'content-type': 'application/xml' }).end(`<?xml version="1.0" encoding="UTF-8"?>\n${body}`);
}

function sendError(response: ServerResponse, error: StandInError, headOnly: boolean): void {
  if (headOnly) return void response.writeHead(error.status).end();
  sendXml(response, error.status, `<Error><Code>${error.code}</Code><Message>${escapeXml(error.message)}</Message></Error>`);
}

function hashOf(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

function escapeXml(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;').replaceAll("'", '&apos;');
}

function unescapeXml(text: string): string {
  return text
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&quot;', '"')
    .replaceAll('&apos;', "'")
    .replaceAll(/&#(\d+);/g, (_, code: string) => String.fromCodePoint(Number(code)))
    .replaceAll('&amp;', '&');
}
