import { type MiddlewareFunction, redirect } from 'react-router';
import { isLocale } from '#common/locales.ts';
import { pageSessionContext } from './page-session.ts';

/** The query parameter of /login that holds where to go back to after signing in. */
export const RETURN_QUERY = 'redirect';

/** /login in the locale prefix the visitor used, with the page to come back to (decision 026). */
export function loginPathFor(url: URL): string {
  const first = url.pathname.split('/')[1];
  const prefix = isLocale(first) ? `/${first}` : '';
  return `${prefix}/login?${RETURN_QUERY}=${encodeURIComponent(url.pathname + url.search)}`;
}

/** Whether a path is /login, in any locale prefix: where `requireMember` sends a visitor who is not signed in. */
export function isLoginPath(pathname: string): boolean {
  const parts = pathname.split('/').filter(Boolean);
  return (parts.length === 1 && parts[0] === 'login') || (parts.length === 2 && isLocale(parts[0]) && parts[1] === 'login');
}

/**
 * The named "auth" middleware (spec sections 2 and 6; the rule is decision 026): profile pages
 * are for signed-in members. A visitor without a session, or with a guest account, is sent to
 * /login with the page as the return path; page loads and client navigations alike, since
 * both ask the server for the page's data.
 */
export const requireMember: MiddlewareFunction<Response> = async ({ url, context }, next) => {
  const { userInfo } = await context.get(pageSessionContext)();
  if (!userInfo || userInfo.isGuest) throw redirect(loginPathFor(url), 302);
  return next();
};
