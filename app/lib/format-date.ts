import { type Locale, localeDefinition } from '#common/locales.ts';

export type DateStyle = 'long' | 'medium';

const formats = new Map<string, Intl.DateTimeFormat>();

/** A date (a publication, a passkey's creation) as readers of the locale write it, in UTC so server and browser agree. */
export function formatDate(iso: string, locale: Locale, style: DateStyle = 'long'): string {
  const key = `${locale} ${style}`;
  let format = formats.get(key);
  if (!format) formats.set(key, (format = new Intl.DateTimeFormat(localeDefinition(locale).language, { dateStyle: style, timeZone: 'UTC' })));
  return format.format(new Date(iso));
}

/**
 * The dates a page shows on arrival, written by the server for its loader data: the browser's
 * first Intl.DateTimeFormat costs a slow phone about 50 ms of blocked main thread (decision 078),
 * so hydration reads these instead and only dates fetched later are formatted in the browser.
 */
export function dateLabels(isos: Iterable<string>, locale: Locale, style: DateStyle = 'long'): Record<string, string> {
  return Object.fromEntries([...new Set(isos)].map((iso) => [iso, formatDate(iso, locale, style)]));
}
