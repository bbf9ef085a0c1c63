import { createContext, type RouterContextProvider } from 'react-router';
import type { UserInfo } from '#common/api/accounts.schema.ts';
import { TOKEN_COOKIE } from '#common/constants.ts';
import type { PageServices } from '../../context.ts';
import { readCookie } from '../../lib/cookies.ts';

/**
 * What the server found for the token cookie of a request:
 * `none` no cookie; `valid` the token's user; `invalid` a token the server does not know
 * (revoked, or its user deleted); `unknown` the lookup failed, or a page shared by everyone did
 * not look (decision 066): the browser then asks itself.
 */
export type PageSessionState = 'none' | 'valid' | 'invalid' | 'unknown';

export interface PageSession {
  state: PageSessionState;
  userInfo: UserInfo | null;
}

/**
 * The attribute of `<html>` on a page rendered for a crawler (the server's isbot verdict on the
 * user agent): the browser then makes no guest account, without loading a crawler list itself.
 */
export const CRAWLER_ATTRIBUTE = 'data-crawler';

/** The request's session, looked up at most once and only when a loader or middleware asks. */
export const pageSessionContext = createContext<() => Promise<PageSession>>();

/** Resolves the token cookie of a Cookie header through the accounts service. */
export async function lookUpPageSession(accounts: Pick<PageServices['accounts'], 'userInfoForToken'>, cookieHeader: string | null): Promise<PageSession> {
  const token = readCookie(TOKEN_COOKIE, cookieHeader);
  if (!token) return { state: 'none', userInfo: null };
  const session = await accounts.userInfoForToken(token);
  return session ? { state: 'valid', userInfo: session.userInfo } : { state: 'invalid', userInfo: null };
}

/** The session a page shared by everyone is rendered with: only whether there is a token cookie. */
export function sharedPageSession(cookieHeader: string | null): PageSession {
  return { state: readCookie(TOKEN_COOKIE, cookieHeader) ? 'unknown' : 'none', userInfo: null };
}

/** The request's session for a loader; a failed lookup is `unknown` (the browser then asks itself). */
export async function pageSessionOf(context: Readonly<RouterContextProvider>): Promise<PageSession> {
  try {
    return await context.get(pageSessionContext)();
  } catch (error) {
    console.warn('session lookup failed', error);
    return { state: 'unknown', userInfo: null };
  }
}
