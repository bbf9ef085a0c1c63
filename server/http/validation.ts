import type { z } from 'zod';
import type { Locale } from '#common/locales.ts';
import { isTranslationKey, translator } from '../i18n.ts';
import { AppError } from '../lib/app-error.ts';

/** Translates zod issues into `{ field: [message] }`, in the request's locale. */
function fieldErrors(issues: z.core.$ZodIssue[], locale: Locale, prefix?: string): Record<string, string[]> {
  const t = translator(locale);
  const errors: Record<string, string[]> = {};
  for (const issue of issues) {
    const path = [prefix, ...issue.path.map(String)].filter(Boolean).join('.') || '_';
    const message = issueMessage(issue, t, locale);
    (errors[path] ??= []).push(message);
  }
  return errors;
}

/** The refused value as a message quotes it: short, on one line. */
function quoted(input: unknown): string {
  const text = typeof input === 'string' ? input : (jsonOf(input) ?? String(input));
  const line = text.replace(/\s+/g, ' ');
  return line.length > 40 ? `${line.slice(0, 39)}…` : line;
}

/** JSON of a refused value, or a stand-in where it has none or is nested too deep to write out (JSON.parse reads deeper than JSON.stringify writes). */
function jsonOf(input: unknown): string | undefined {
  try {
    return JSON.stringify(input);
  } catch {
    return Array.isArray(input) ? '[…]' : '{…}';
  }
}

/**
 * A refusal a person can act on (decision 125): which rule the value broke and the value itself,
 * in the request's language. A schema's rule with a message of its own names it by key.
 */
function issueMessage(issue: z.core.$ZodIssue, t: ReturnType<typeof translator>, locale: Locale): string {
  const params = { ...(issue as { params?: Record<string, unknown> }).params, value: quoted(issue.input) };
  if (isTranslationKey(issue.message)) return t(issue.message, params);
  const origin = (issue as { origin?: string }).origin;
  switch (issue.code) {
    case 'invalid_type': {
      if (issue.input === undefined) return t('errors:field.required');
      // A number coerced from text that is not one (a query parameter): the text itself is gone.
      if (typeof issue.input === 'number' && Number.isNaN(issue.input)) return t('errors:field.expected.notANumber');
      const expected =
        issue.expected === 'int' ? 'wholeNumber' : ['number', 'string', 'boolean', 'array', 'object'].includes(issue.expected) ? issue.expected : null;
      return expected ? t(`errors:field.expected.${expected}`, params) : t('errors:field.invalidType');
    }
    case 'too_small': {
      const minimum = Number(issue.minimum);
      if (origin === 'string')
        return minimum <= 1 ? t('errors:field.empty') : t('errors:field.tooShort', { count: minimum, length: String(issue.input ?? '').length });
      if (origin === 'array' || origin === 'set') return t('errors:field.tooFew', { count: minimum });
      if (origin === 'number' || origin === 'bigint')
        return t(issue.inclusive ? 'errors:field.tooLow' : 'errors:field.tooLowExclusive', { ...params, minimum });
      return t('errors:field.tooSmall', { minimum: String(issue.minimum) });
    }
    case 'too_big': {
      const maximum = Number(issue.maximum);
      if (origin === 'string') return t('errors:field.tooLong', { count: maximum, length: String(issue.input ?? '').length });
      if (origin === 'array' || origin === 'set')
        return t('errors:field.tooMany', { count: maximum, length: Array.isArray(issue.input) ? issue.input.length : 0 });
      if (origin === 'number' || origin === 'bigint')
        return t(issue.inclusive ? 'errors:field.tooHigh' : 'errors:field.tooHighExclusive', { ...params, maximum });
      return t('errors:field.tooBig', { maximum: String(issue.maximum) });
    }
    case 'invalid_format':
      return t('errors:field.invalidFormatValue', params);
    case 'invalid_value':
      return t('errors:field.oneOf', {
        ...params,
        values: new Intl.ListFormat(locale, { type: 'disjunction' }).format(issue.values.map((v) => `“${quoted(v)}”`)),
      });
    case 'unrecognized_keys':
      return t('errors:field.unknownKeys');
    default:
      return t('errors:field.invalid');
  }
}

/** Parses a value with a schema or throws a 422 AppError with field errors. */
export function parseOrThrow<S extends z.ZodType>(schema: S, value: unknown, locale: Locale, prefix?: string): z.output<S> {
  // reportInput lets a missing value be told apart from a value of the wrong type.
  const result = schema.safeParse(value, { reportInput: true });
  if (result.success) return result.data;
  throw new AppError('validation', { data: { errors: fieldErrors(result.error.issues, locale, prefix) } });
}
