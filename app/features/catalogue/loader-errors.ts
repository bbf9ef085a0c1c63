import { pageNotFound } from '../../lib/route-errors.ts';

/** Whether a service error is the catalogue's "nothing by that slug" (an AppError with code not_found). */
export function isNotFoundError(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'not_found';
}

/** Awaits a service call in a loader; "not found" becomes the page's 404 "Page not found: {path}". */
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
