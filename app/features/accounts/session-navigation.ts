import { type DataStrategyResult, type MiddlewareFunction, redirect, replace } from 'react-router';
import { isLoginPath } from './require-member.ts';
import { session } from './session.ts';
import { tokenFromUrl, urlWithoutToken } from './session-token.ts';

/** A route's answer that sends the visitor to /login: the members-only middleware found no member. */
function sentToLogin(result: DataStrategyResult): boolean {
  const response = result.result;
  if (!(response instanceof Response) || response.status < 300 || response.status > 399) return false;
  const location = response.headers.get('Location');
  return location !== null && isLoginPath(new URL(location, window.location.origin).pathname);
}

/**
 * The browser's part of the session-restore middleware (spec sections 2 and 4), run before each
 * client navigation's loaders: a token in the address is adopted and removed by a replacing
 * redirect; a token without user info gets it silently. (Page loads are the server's part.)
 *
 * A members-only page's data sent to /login for a token the cookie no longer holds (rotated by a
 * call that answered meanwhile, or in flight when the data was asked for) is asked for again with
 * the current token, instead of leaving a member who is still signed in (decision 027).
 */
export const browserSessionRestore: MiddlewareFunction<Record<string, DataStrategyResult>> = async ({ url }, next) => {
  const token = tokenFromUrl(url);
  if (token) {
    // Checked with the server, and confirmed by the visitor unless it is a guest's token offered to
    // a visitor with nothing to lose, before it is adopted (decision 050).
    void session.offerToken(token);
    throw replace(urlWithoutToken(url));
  }
  session.refreshIfIncomplete();
  const sentWith = session.storedToken();
  const results = await next();
  if (!Object.values(results).some(sentToLogin) || !(await session.refusalIsStale(sentWith))) return results;
  // The same page again: in place when it is the one shown (a revalidation), as a new entry otherwise.
  const target = `${url.pathname}${url.search}`;
  const again = target === `${window.location.pathname}${window.location.search}` ? replace(target + window.location.hash) : redirect(target);
  return Object.fromEntries(
    Object.entries(results).map(([id, result]): [string, DataStrategyResult] => [id, sentToLogin(result) ? { type: 'error', result: again } : result]),
  );
};
