const SENTINEL_ORIGIN = 'http://same-origin.invalid';
/** Control characters: browsers drop tabs and newlines from URLs, so `/\t/evil` would become `//evil`. */
// oxlint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u001f\u007f]/;

/**
 * A path that stays on this site, built from a path-like value (a request path, a return path, a
 * redirect destination), or `fallback` when the value is not a path of this site. Every
 * redirect the portal builds from a path goes through here, so a `Location` header can never
 * name another host: `//host`, `/\host`, `/.//host` (normalised to `//host`), absolute URLs,
 * `javascript:` and values with control characters are refused.
 */
export function sameOriginPath(value: string | null | undefined, fallback: string): string {
  if (typeof value !== 'string' || !value.startsWith('/') || CONTROL.test(value)) return fallback;
  if (value.startsWith('//') || value.startsWith('/\\')) return fallback;
  let url: URL;
  try {
    url = new URL(value, SENTINEL_ORIGIN);
  } catch {
    return fallback;
  }
  // Dot segments can leave `//host` behind after normalisation (`/.//host`).
  if (url.origin !== SENTINEL_ORIGIN || url.pathname.startsWith('//')) return fallback;
  return `${url.pathname}${url.search}${url.hash}`;
}
