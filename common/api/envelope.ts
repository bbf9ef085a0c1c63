import type { ErrorCode, RefusalReason } from './error-codes.ts';

/**
 * The JSON envelope of every /serve/api response. `code` is the HTTP status (the spec's field);
 * a refusal adds `error`, what went wrong in the domain's terms (decision 085), and where a
 * feature names the case more precisely, `reason` (decision 131).
 */
export interface ApiEnvelope<T = unknown> {
  code: number;
  error?: ErrorCode;
  reason?: RefusalReason;
  message: string;
  data: T;
}

/** Field errors of a 422 response: field path to messages. */
export interface ValidationErrorData {
  errors: Record<string, string[]>;
}
