import type { z } from 'zod';
import type { Locale } from '#common/locales.ts';
import { translator } from '../i18n.ts';
import { AppError } from '../lib/app-error.ts';

/** Translates zod issues into `{ field: [message] }`, in the request's locale. */
function fieldErrors(issues: z.core.$ZodIssue[], locale: Locale, prefix?: string): Record<string, string[]> {
  const t = translator(locale);
  const errors: Record<string, string[]> = {};
  for (const issue of issues) {
    const path = [prefix, ...issue.path.map(String)].filter(Boolean).join('.') || '_';
    const message = issueMessage(issue, t);
    (errors[path] ??= []).push(message);
  }
  return errors;
}

function issueMessage(issue: z.core.$ZodIssue, t: ReturnType<typeof translator>): string {
  switch (issue.code) {
    case 'invalid_type':
      return t(issue.input === undefined ? 'errors:field.required' : 'errors:field.invalidType');
    case 'too_small':
      return t('errors:field.tooSmall', { minimum: String(issue.minimum) });
    case 'too_big':
      return t('errors:field.tooBig', { maximum: String(issue.maximum) });
    case 'invalid_format':
      return t('errors:field.invalidFormat');
    case 'invalid_value':
      return t('errors:field.invalidValue');
    case 'unrecognized_keys':
      return t('errors:field.unknownKeys');
    default:
      // Custom refinements carry a translation key as their message.
      return issue.message.includes(':') ? t(issue.message, (issue as { params?: Record<string, unknown> }).params) : t('errors:field.invalid');
  }
}

/** Parses a value with a schema or throws a 422 AppError with field errors. */
export function parseOrThrow<S extends z.ZodType>(schema: S, value: unknown, locale: Locale, prefix?: string): z.output<S> {
  // reportInput lets a missing value be told apart from a value of the wrong type.
  const result = schema.safeParse(value, { reportInput: true });
  if (result.success) return result.data;
  throw new AppError('validation', { data: { errors: fieldErrors(result.error.issues, locale, prefix) } });
}
