// Errors that mean a service the request needs is away (database down or restarting, disk full,
// Redis gone), as opposed to a bug: they answer 503 with Retry-After instead of 500 (decision 077).
import { AppError } from './app-error.ts';

/** Seconds a client is asked to wait before retrying while a service is away. */
export const OUTAGE_RETRY_AFTER_SECONDS = 5;

// Node's socket errors, seen from pg and ioredis when the server is down or restarting.
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
// SQLite: no space, I/O failure, the file locked past busy_timeout, read-only file system.
const SQLITE_CODE = /^SQLITE_(FULL|IOERR|BUSY|LOCKED|CANTOPEN|READONLY)/;
// PostgreSQL SQLSTATE classes 08 (connection exception), 53 (insufficient resources: disk full,
// too many connections) and 57P (operator intervention: shutdown, cannot connect now).
const POSTGRES_STATE = /^(08|53|57P)/;
// pg's own messages when a pooled connection dies or the pool cannot connect in time.
const POOL_MESSAGES = ['Connection terminated', 'timeout exceeded when trying to connect', 'Client has encountered a connection error', 'Connection is closed'];

/** Whether the error, or any error in its `cause` chain, says a service is away rather than a bug. */
export function isServiceOutage(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    if (current instanceof AppError) return current.code === 'unavailable';
    if (typeof current !== 'object') return false;
    const { code, message, errors } = current as { code?: unknown; message?: unknown; errors?: unknown };
    if (typeof code === 'string' && (SOCKET_CODES.has(code) || SQLITE_CODE.test(code) || POSTGRES_STATE.test(code))) return true;
    if (typeof message === 'string' && POOL_MESSAGES.some((text) => message.includes(text))) return true;
    // AggregateError: a connection to every address of "localhost" (::1 and 127.0.0.1) was refused.
    if (Array.isArray(errors) && errors.length > 0 && errors.every((inner) => isServiceOutage(inner))) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/** The 503 for a request that needed a service that is away. */
export function outageError(cause: unknown): AppError {
  return new AppError('unavailable', {
    headers: { 'Retry-After': String(OUTAGE_RETRY_AFTER_SECONDS) },
    data: { retryAfter: OUTAGE_RETRY_AFTER_SECONDS },
    cause,
  });
}
