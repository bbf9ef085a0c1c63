// The storage area of the configuration: the database, Redis, and the folders the server reads and writes.
import { z } from 'zod';

/**
 * A database URL the drivers can open: `file:<path>`, or a `postgres(ql)://` URL that parses
 * (a port that is not a number would otherwise be retried as an unreachable database).
 */
function databaseUrlProblem(value: string): string | null {
  if (value.startsWith('file:')) return value.length > 'file:'.length ? null : 'file: needs a path (file:data/playport.sqlite)';
  if (!/^postgres(ql)?:\/\//.test(value)) return 'must be file:<path> for SQLite or postgres://… for PostgreSQL';
  if (URL.canParse(value)) return null;
  return 'is not a valid URL: write postgres://user:password@host:port/database (the port a number, special characters in the password percent-encoded)';
}

/** The database's and Redis's variables. */
export const databaseEnvShape = {
  DATABASE_URL: z
    .string()
    .trim()
    .default('file:data/playport.sqlite')
    .superRefine((value, ctx) => {
      const problem = databaseUrlProblem(value);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    }),
  /** PostgreSQL only: a schema to run in (created when missing); isolates test runs. */
  DATABASE_SCHEMA: z
    .string()
    .regex(/^[a-z_][a-z0-9_]*$/, 'must be a lower-case SQL identifier')
    .optional(),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(100).default(10),
  /** How long start-up waits for an unreachable database before it gives up. */
  DATABASE_CONNECT_TIMEOUT_SECONDS: z.coerce.number().int().min(0).max(3600).default(60),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'must be redis://… or rediss://…')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  /** Keeps this deployment's Redis keys apart from another's on the same Redis server. */
  REDIS_PREFIX: z
    .string()
    .regex(/^[\w:.-]{0,40}$/, 'must be up to 40 letters, digits, _ : . or -')
    .default(''),
};

/** The folders: the built app, uploads, and developers' builds with their upload limits. */
export const filesEnvShape = {
  BUILD_DIR: z.string().min(1).default('build'),
  UPLOAD_DIR: z.string().min(1).default('data/uploads'),
  /** Developers' game builds (decision 097): never served on the portal's origin. */
  BUILDS_DIR: z.string().min(1).default('data/builds'),
  /** Members' data archives (decision 144): never served; each is fetched through its signed link. */
  EXPORTS_DIR: z.string().min(1).default('data/exports'),
  /** Decision 109: an unfinished build upload that received nothing for this many hours is removed. */
  BUILD_UPLOAD_EXPIRY_HOURS: z.coerce.number().int().min(1).max(720).default(24),
  /** Decision 109: unfinished build uploads one studio may have at once. */
  STUDIO_OPEN_UPLOADS: z.coerce.number().int().min(1).max(100).default(3),
  /** Decision 109: megabytes one studio may announce in build uploads per day (UTC). */
  STUDIO_UPLOAD_MB_PER_DAY: z.coerce.number().int().min(1).max(1_000_000).default(4096),
};

const optionalText = z
  .string()
  .trim()
  .optional()
  .or(z.literal('').transform(() => undefined));

/**
 * Decision 150: an S3-compatible bucket instead of the folders. STORAGE_URL names the bucket and a
 * key prefix (`s3://bucket/prefix`); uploads, builds, member exports and unfinished build uploads
 * each get a prefix of their own under it.
 */
export const objectStorageEnvShape = {
  STORAGE_URL: optionalText,
  /** An S3-compatible server's address (MinIO, R2, the local stand-in); none for AWS S3 itself. */
  S3_ENDPOINT: optionalText,
  S3_REGION: z.string().trim().min(1).default('us-east-1'),
  S3_ACCESS_KEY_ID: optionalText,
  S3_SECRET_ACCESS_KEY: optionalText,
  /** Path-style addresses (`endpoint/bucket/key`); by default on with S3_ENDPOINT, off for AWS. */
  S3_FORCE_PATH_STYLE: z
    .enum(['true', 'false', '1', '0', ''])
    .optional()
    .transform((value) => (value === undefined || value === '' ? undefined : value === 'true' || value === '1')),
  /** Where the uploads are served from instead of the portal's /uploads/ (a CDN in front of the bucket). */
  STORAGE_PUBLIC_URL: optionalText,
};

type ObjectStorageEnv = z.infer<z.ZodObject<typeof objectStorageEnvShape>>;

/** Bucket names S3 accepts: 3-63 lower-case letters, digits, dots and dashes. */
const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;
/** A key prefix of plain segments, as storage keys are. */
const PREFIX = /^([A-Za-z0-9_-][A-Za-z0-9._-]*\/)*$/;

/** The bucket and prefix of STORAGE_URL, or the problem with it. */
function storageUrlParts(value: string): { bucket: string; prefix: string } | string {
  const match = /^s3:\/\/([^/]+)(\/.*)?$/.exec(value);
  if (!match) return 'must be s3://bucket or s3://bucket/prefix';
  const bucket = match[1]!;
  if (!BUCKET.test(bucket)) return `the bucket ${JSON.stringify(bucket)} is not a valid S3 bucket name (3-63 lower-case letters, digits, dots, dashes)`;
  const path = (match[2] ?? '').replace(/^\/+/, '');
  const prefix = path === '' || path.endsWith('/') ? path : `${path}/`;
  if (!PREFIX.test(prefix) || prefix.split('/').some((segment) => segment === '.' || segment === '..')) {
    return 'the prefix must be plain path segments (letters, digits, . _ -)';
  }
  return { bucket, prefix };
}

export function checkObjectStorageEnv(env: ObjectStorageEnv, ctx: z.RefinementCtx): void {
  if (!env.STORAGE_URL) {
    for (const name of ['S3_ENDPOINT', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY', 'STORAGE_PUBLIC_URL'] as const) {
      if (env[name]) ctx.addIssue({ code: 'custom', path: [name], message: 'is only read with STORAGE_URL=s3://bucket/prefix' });
    }
    return;
  }
  const parts = storageUrlParts(env.STORAGE_URL);
  if (typeof parts === 'string') ctx.addIssue({ code: 'custom', path: ['STORAGE_URL'], message: parts });
  if (env.S3_ENDPOINT && !/^https?:\/\/[^/]+\/?$/.test(env.S3_ENDPOINT)) {
    ctx.addIssue({ code: 'custom', path: ['S3_ENDPOINT'], message: 'must be http(s)://host[:port], without a path' });
  }
  for (const name of ['S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const) {
    if (!env[name]) ctx.addIssue({ code: 'custom', path: [name], message: 'is required with STORAGE_URL' });
  }
  if (env.STORAGE_PUBLIC_URL && !/^https?:\/\/[^/?#]+(\/[^?#]*)?$/.test(env.STORAGE_PUBLIC_URL)) {
    ctx.addIssue({ code: 'custom', path: ['STORAGE_PUBLIC_URL'], message: 'must be an http(s) address, such as https://cdn.example.com/uploads/' });
  }
}

/** The object store's settings (decision 150); null when the files stay in the folders. */
export interface ObjectStorageConfig {
  bucket: string;
  /** The key prefix of STORAGE_URL: "" or ending in "/". */
  prefix: string;
  endpoint: string | null;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  forcePathStyle: boolean;
  /** The uploads' public address (a CDN), or null for the portal's /uploads/. */
  publicUrl: string | null;
}

export function objectStorageConfigOf(env: ObjectStorageEnv): ObjectStorageConfig | null {
  if (!env.STORAGE_URL) return null;
  const parts = storageUrlParts(env.STORAGE_URL) as { bucket: string; prefix: string };
  const endpoint = env.S3_ENDPOINT ? env.S3_ENDPOINT.replace(/\/$/, '') : null;
  return {
    ...parts,
    endpoint,
    region: env.S3_REGION,
    accessKeyId: env.S3_ACCESS_KEY_ID!,
    secretAccessKey: env.S3_SECRET_ACCESS_KEY!,
    forcePathStyle: env.S3_FORCE_PATH_STYLE ?? endpoint !== null,
    publicUrl: env.STORAGE_PUBLIC_URL ? (env.STORAGE_PUBLIC_URL.endsWith('/') ? env.STORAGE_PUBLIC_URL : `${env.STORAGE_PUBLIC_URL}/`) : null,
  };
}
