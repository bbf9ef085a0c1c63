import type { MiddlewareFunction } from 'react-router';
import { COOKIE_MAX_AGE_DAYS, UTM_FIELDS } from '#common/constants.ts';
import { appContext } from '../context.ts';
import { serializeCookie } from '../lib/cookies.ts';

/** Longer values are cut: a campaign tag is a short label, and every API call carries it as a header. */
const MAX_TAG_LENGTH = 200;

/** The utm_* query parameters that have a value, URL-encoded (spec section 3: empty ones dropped). */
export function campaignTags(search: URLSearchParams): Array<[name: string, value: string]> {
  const tags: Array<[string, string]> = [];
  for (const field of UTM_FIELDS) {
    const value = search.get(`utm_${field}`)?.trim();
    if (value) tags.push([`utm_${field}`, encodeURIComponent(value.slice(0, MAX_TAG_LENGTH))]);
  }
  return tags;
}

/** Set-Cookie values for the tags: 365 days, Secure, SameSite strict, readable by the API client. */
export function campaignCookies(search: URLSearchParams, secure: boolean): string[] {
  return campaignTags(search).map(([name, value]) => serializeCookie(name, value, { maxAgeDays: COOKIE_MAX_AGE_DAYS, sameSite: 'Strict', secure }));
}

/**
 * Whether cookies may carry Secure: the site's public origin is https, or localhost (which
 * browsers treat as secure). The server asks with PUBLIC_ORIGIN, never the request's own URL:
 * behind a proxy that ends TLS, the request arrives over plain http.
 */
export function secureCookiesFor(publicOrigin: string): boolean {
  const url = new URL(publicOrigin);
  return url.protocol === 'https:' || url.hostname === 'localhost' || url.hostname === '127.0.0.1';
}

/** Second global middleware: captures campaign tags into cookies on whatever response follows. */
export const captureCampaignTags: MiddlewareFunction<Response> = async ({ url, context }, next) => {
  const cookies = url.search ? campaignCookies(url.searchParams, secureCookiesFor(context.get(appContext).site.publicOrigin)) : [];
  if (cookies.length === 0) return next();
  const withCookies = (response: Response) => {
    for (const cookie of cookies) response.headers.append('Set-Cookie', cookie);
    return response;
  };
  try {
    return withCookies(await next());
  } catch (thrown) {
    // A redirect thrown further down still carries the tags.
    if (thrown instanceof Response) throw withCookies(thrown);
    throw thrown;
  }
};
