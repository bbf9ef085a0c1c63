import { createHmac } from 'node:crypto';
import { safeEqual } from '#server/lib/random.ts';

/*
 * Signed calls of a game's own backend (decision 092): `Playport-Timestamp` (Unix seconds) and
 * `Playport-Signature: v1=<hex HMAC-SHA256 of "{timestamp}.{raw body}" with the game's secret>`.
 * The secrets themselves are each game's own, stored sealed (decision 110, features/game-secrets).
 */

/** How far a timestamp may be from the portal's clock, either way; a signature is remembered this long. */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

export function backendSignature(secret: string, timestamp: string, rawBody: string): string {
  return createHmac('sha256', secret).update(`${timestamp}.${rawBody}`).digest('hex');
}

export type SignatureProblem = 'missing' | 'expired' | 'mismatch';

/** What is wrong with a call's signature, or null when it is the game's and recent. */
export function signatureProblem(
  secret: string,
  headers: { timestamp: string | undefined; signature: string | undefined },
  rawBody: string,
  nowMs: number,
): SignatureProblem | null {
  const { timestamp, signature } = headers;
  const given = /^v1=([0-9a-f]{64})$/i.exec(signature ?? '')?.[1];
  if (!timestamp || !/^\d{1,12}$/.test(timestamp) || !given) return 'missing';
  if (Math.abs(nowMs / 1000 - Number(timestamp)) > SIGNATURE_TOLERANCE_SECONDS) return 'expired';
  return safeEqual(given.toLowerCase(), backendSignature(secret, timestamp, rawBody)) ? null : 'mismatch';
}
