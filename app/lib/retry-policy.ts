import { RETRY_AFTER_MAX_SECONDS, RETRY_DELAY_MS } from '#common/constants.ts';

/**
 * Answers that may go another way a moment later, for every method: a CSRF cookie refreshed
 * (419), a request the server did not wait for or would not take yet (408, 425), too many at once
 * (429), a proxy or server briefly away (502, 503, 504). A conflict (409) or any other 4xx is the
 * server's final word on that request and is never sent again.
 */
const TRANSIENT = new Set([408, 419, 425, 429, 502, 503, 504]);
/** A server error may be a passing fault, but sending a write again could do it twice: reads only. */
const READS_ONLY = new Set([500]);

export interface FailedAttempt {
  method: string;
  /** The HTTP status, or null when no response came (the network). */
  status: number | null;
  /** The response's Retry-After header, if any. */
  retryAfter: string | null;
  /** A call that spends something single-use: only a 419 (refused before anything was read) is sent again. */
  once: boolean;
}

/**
 * How long to wait before sending a failed call again, or null when it must not be: a final
 * answer, a single-use call, or a Retry-After longer than a person would wait on a button
 * (the caller shows the server's message instead).
 */
export function retryDelay({ method, status, retryAfter, once }: FailedAttempt): number | null {
  if (status === null) return once ? null : RETRY_DELAY_MS;
  if (once && status !== 419) return null;
  if (!TRANSIENT.has(status) && !(READS_ONLY.has(status) && method === 'GET')) return null;
  if (retryAfter === null || retryAfter.trim() === '') return RETRY_DELAY_MS;
  const seconds = Number(retryAfter);
  // An HTTP date instead of seconds: when it falls is not worth a clock comparison here; wait the usual second.
  if (!Number.isFinite(seconds)) return RETRY_DELAY_MS;
  if (seconds > RETRY_AFTER_MAX_SECONDS) return null;
  return Math.max(RETRY_DELAY_MS, seconds * 1000);
}
