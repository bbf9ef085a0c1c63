import type { ErrorCode } from '#common/api/error-codes.ts';
import { api, ApiError } from '../../lib/api-client.ts';
import { session } from '../accounts/session.ts';

/*
 * The play page's side of the game SDK (sdk/v1/playport.js; decision 064). The game's frame has an
 * opaque origin, so its messages are known by `event.source` (the frame's window), never by
 * origin, and answers go to that window only.
 */

export interface BridgeRequest {
  type: 'playport:request';
  id: number;
  method: string;
  params: Record<string, unknown>;
}

export interface BridgeAnswer {
  type: 'playport:response';
  id: number;
  ok: boolean;
  result?: unknown;
  error?: { code: SdkErrorCode; message: string };
}

/** A request from the game, or null for anything else. */
export function bridgeRequestOf(data: unknown): BridgeRequest | null {
  if (typeof data !== 'object' || data === null) return null;
  const { type, id, method, params } = data as Partial<BridgeRequest>;
  if (type !== 'playport:request' || typeof id !== 'number' || !Number.isSafeInteger(id) || typeof method !== 'string') return null;
  return { type, id, method, params: typeof params === 'object' && params !== null ? params : {} };
}

/**
 * The codes a game's promise can reject with: the one list that `sdk/v1/playport.d.ts`
 * (`PlayportErrorCode`) and the guide's table (docs/game-sdk.md, "Errors") repeat; a unit test
 * compares the three.
 */
export const SDK_ERROR_CODES = [
  'not_framed',
  'timeout',
  'unknown_method',
  'unknown_event',
  'busy',
  'unauthenticated',
  'forbidden',
  'account_not_secured',
  'not_found',
  'already_owned',
  'not_enough_items',
  'conflict',
  'payload_too_large',
  'validation',
  'too_many_requests',
  'failed',
  'score_out_of_bounds',
  'backend_only',
] as const;

export type SdkErrorCode = (typeof SDK_ERROR_CODES)[number];

/**
 * The one table from the portal's error codes to the SDK's. SDK version 1 keeps the codes games
 * already branch on (both save limits stay `payload_too_large`, a rate limit `too_many_requests`);
 * a case a game must handle its own way has its own code.
 */
export const SDK_ERROR_CODE: Record<ErrorCode, SdkErrorCode> = {
  bad_request: 'failed',
  validation: 'validation',
  unauthenticated: 'unauthenticated',
  forbidden: 'forbidden',
  not_found: 'not_found',
  route_not_found: 'not_found',
  conflict: 'conflict',
  payload_too_large: 'payload_too_large',
  unsupported_media_type: 'failed',
  csrf_mismatch: 'failed',
  rate_limited: 'too_many_requests',
  unavailable: 'failed',
  internal: 'failed',
  credentials_invalid: 'unauthenticated',
  password_incorrect: 'validation',
  username_taken: 'validation',
  guest_challenge_failed: 'forbidden',
  sign_in_code_invalid: 'failed',
  last_sign_in_method: 'conflict',
  social_account_taken: 'conflict',
  passkey_already_registered: 'conflict',
  account_disabled: 'forbidden',
  account_not_secured: 'account_not_secured',
  order_not_payable: 'conflict',
  idempotency_key_reused: 'conflict',
  already_owned: 'already_owned',
  order_not_refundable: 'conflict',
  not_enough_items: 'not_enough_items',
  save_too_large: 'payload_too_large',
  saves_full: 'payload_too_large',
  score_out_of_bounds: 'score_out_of_bounds',
  backend_only: 'backend_only',
  signature_invalid: 'failed',
  upload_limit: 'failed',
};

/** What the SDK's error says: a short code a game can branch on, and the portal's message. */
export function bridgeError(error: unknown, fallback: string): { code: SdkErrorCode; message: string } {
  if (error instanceof BridgeRefusal) return { code: error.code, message: error.message };
  if (error instanceof ApiError) return { code: error.errorCode ? SDK_ERROR_CODE[error.errorCode] : 'failed', message: error.message };
  return { code: 'failed', message: fallback };
}

export class BridgeRefusal extends Error {
  override name = 'BridgeRefusal';
  readonly code: SdkErrorCode;
  constructor(code: SdkErrorCode, message: string) {
    super(message);
    this.code = code;
  }
}

function keyOf(params: Record<string, unknown>): string {
  const key = params.key;
  if (typeof key !== 'string' || !/^[A-Za-z0-9_.-]{1,64}$/.test(key)) throw new BridgeRefusal('validation', 'A save key is 1–64 letters, digits, _ . or -.');
  return key;
}

/** The calls the page answers at once (everything but `pay`, which has its own flow). */
export async function answerCall(
  appId: number,
  locale: string,
  method: string,
  params: Record<string, unknown>,
  messages: { badConsume: string } = { badConsume: 'Bad item or quantity.' },
): Promise<unknown> {
  // Every visitor has a session from the second page on; a game opened first makes it now.
  if (!session.snapshot().token) await session.signInAnonymously();
  const save = (key: string) => `/game/saves/${appId}/${encodeURIComponent(key)}` as const;
  switch (method) {
    case 'login':
      return (await api.post(`/game/login/${appId}`)).data;
    case 'getConfig': {
      const { data } = await api.get(`/game/config/${appId}`);
      return { appId, locale, items: data.items };
    }
    case 'data.get':
      return (await api.get(save(keyOf(params)))).data;
    case 'data.set': {
      const { data } = await api.put(save(keyOf(params)), { value: params.value ?? null });
      return { key: data.key, updatedAt: data.updatedAt };
    }
    case 'data.remove':
      await api.delete(save(keyOf(params)));
      return { key: params.key };
    // Items (SDK 1.1, decision 091): the player's consumables, used up on the server once per key.
    case 'items.list':
      return (await api.get(`/game/inventory/${appId}`)).data.items;
    case 'items.consume':
      return (await api.post(`/game/inventory/${appId}/consume`, consumeOf(params, messages.badConsume))).data;

    default:
      throw new BridgeRefusal('unknown_method', `The portal has no "${method}".`);
  }
}

function consumeOf(params: Record<string, unknown>, message: string): { sku: string; quantity: number; idempotencyKey: string } {
  const { sku, quantity, idempotencyKey } = params;
  // Bounds and patterns are the server's (422 `validation`); only the types are checked here.
  if (typeof sku !== 'string' || typeof quantity !== 'number' || typeof idempotencyKey !== 'string') throw new BridgeRefusal('validation', message);
  return { sku, quantity, idempotencyKey };
}

/**
 * Whether a purchase may start (SDK 1.1): an SKU the game does not sell is `not_found` and a
 * permanent item the player owns `already_owned`, at once, before any dialog. The server checks
 * both again when the order is made (a sign-in in the dialog may change the owner).
 */
export async function checkPurchase(appId: number, sku: string, messages: { notFound: string; alreadyOwned: (item: string) => string }): Promise<void> {
  if (!session.snapshot().token) await session.signInAnonymously();
  const { data } = await api.get(`/game/config/${appId}`);
  const item = data.items.find((candidate) => candidate.sku === sku);
  if (!item) throw new BridgeRefusal('not_found', messages.notFound);
  if (item.owned) throw new BridgeRefusal('already_owned', messages.alreadyOwned(item.name));
}
