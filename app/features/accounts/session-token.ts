import { COOKIE_MAX_AGE_DAYS, TOKEN_COOKIE, TOKEN_MIN_URL_LENGTH } from '#common/constants.ts';
import { sameOriginPath } from '#common/same-origin-path.ts';
import { type CookieOptions, serializeCookie } from '../../lib/cookies.ts';

/** The query parameter a link may carry a session token in (spec section 4). */
const TOKEN_QUERY = 'token';

/**
 * A short-lived cookie that hands a token the server verified from a page's URL to the browser's
 * session store, which decides whether to adopt it or ask the visitor first (decision 050). The server cannot decide: a
 * visitor who follows a link from another site sends no SameSite=Strict cookie, so only the
 * page's script can see whether someone is already signed in.
 */
export const TOKEN_OFFER_COOKIE = 'session_offer';
/** Long enough for the redirect that follows and a slow first paint. */
const TOKEN_OFFER_SECONDS = 120;

/** Spec sections 4 and 5: a URL token is adopted only if it contains a pipe and is longer than 49 characters. */
export function isAdoptableToken(value: string | null | undefined): value is string {
  return typeof value === 'string' && value.includes('|') && value.length >= TOKEN_MIN_URL_LENGTH;
}

/** The adoptable token of a URL's query, or null. */
export function tokenFromUrl(url: URL): string | null {
  const value = url.searchParams.get(TOKEN_QUERY);
  return isAdoptableToken(value) ? value : null;
}

/**
 * The same address without the token parameter: path, the remaining query and the hash; the
 * home page when the request's path is not a plain path of this site (`//host/?token=…`).
 */
export function urlWithoutToken(url: URL): string {
  const search = new URLSearchParams(url.search);
  search.delete(TOKEN_QUERY);
  const query = search.toString();
  return sameOriginPath(`${url.pathname}${query ? `?${query}` : ''}${url.hash}`, '/');
}

/** The token cookie's value as stored: URL-encoded, since tokens hold a pipe. */
export function encodeTokenCookie(token: string): string {
  return encodeURIComponent(token);
}

/** The stored token cookie value, decoded; null when missing or empty. */
export function decodeTokenCookie(value: string | null | undefined): string | null {
  if (!value) return null;
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** The token cookie's attributes (spec section 9: 365 days, Secure, SameSite strict); null deletes it. */
export function tokenCookieOptions(token: string | null, secure: boolean): CookieOptions {
  return { maxAgeDays: token === null ? 0 : COOKIE_MAX_AGE_DAYS, sameSite: 'Strict', secure };
}

/** Set-Cookie text for the token; null deletes it. */
export function tokenCookie(token: string | null, secure: boolean): string {
  return serializeCookie(TOKEN_COOKIE, token === null ? '' : encodeTokenCookie(token), tokenCookieOptions(token, secure));
}

/** Set-Cookie text of the token offer; null deletes it. */
export function tokenOfferCookie(token: string | null, secure: boolean): string {
  return serializeCookie(TOKEN_OFFER_COOKIE, token === null ? '' : encodeTokenCookie(token), {
    maxAgeDays: token === null ? 0 : TOKEN_OFFER_SECONDS / 86_400,
    sameSite: 'Strict',
    secure,
  });
}
