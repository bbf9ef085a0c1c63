import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { Locale } from '#common/locales.ts';
import type { ApiEnvelope } from '#common/api/envelope.ts';
import { AppError, type ErrorCode, MESSAGE_KEY } from '../lib/app-error.ts';
import { requestLocale, translator } from '../i18n.ts';

/** The one table from error codes to HTTP statuses. */
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
  rate_limited: 429,
  unavailable: 503,
  internal: 500,
  credentials_invalid: 401,
  password_incorrect: 422,
  username_taken: 422,
  guest_challenge_failed: 403,
  sign_in_code_invalid: 400,
  last_sign_in_method: 409,
  social_account_taken: 409,
  passkey_already_registered: 409,
  account_disabled: 403,
  account_not_secured: 403,
  order_not_payable: 409,
  idempotency_key_reused: 409,
  already_owned: 409,
  order_not_refundable: 409,
  not_enough_items: 409,
  save_too_large: 413,
  saves_full: 413,
  score_out_of_bounds: 422,
  backend_only: 403,
  signature_invalid: 401,
  upload_limit: 429,
};

/** The codes of Fastify's own refusals (body parser, limits), by status: the generic one of each. */
const FRAMEWORK_CODE: Record<number, ErrorCode> = {
  400: 'bad_request',
  401: 'unauthenticated',
  403: 'forbidden',
  404: 'not_found',
  409: 'conflict',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  422: 'validation',
  429: 'rate_limited',
  503: 'unavailable',
};

export function statusOf(code: ErrorCode): number {
  return STATUS[code];
}

/** The status of any error a service throws: its code's for a refusal, 500 for anything else. */
export function statusOfError(error: unknown): number {
  return error instanceof AppError ? statusOf(error.code) : 500;
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
          Object.entries(fields).map(([field, messages]) => [field, messages.map((m) => (typeof m === 'string' ? t(m) : t(m.key, m.values)) as string)]),
        ),
      }
    : (error.options.data ?? null);
  const reason = error.reason ? { reason: error.reason } : {};
  return { code: statusOf(error.code), error: error.code, ...reason, message: t(key, error.options.values ?? {}) as string, data };
}

/** Maps a status to the closest code, for errors raised by Fastify itself (body parser, limits). */
export function codeForStatus(status: number): ErrorCode {
  return FRAMEWORK_CODE[status] ?? (status >= 500 ? 'internal' : 'bad_request');
}

/**
 * Fastify's `frameworkErrors`: refusals made before any route runs (a URL with broken
 * percent-encoding, a parameter too long) in the envelope too, without echoing the URL.
 */
export function answerFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const code = codeForStatus(typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 400);
  request.log.info({ code: error.code }, 'request rejected');
  void reply.code(statusOf(code)).send(errorEnvelope(new AppError(code), requestLocale(request.headers.locale, null)));
}
