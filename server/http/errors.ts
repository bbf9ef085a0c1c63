import type { Locale } from '#common/locales.ts';
import type { ApiEnvelope } from '#common/api/envelope.ts';
import { translator } from '../i18n.ts';

/** Error codes services throw; one table below maps them to HTTP statuses and messages. */
export type ErrorCode =
  | 'bad_request'
  | 'validation'
  | 'unauthenticated'
  | 'forbidden'
  | 'not_found'
  | 'route_not_found'
  | 'conflict'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'csrf_mismatch'
  | 'too_many_requests'
  | 'unavailable'
  | 'internal';

const STATUS: Record<ErrorCode, number> = {
  bad_request: 400,
  validation: 422,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  route_not_found: 404,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  csrf_mismatch: 419,
  too_many_requests: 429,
  unavailable: 503,
  internal: 500,
};

const MESSAGE_KEY: Record<ErrorCode, string> = {
  bad_request: 'errors:badRequest',
  validation: 'errors:validation',
  unauthenticated: 'errors:unauthenticated',
  forbidden: 'errors:forbidden',
  not_found: 'errors:notFound',
  route_not_found: 'errors:routeNotFound',
  conflict: 'errors:conflict',
  payload_too_large: 'errors:payloadTooLarge',
  unsupported_media_type: 'errors:unsupportedMediaType',
  csrf_mismatch: 'errors:csrfMismatch',
  too_many_requests: 'errors:tooManyRequests',
  unavailable: 'errors:unavailable',
  internal: 'errors:generic',
};

/** A translation key ("namespace:key"), with values when the text interpolates some. */
export type FieldMessage = string | { key: string; values: Record<string, unknown> };

export interface AppErrorOptions {
  /** A translation key ("namespace:key") for the message, instead of the code's default. */
  messageKey?: string;
  /** Values interpolated into the message. */
  values?: Record<string, unknown>;
  /** Extra data sent in the envelope (field errors, retry time). */
  data?: unknown;
  /** Field errors as translation keys, translated at the edge into `data.errors`. */
  fields?: Record<string, FieldMessage[]>;
  /** Extra response headers (Retry-After). */
  headers?: Record<string, string>;
  cause?: unknown;
}

/** An error a service throws on purpose: it has a code, and its message is translated at the edge. */
export class AppError extends Error {
  override name = 'AppError';
  readonly code: ErrorCode;
  readonly options: AppErrorOptions;
  constructor(code: ErrorCode, options: AppErrorOptions = {}) {
    super(options.messageKey ?? MESSAGE_KEY[code], { cause: options.cause });
    this.code = code;
    this.options = options;
  }
  get status(): number {
    return STATUS[this.code];
  }
}

export function statusOf(code: ErrorCode): number {
  return STATUS[code];
}

/** The envelope of an error, in the request's locale. */
export function errorEnvelope(error: AppError, locale: Locale): ApiEnvelope<unknown> {
  const t = translator(locale);
  const key = error.options.messageKey ?? MESSAGE_KEY[error.code];
  const fields = error.options.fields;
  const data = fields
    ? {
        ...(error.options.data as object | undefined),
        errors: Object.fromEntries(
          Object.entries(fields).map(([field, messages]) => [
            field,
            messages.map((m) => (typeof m === 'string' ? t(m) : t(m.key, m.values)) as string),
          ]),
        ),
      }
    : (error.options.data ?? null);
  return { code: error.status, message: t(key, error.options.values ?? {}) as string, data };
}

/** A 422 naming the fields at fault; the messages are translation keys. */
export function fieldError(fields: Record<string, FieldMessage[]>, cause?: unknown): AppError {
  return new AppError('validation', { fields, cause });
}

/** Maps a status to the closest code, for errors raised by Fastify itself (body parser, limits). */
export function codeForStatus(status: number): ErrorCode {
  const entry = (Object.entries(STATUS) as Array<[ErrorCode, number]>).find(([, s]) => s === status);
  if (entry) return entry[0];
  return status >= 500 ? 'internal' : 'bad_request';
}
