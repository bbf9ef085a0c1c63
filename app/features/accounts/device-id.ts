import { DEVICE_ID_PATTERN } from '#common/constants.ts';

/** Where this browser keeps its device id. */
const DEVICE_ID_KEY = 'playport:device-id';

/**
 * This browser's device id (decision 081): 32 random bytes, base64url, made once and kept in
 * localStorage, and sent with the fingerprint, which any site can compute, so that device sign-in
 * needs something only this browser holds. localStorage rather than a cookie: it never travels
 * with requests (nor into logs), no sibling subdomain can set it, and it outlives the token
 * cookie. Null when storage is unavailable (a private mode): an id that cannot be kept would
 * never match later.
 */
export function deviceId(): string | null {
  try {
    const stored = localStorage.getItem(DEVICE_ID_KEY);
    if (stored && DEVICE_ID_PATTERN.test(stored)) return stored;
    const bytes = crypto.getRandomValues(new Uint8Array(32));
    const made = btoa(String.fromCharCode(...bytes))
      .replaceAll('+', '-')
      .replaceAll('/', '_')
      .replace(/=+$/, '');
    localStorage.setItem(DEVICE_ID_KEY, made);
    return localStorage.getItem(DEVICE_ID_KEY) === made ? made : null;
  } catch {
    return null;
  }
}
