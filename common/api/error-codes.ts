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

/**
 * Refusals a feature names more precisely than its code (decision 131): the envelope's `reason`
 * beside the code it refines. Each reason belongs to one code, which keeps the status and the
 * `error` value clients already read; a client that needs to tell, say, build refusals apart
 * reads `reason`.
 */
export const REFUSAL_REASONS = {
  // The Studio's builds and their review.
  build_invalid: 'validation',
  build_not_submittable: 'conflict',
  build_needs_thumbnail: 'conflict',
  build_not_in_review: 'conflict',
  build_not_approved: 'conflict',
  build_nothing_to_roll_back_to: 'conflict',
  // The Studio's games, keys and their changes in review.
  studio_members_only: 'forbidden',
  studio_keys_limit: 'conflict',
  change_nothing_pending: 'conflict',
  change_not_pending: 'conflict',
  change_own: 'forbidden',
  // Games' webhooks.
  webhook_url_refused: 'validation',
  webhook_url_missing: 'conflict',
  // Two-step sign-in (decision 145): a code is needed after the password; a sensitive change needs the password again or a fresh sign-in.
  two_factor_required: 'unauthenticated',
  reauthentication_required: 'forbidden',
  two_factor_on: 'conflict',
  two_factor_off: 'conflict',
  // The Console.
  console_disable_self: 'conflict',
  console_target_pair: 'validation',
  console_member_not_found: 'not_found',
  console_game_not_found: 'not_found',
  console_article_not_found: 'not_found',
  console_page_not_found: 'not_found',
  console_page_exists: 'validation',
  console_column_not_found: 'validation',
  console_not_an_image: 'validation',
} as const satisfies Record<string, ErrorCode>;

export type RefusalReason = keyof typeof REFUSAL_REASONS;

export function isRefusalReason(value: unknown): value is RefusalReason {
  return typeof value === 'string' && Object.hasOwn(REFUSAL_REASONS, value);
}
