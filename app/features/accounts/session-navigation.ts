import { type DataStrategyResult, type MiddlewareFunction, replace } from 'react-router';
import { session } from './session.ts';
import { tokenFromUrl, urlWithoutToken } from './session-token.ts';

/**
 * The browser's part of the session-restore middleware (spec sections 2 and 4), run before each
 * client navigation's loaders: a token in the address is adopted and removed by a replacing
 * redirect; a token without user info gets it silently. (Page loads are the server's part.)
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
  return next();
};
