import type { Translate } from '#common/i18n/translator.ts';
import { useState } from 'react';
import { useTranslation } from '../../i18n/translation.tsx';
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
export function schemaError(schema: z.ZodType, value: unknown, t: Translate): string | null {
  const result = schema.safeParse(value);
  if (result.success) return null;
  const message = result.error.issues[0]?.message ?? '';
  return message.includes(':') ? t(message) : t('errors:field.invalid');
}

/**
 * A form's errors: per field under its input, and an alert for what no shown field explains.
 * `check` shows the browser's own findings and says whether the form may be sent; `fail` shows
 * what the API refused (a 422's fields, else its message).
 */
export function useFormErrors() {
  const { t } = useTranslation('accounts');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [alert, setAlert] = useState<string | null>(null);
  const check = (found: Record<string, string>): boolean => {
    setErrors(found);
    setAlert(null);
    return Object.keys(found).length === 0;
  };
  /** `shown`: the fields this form has; a field error for another one becomes the alert. */
  const fail = (failure: unknown, shown?: string[]) => {
    const fields = fieldErrorsOf(failure);
    const visible = shown ? Object.fromEntries(Object.entries(fields).filter(([name]) => shown.includes(name))) : fields;
    setErrors(visible);
    setAlert(Object.keys(visible).length === 0 ? messageOf(failure, t('errors:generic')) : null);
  };
  return { errors, alert, check, fail };
}
