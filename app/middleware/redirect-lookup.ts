import { type MiddlewareFunction, redirect, redirectDocument } from 'react-router';
import { type Locale, localeOfPath, localePath, stripLocale } from '#common/locales.ts';
import { sameOriginPath } from '#common/same-origin-path.ts';
import { type AppLoadContext, appContext } from '../context.ts';

export interface FoundRedirect {
  destination: string;
  status: number;
}

export interface RedirectTarget {
  location: string;
  status: number;
  /** An absolute URL: a full page load rather than a router navigation. */
  document: boolean;
}

/**
 * Where a found redirect goes. An absolute http(s) URL (the operator's choice in the redirects
 * table) is a full page load; anything else must be a path of this site, followed by the router,
 * with the request's locale prefix when the redirect was found by the unprefixed path. A
 * destination such as `//host` or `/\\host` is never sent on: it goes to the home page.
 */
export function redirectTarget(found: FoundRedirect, locale: Locale, localise: boolean): RedirectTarget {
  if (/^https?:\/\//i.test(found.destination)) return { location: found.destination, status: found.status, document: true };
  const path = sameOriginPath(localise ? localePath(locale, found.destination) : found.destination, localePath(locale, '/'));
  return { location: path, status: found.status, document: false };
}

/** The exact path first, then the path without its locale prefix. */
export async function findRedirect(redirects: Pick<AppLoadContext['services']['redirects'], 'find'>, pathname: string): Promise<RedirectTarget | null> {
  const exact = await redirects.find(pathname);
  if (exact) return redirectTarget(exact, localeOfPath(pathname), false);
  const stripped = stripLocale(pathname);
  if (stripped === pathname) return null;
  const unprefixed = await redirects.find(stripped);
  return unprefixed ? redirectTarget(unprefixed, localeOfPath(pathname), true) : null;
}

/**
 * Third global middleware (spec section 2): the server-driven redirect lookup by path. A
 * destination with a hash is used as it is; one without keeps the visitor's hash (browsers do
 * this on page loads, RedirectHash on client navigations).
 */
export const redirectLookup: MiddlewareFunction<Response> = async ({ url, context }, next) => {
  let target: RedirectTarget | null = null;
  try {
    target = await findRedirect(context.get(appContext).services.redirects, url.pathname);
  } catch (error) {
    // The lookup is a convenience: a database hiccup must not take the page down with it.
    console.warn('redirect lookup failed', error);
  }
  if (target) throw (target.document ? redirectDocument : redirect)(target.location, target.status);
  return next();
};
