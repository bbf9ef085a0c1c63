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
