import { type Locale, localeDefinition } from '#common/locales.ts';
import { ApiError } from '../../lib/api-client.ts';

const formats = new Map<Locale, Intl.DateTimeFormat>();

/** A moment (an order, an audit entry) with its time, in UTC as the server records it. */
export function formatDateTime(iso: string, locale: Locale): string {
  let format = formats.get(locale);
  if (!format)
    formats.set(locale, (format = new Intl.DateTimeFormat(localeDefinition(locale).language, { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' })));
  return `${format.format(new Date(iso))} UTC`;
}

/** What to tell the operator about a failed call: the field's message when one field was refused, else the envelope's. */
export function failureText(failure: unknown, field: string, fallback: string): string {
  if (!(failure instanceof ApiError)) return fallback;
  const errors = (failure.data as { errors?: Record<string, string[]> } | null)?.errors;
  return errors?.[field]?.[0] ?? failure.message ?? fallback;
}

/** Table cells and headings shared by the Console's pages. */
export const cellClass = 'px-3 py-2 align-top';
/** A column heading, left-aligned; `numberHeadClass` for a column of numbers (no two alignments on one element). */
const headBase = 'px-3 py-2 text-xs font-medium tracking-wide text-zinc-600 uppercase dark:text-zinc-400';
export const headClass = `${headBase} text-left`;
export const numberHeadClass = `${headBase} text-right`;
export const tableFrame = 'overflow-x-auto rounded-xl border border-zinc-200 dark:border-zinc-800';
export const tableClass = 'w-full min-w-[36rem] divide-y divide-zinc-200 text-sm dark:divide-zinc-800';
