import type { Translate } from '#common/i18n/translator.ts';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from '../i18n/translation.tsx';
import type { z } from 'zod';
import type { ValidationErrorData } from '#common/api/envelope.ts';
import { ApiError } from '../lib/api-client.ts';

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

import { messageOf } from '../lib/failure-message.ts';

export { messageOf };

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

/** Where focus goes after a refusal: the first field marked invalid, else a message marked `data-form-error`. */
const ERROR_TARGET = '[aria-invalid="true"], [data-form-error]';

/**
 * Moves focus to the first error inside `container` once it can take it: while the pending action
 * still disables the field, it waits a few frames. Focus the person put elsewhere (outside the form
 * and its dialog) stays where it is. Returns a cancel.
 */
export function focusFirstError(container: HTMLElement | null): () => void {
  let frame = 0;
  let tries = 0;
  const attempt = () => {
    if (!container?.isConnected) return;
    const active = document.activeElement;
    if (active && active !== document.body && !active.contains(container) && !container.contains(active)) return;
    const target = container.querySelector<HTMLElement>(ERROR_TARGET);
    if (target && !target.matches(':disabled')) {
      target.focus();
      return;
    }
    if (++tries < 120) frame = requestAnimationFrame(attempt);
  };
  frame = requestAnimationFrame(attempt);
  return () => cancelAnimationFrame(frame);
}

/**
 * A form's errors: per field under its input, and an alert for what no shown field explains.
 * `check` shows the browser's own findings and says whether the form may be sent; `fail` shows
 * what the API refused (a 422's fields, else its message). After either refuses, focus goes to the
 * first field in error or the alert inside `formRef` (decision 121), not to the page's body.
 */
export function useFormErrors<Container extends HTMLElement = HTMLFormElement>() {
  const { t } = useTranslation('accounts');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [alert, setAlert] = useState<string | null>(null);
  const formRef = useRef<Container>(null);
  const [refusals, setRefusals] = useState(0);
  useEffect(() => (refusals > 0 ? focusFirstError(formRef.current) : undefined), [refusals]);
  const check = (found: Record<string, string>): boolean => {
    setErrors(found);
    setAlert(null);
    const passes = Object.keys(found).length === 0;
    if (!passes) setRefusals((count) => count + 1);
    return passes;
  };
  /** `shown`: the fields this form has; a field error for another one becomes the alert. */
  const fail = (failure: unknown, shown?: string[]) => {
    const fields = fieldErrorsOf(failure);
    const visible = shown ? Object.fromEntries(Object.entries(fields).filter(([name]) => shown.includes(name))) : fields;
    setErrors(visible);
    setAlert(Object.keys(visible).length === 0 ? messageOf(failure, t('errors:generic')) : null);
    setRefusals((count) => count + 1);
  };
  return { errors, alert, check, fail, formRef };
}
