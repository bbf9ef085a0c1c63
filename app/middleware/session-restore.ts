import { type MiddlewareFunction, redirect } from 'react-router';
import { TOKEN_COOKIE } from '#common/constants.ts';
import { appContext } from '../context.ts';
import { lookUpPageSession, pageSessionContext } from '../features/accounts/page-session.ts';
import { decodeTokenCookie, loginNoticeCookie, tokenCookie, tokenFromUrl, urlWithoutToken } from '../features/accounts/session-token.ts';
import { readCookie } from '../lib/cookies.ts';
import { secureCookiesFor } from './campaign-tags.ts';
import { isDocumentRequest } from './locale-redirect.ts';

/**
 * First of the global middleware (spec section 2): restores the visitor's session before the
 * rest run. A page load whose query carries an adoptable token (spec section 4) stores it in
 * the token cookie and is redirected to the same address without it, so the token never stays
 * in the address bar, the history or a rendered page. Otherwise the request's session is made
 * available to loaders, looked up lazily from the token cookie.
 *
 * Client navigations never reach here with a token: the browser's session restore adopts it first.
 */
export const sessionRestore: MiddlewareFunction<Response> = async ({ request, url, context }, next) => {
  const cookieHeader = request.headers.get('cookie');
  const adopted = request.method === 'GET' && isDocumentRequest(request) ? tokenFromUrl(url) : null;
  if (adopted) {
    const secure = secureCookiesFor(url);
    const headers = new Headers();
    headers.append('Set-Cookie', tokenCookie(adopted, secure));
    if (decodeTokenCookie(readCookie(TOKEN_COOKIE, cookieHeader)) !== adopted) headers.append('Set-Cookie', loginNoticeCookie(secure));
    throw redirect(urlWithoutToken(url), { status: 302, headers });
  }
  const { services } = context.get(appContext);
  let lookup: Promise<Awaited<ReturnType<typeof lookUpPageSession>>> | null = null;
  context.set(pageSessionContext, () => (lookup ??= lookUpPageSession(services.accounts, cookieHeader)));
  return next();
};
