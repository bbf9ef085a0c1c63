import { z } from 'zod';
import { AppError } from '#server/http/errors.ts';

const CursorSchema = z.object({ v: z.union([z.string(), z.number()]), id: z.number().int() });
export type Cursor = z.infer<typeof CursorSchema>;

/** Keyset cursors are opaque to clients: base64url JSON of the last row's sort value and id. */
export function encodeCursor(cursor: Cursor): string {
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
