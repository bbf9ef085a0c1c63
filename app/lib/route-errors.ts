import { data } from 'react-router';

/** Which 404 of spec section 2 a page raised; the not-found page words each its own way. */
export type NotFoundKind = 'invalid-parameter' | 'unmatched';

/** The data of a thrown 404: the spec's message, and what the page needs to translate it. */
export interface NotFoundData {
  message: string;
  kind: NotFoundKind;
  path: string;
}

/**
 * The page path a loader serves. Prefer the loader's `url`; a `request` of the router's data
 * requests ends in `.data` (`/_.data` for the home page), which is not part of the page's path.
 */
export function pagePath(source: Request | URL): string {
  if (source instanceof URL) return source.pathname;
  const { pathname } = new URL(source.url);
  return pathname.endsWith('/_.data') ? pathname.slice(0, -'_.data'.length) : pathname.replace(/\.data$/, '');
}

function notFound(kind: NotFoundKind, source: Request | URL): never {
  const path = pagePath(source);
  const message = kind === 'invalid-parameter' ? `Page Not Found: ${path}` : `Page not found: ${path}`;
  throw data<NotFoundData>({ message, kind, path }, { status: 404 });
}

/** An invalid route parameter: 404 "Page Not Found: {path}" (spec section 2). */
export function invalidParameter(source: Request | URL): never {
  notFound('invalid-parameter', source);
}

/** An unmatched route, or a valid path naming nothing: 404 "Page not found: {path}". */
export function pageNotFound(source: Request | URL): never {
  notFound('unmatched', source);
}

export function isNotFoundData(value: unknown): value is NotFoundData {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as NotFoundData).path === 'string' &&
    ((value as NotFoundData).kind === 'invalid-parameter' || (value as NotFoundData).kind === 'unmatched')
  );
}

/**
 * A service's refusal (an AppError) as a page sees it: its code, message key and values. Pages
 * import only types from server/ (decision 083), so the error is known by its shape, not `instanceof`.
 */
export function serviceRefusal(error: unknown): { code: string; messageKey: string; values: Record<string, unknown> } | null {
  if (!(error instanceof Error) || error.name !== 'AppError') return null;
  const { code, options } = error as Error & { code?: unknown; options?: { values?: Record<string, unknown> } };
  return typeof code === 'string' ? { code, messageKey: error.message, values: options?.values ?? {} } : null;
}

/** Whether a service error is "nothing by that id or slug" (an AppError with code not_found). */
export function isNotFoundError(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'not_found';
}

/** The one mapping for pages: a service's "not found" becomes the page's 404 "Page not found: {path}". */
export async function orPageNotFound<T>(request: Request, call: Promise<T>): Promise<T> {
  try {
    return await call;
  } catch (error) {
    if (isNotFoundError(error)) pageNotFound(request);
    throw error;
  }
}

/** Whether a service error is a rejected input (a 422: a cursor that is not ours, for example). */
export function isValidationError(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'validation';
}
