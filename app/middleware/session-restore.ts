import type { MiddlewareFunction } from 'react-router';

/**
 * First of the global middleware (spec section 2): restores the visitor's session before the
 * rest run. The accounts feature fills this in; until then it passes the request on.
 */
export const sessionRestore: MiddlewareFunction<Response> = (_args, next) => next();
