import { z } from 'zod';
import { AppError } from '#server/lib/app-error.ts';

const CursorSchema = z.object({ v: z.union([z.string(), z.number()]), id: z.number().int() });
export type Cursor = z.infer<typeof CursorSchema>;

/** Keyset cursors are opaque to clients: base64url JSON of the last row's sort value and id. */
function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify(cursor)).toString('base64url');
}

export function decodeCursor(value: string | undefined): Cursor | null {
  if (!value) return null;
  try {
    return CursorSchema.parse(JSON.parse(Buffer.from(value, 'base64url').toString('utf8')));
  } catch (cause) {
    throw new AppError('validation', { data: { errors: { cursor: ['invalid'] } }, cause, messageKey: 'errors:validation' });
  }
}

/**
 * A page from rows fetched with one extra: the first `limit`, and the cursor of the next page when
 * the extra row shows there is one (`key` gives a row's sort value and id).
 */
export function pageWithCursor<T>(rows: T[], limit: number, key: (row: T) => Cursor): { page: T[]; nextCursor: string | null } {
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return { page, nextCursor: rows.length > limit && last !== undefined ? encodeCursor(key(last)) : null };
}
