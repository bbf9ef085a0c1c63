import { FINGERPRINT_PATTERN } from '#common/constants.ts';

/** How long a device sign-in or a device recording waits for the fingerprint (heavy on slow devices). */
export const FINGERPRINT_WAIT_MS = 15_000;

let cached: Promise<string | null> | null = null;

/**
 * The device fingerprint (FingerprintJS visitor id), or null when it cannot be had in time. The
 * library is loaded on first use, so it weighs nothing on pages that never sign in; its
 * statistics request to the vendor's server is switched off (`monitoring: false`).
 */
export function deviceFingerprint(timeoutMs: number): Promise<string | null> {
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
