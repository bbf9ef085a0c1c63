// Domain errors: what services throw, independent of the transport that reports them.

import { type ErrorCode, REFUSAL_REASONS, type RefusalReason } from '#common/api/error-codes.ts';

export type { ErrorCode, RefusalReason };

/** The message of each code unless the error names another. */
export const MESSAGE_KEY: Record<ErrorCode, string> = {
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
  rate_limited: 'errors:tooManyRequests',
  unavailable: 'errors:unavailable',
  internal: 'errors:generic',
  credentials_invalid: 'accounts:invalidCredentials',
  password_incorrect: 'errors:validation',
  username_taken: 'errors:validation',
  guest_challenge_failed: 'accounts:guestChallenge',
  sign_in_code_invalid: 'social:whatsapp.codeWrong',
  last_sign_in_method: 'errors:conflict',
  social_account_taken: 'errors:conflict',
  passkey_already_registered: 'passkeys:errors.alreadyRegistered',
  account_disabled: 'accounts:accountDisabled',
  account_not_secured: 'payments:errors.secureAccount',
  order_not_payable: 'errors:conflict',
  idempotency_key_reused: 'payments:errors.idempotencyKeyReused',
  already_owned: 'errors:conflict',
  order_not_refundable: 'console:ops.errors.notRefundable',
  not_enough_items: 'errors:conflict',
  save_too_large: 'errors:payloadTooLarge',
  saves_full: 'errors:payloadTooLarge',
  score_out_of_bounds: 'games:records.outOfBounds',
  backend_only: 'games:records.backendOnly',
  signature_invalid: 'games:records.signature',
  upload_limit: 'errors:uploadLimit.openUploads',
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
  /** The feature's name for this refusal (decision 131); set by `refusal()`. */
  reason?: RefusalReason;
  cause?: unknown;
}

/**
 * An error a service throws on purpose: it has a code, and its message is translated at the edge.
 * Services know nothing of HTTP; server/http/errors.ts maps each code to a status.
 */
export class AppError extends Error {
  override name = 'AppError';
  readonly code: ErrorCode;
  readonly options: AppErrorOptions;
  readonly reason: RefusalReason | null;
  constructor(code: ErrorCode, options: AppErrorOptions = {}) {
    super(options.messageKey ?? MESSAGE_KEY[code], { cause: options.cause });
    this.code = code;
    this.options = options;
    this.reason = options.reason ?? null;
  }
}

/** The message of each refusal reason unless the error names another (the texts clients always had). */
const REASON_MESSAGE_KEY: Record<RefusalReason, string> = {
  build_invalid: 'studio:builds.problems.summary',
  build_not_submittable: 'studio:builds.errors.notSubmittable',
  build_needs_thumbnail: 'studio:builds.errors.needsThumbnail',
  build_not_in_review: 'studio:builds.errors.notInReview',
  build_not_approved: 'studio:builds.errors.notApproved',
  build_nothing_to_roll_back_to: 'studio:builds.errors.nothingToRollBackTo',
  studio_members_only: 'studio:games.errors.membersOnly',
  studio_keys_limit: 'studio:keys.errors.tooMany',
  change_nothing_pending: 'studio:changes.errors.nothingPending',
  change_not_pending: 'studio:changes.errors.notPending',
  change_own: 'studio:changes.errors.ownChange',
  webhook_url_refused: MESSAGE_KEY.validation,
  webhook_url_missing: 'studio:webhooks.errors.noUrl',
  two_factor_required: 'accounts:twoFactor.required',
  reauthentication_required: 'accounts:twoFactor.reauthenticate',
  two_factor_on: 'accounts:twoFactor.alreadyOn',
  two_factor_off: 'accounts:twoFactor.notOn',
  console_disable_self: 'console:ops.errors.disableSelf',
  console_target_pair: MESSAGE_KEY.validation,
  console_member_not_found: 'console:ops.errors.memberNotFound',
  console_game_not_found: 'console:content.errors.gameNotFound',
  console_article_not_found: 'console:content.errors.articleNotFound',
  console_page_not_found: 'console:content.errors.pageNotFound',
  console_page_exists: MESSAGE_KEY.validation,
  console_column_not_found: MESSAGE_KEY.validation,
  console_not_an_image: MESSAGE_KEY.validation,
};

/**
 * A feature's refusal by its reason (decision 131): the code it refines (and so the status) comes
 * from the one table in common/api/error-codes.ts, the message from the reason's unless given.
 */
export function refusal(reason: RefusalReason, options: Omit<AppErrorOptions, 'reason'> = {}): AppError {
  return new AppError(REFUSAL_REASONS[reason], { ...options, reason, messageKey: options.messageKey ?? REASON_MESSAGE_KEY[reason] });
}

/** A 422 naming the fields at fault; the messages are translation keys. */
export function fieldError(fields: Record<string, FieldMessage[]>, cause?: unknown): AppError {
  return new AppError('validation', { fields, cause });
}

/**
 * The one not-found rule: a service asked for one thing by id or slug that does not exist (or is not
 * published yet) throws `not_found` with a message naming what; lists that match nothing are empty.
 * Callers that answer something other than the API envelope (feeds, pages) test for it with this.
 */
function isNotFound(error: unknown): boolean {
  return error instanceof AppError && error.code === 'not_found';
}

/** For `.catch()`: a not-found becomes null, anything else stays an error. */
export function nullIfNotFound(error: unknown): null {
  if (isNotFound(error)) return null;
  throw error;
}
