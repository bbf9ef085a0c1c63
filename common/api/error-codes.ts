/**
 * What went wrong, in the domain's terms: the code a service throws and the `error` field of a
 * refusal's envelope (decision 085). Each maps to one HTTP status (server/http/errors.ts) and to
 * one code of the game SDK (app/features/games/game-bridge.ts). The first group are fallbacks for
 * refusals nothing more specific describes; the rest name a case a caller may need to tell apart.
 */
export const ERROR_CODES = [
  // Fallbacks, and the refusals of the HTTP layer itself.
  'bad_request',
  'validation',
  'unauthenticated',
  'forbidden',
  'not_found',
  'route_not_found',
  'conflict',
  'payload_too_large',
  'unsupported_media_type',
  'csrf_mismatch',
  'rate_limited',
  'unavailable',
  'internal',
  // Accounts and sign-in.
  'credentials_invalid',
  'password_incorrect',
  'username_taken',
  'guest_challenge_failed',
  'sign_in_code_invalid',
  'last_sign_in_method',
  'social_account_taken',
  'passkey_already_registered',
  'account_disabled',
  // Purchases.
  'account_not_secured',
  'order_not_payable',
  'idempotency_key_reused',
  'already_owned',
  'order_not_refundable',
  // Inventory of consumable items.
  'not_enough_items',
  // Cloud saves.
  'save_too_large',
  'saves_full',
  // Leaderboards and achievements (decision 092).
  'score_out_of_bounds',
  'backend_only',
  'signature_invalid',
  // The Studio's build uploads (decision 109).
  'upload_limit',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && (ERROR_CODES as readonly string[]).includes(value);
}
