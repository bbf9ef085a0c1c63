import { type MiddlewareFunction, redirect } from 'react-router';
import { COOKIE_MAX_AGE_DAYS } from '#common/constants.ts';
import { DEFAULT_LOCALE, isLocale, type Locale, LOCALE_COOKIE, localePath } from '#common/locales.ts';
import { appContext } from '../context.ts';
import { readCookie, serializeCookie } from '../lib/cookies.ts';
import { pageNotFound } from '../lib/route-errors.ts';

/**
 * A page load (not the router's data request): only these get the first-visit redirect and have
 * a URL token removed. A navigation the service worker passes on arrives with
 * `Sec-Fetch-Dest: empty` but keeps `Sec-Fetch-Mode: navigate`.
 */
export function isDocumentRequest(request: Request): boolean {
  if (request.headers.get('sec-fetch-mode') === 'navigate') return true;
  const dest = request.headers.get('sec-fetch-dest');
  if (dest) return dest === 'document';
  return request.headers.get('accept')?.includes('text/html') ?? false;
}

/**
 * The locale the unprefixed home page sends a page load to, or null to stay. The locale cookie
 * (the visitor's last choice) decides; without one, a browser preferring Chinese goes to /zh-CN
 * once, and the cookie set with that redirect remembers it.
 */
export function homeRedirectLocale(cookieLocale: string | null, preferred: Locale | null): { locale: Locale; setCookie: boolean } | null {
  if (isLocale(cookieLocale)) return cookieLocale === DEFAULT_LOCALE ? null : { locale: cookieLocale, setCookie: false };
  if (preferred && preferred !== DEFAULT_LOCALE) return { locale: preferred, setCookie: true };
  return null;
}

/**
 * Rejects an unsupported locale prefix: 404 "Page not found: {path}". Called from the locale
 * route's loader rather than middleware, so the root loader still runs and the not-found page
 * has its messages; as the outermost failing loader its error is the one shown.
 */
export function rejectUnknownLocale(lang: string | undefined, url: URL): void {
  if (lang !== undefined && !isLocale(lang)) pageNotFound(url);
}

/** The first-visit language redirect of the unprefixed home page. */
export const firstVisitLocale: MiddlewareFunction<Response> = ({ params, request, url, context }, next) => {
  if (params.lang !== undefined || url.pathname !== '/' || !isDocumentRequest(request)) return next();
  const target = homeRedirectLocale(readCookie(LOCALE_COOKIE, request.headers.get('cookie')), context.get(appContext).request.preferredLocale);
  if (!target) return next();
  const headers = new Headers();
  if (target.setCookie) headers.append('Set-Cookie', serializeCookie(LOCALE_COOKIE, target.locale, { maxAgeDays: COOKIE_MAX_AGE_DAYS, sameSite: 'Lax' }));
  throw redirect(localePath(target.locale, '/') + url.search, { status: 302, headers });
};
