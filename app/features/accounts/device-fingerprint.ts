import { FINGERPRINT_PATTERN } from '#common/api/accounts.schema.ts';

/** The fingerprint may not hold up a sign-in for longer than this; without it the call goes ahead. */
export const FINGERPRINT_TIMEOUT_MS = 3000;

let cached: Promise<string | null> | null = null;

/**
 * The device fingerprint (FingerprintJS visitor id), or null when it cannot be had in time. The
 * library is loaded on first use, so it weighs nothing on pages that never sign in; its
 * statistics request to the vendor's server is switched off (`monitoring: false`).
 */
export function deviceFingerprint(timeoutMs = FINGERPRINT_TIMEOUT_MS): Promise<string | null> {
  cached ??= (async () => {
    try {
      const { load } = await import('@fingerprintjs/fingerprintjs');
      const agent = await load({ monitoring: false });
      const { visitorId } = await agent.get();
      return FINGERPRINT_PATTERN.test(visitorId) ? visitorId : null;
    } catch (error) {
      console.warn('device fingerprint unavailable', error);
      return null;
    }
  })();
  // A slow computation is not waited for, but it keeps going and serves the next call.
  return Promise.race([cached, new Promise<null>((resolve) => setTimeout(() => resolve(null), timeoutMs))]);
}
