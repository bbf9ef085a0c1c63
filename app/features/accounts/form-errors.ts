import type { TFunction } from 'i18next';
import type { z } from 'zod';
import type { ValidationErrorData } from '#common/api/envelope.ts';
import { ApiError } from '../../lib/api-client.ts';

/** The first translated message per field of a 422 answer (`data.errors`), or an empty object. */
export function fieldErrorsOf(error: unknown): Record<string, string> {
  if (!(error instanceof ApiError) || error.status !== 422) return {};
  const errors = (error.data as Partial<ValidationErrorData> | null)?.errors;
  if (!errors || typeof errors !== 'object') return {};
  const first: Record<string, string> = {};
  for (const [field, messages] of Object.entries(errors)) {
    if (Array.isArray(messages) && typeof messages[0] === 'string') first[field] = messages[0];
  }
  return first;
}

/** What to tell the person about a failed call: the server's message, else the generic text. */
export function messageOf(error: unknown, fallback: string): string {
  return error instanceof Error && error.message ? error.message : fallback;
}

/**
 * The browser-side check of a field with the schema the API uses: its first rule message (a
 * translation key of the accounts namespace) translated, or null when the value passes.
 */
export function schemaError(schema: z.ZodType, value: unknown, t: TFunction): string | null {
  const result = schema.safeParse(value);
  if (result.success) return null;
  const message = result.error.issues[0]?.message ?? '';
  return message.includes(':') ? t(message) : t('errors:field.invalid');
}
