import { data } from 'react-router';

/** Which 404 of spec section 2 a page raised; the not-found page words each its own way. */
export type NotFoundKind = 'invalid-parameter' | 'unmatched';

/** The data of a thrown 404: the spec's message, and what the page needs to translate it. */
export interface NotFoundData {
  message: string;
  kind: NotFoundKind;
  path: string;
}

function notFound(kind: NotFoundKind, request: Request): never {
  const path = new URL(request.url).pathname;
  const message = kind === 'invalid-parameter' ? `Page Not Found: ${path}` : `Page not found: ${path}`;
  throw data<NotFoundData>({ message, kind, path }, { status: 404 });
}

/** An invalid route parameter: 404 "Page Not Found: {path}" (spec section 2). */
export function invalidParameter(request: Request): never {
  notFound('invalid-parameter', request);
}

/** An unmatched route, or a valid path naming nothing: 404 "Page not found: {path}". */
export function pageNotFound(request: Request): never {
  notFound('unmatched', request);
}

export function isNotFoundData(value: unknown): value is NotFoundData {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as NotFoundData).path === 'string' &&
    ((value as NotFoundData).kind === 'invalid-parameter' || (value as NotFoundData).kind === 'unmatched')
  );
}
