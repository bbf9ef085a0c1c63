import { type MiddlewareFunction, redirect } from 'react-router';
import { isPersonalPage } from '#common/route-rules.ts';
import { appContext } from '../context.ts';
import { lookUpPageSession, pageSessionContext, sharedPageSession } from '../features/accounts/page-session.ts';
import { tokenFromUrl, tokenOfferCookie, urlWithoutToken } from '../features/accounts/session-token.ts';
import { secureCookiesFor } from './campaign-tags.ts';
import { isDocumentRequest } from './locale-redirect.ts';

/**
 * First of the global middleware (spec section 2): restores the visitor's session before the
 * rest run. A page load whose query carries an adoptable token (spec section 4) is redirected to
 * the same address without it, so the token never stays in the address bar, the history or a
 * rendered page. The server never writes the session cookie from a URL: a token it can verify
 * is offered to the page (a short-lived cookie), whose session store adopts it, or asks first
 * when the token is a member's or the visitor holds a session (decision 050); any other token is dropped. Otherwise the
 * request's session is made available to loaders, looked up lazily from the token cookie.
 *
 * Client navigations never reach here with a token: the browser's session restore handles it.
 */
export const sessionRestore: MiddlewareFunction<Response> = async ({ request, url, context }, next) => {
  const { services, site } = context.get(appContext);
  const offered = request.method === 'GET' && isDocumentRequest(request) ? tokenFromUrl(url) : null;
  if (offered) {
    const headers = new Headers();
    const verified = await services.accounts.userInfoForToken(offered).catch(() => null);
    if (verified) headers.append('Set-Cookie', tokenOfferCookie(offered, secureCookiesFor(site.publicOrigin)));
    throw redirect(urlWithoutToken(url), { status: 302, headers });
  }
  const cookieHeader = request.headers.get('cookie');
  if (!isPersonalPage(url.pathname)) {
    // A page shared by everyone never reads the session (decision 066): the browser asks for it.
    const shared = sharedPageSession(cookieHeader);
    context.set(pageSessionContext, async () => shared);
    return next();
  }
  let lookup: Promise<Awaited<ReturnType<typeof lookUpPageSession>>> | null = null;
  context.set(pageSessionContext, () => (lookup ??= lookUpPageSession(services.accounts, cookieHeader)));
  return next();
};
