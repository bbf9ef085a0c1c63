import { data } from 'react-router';

/** An invalid route parameter: 404 "Page Not Found: {path}" (spec section 2). */
export function invalidParameter(request: Request): never {
  throw data({ message: `Page Not Found: ${new URL(request.url).pathname}` }, { status: 404 });
}

/** An unmatched route, or a valid path naming nothing: 404 "Page not found: {path}". */
export function pageNotFound(request: Request): never {
  throw data({ message: `Page not found: ${new URL(request.url).pathname}` }, { status: 404 });
}
