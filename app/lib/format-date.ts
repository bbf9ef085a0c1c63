import { type Locale, localeDefinition } from '#common/locales.ts';

const formats = new Map<Locale, Intl.DateTimeFormat>();

/** A date (a publication, a passkey's creation) as readers of the locale write it, in UTC so server and browser agree. */
export function formatDate(iso: string, locale: Locale): string {
  let format = formats.get(locale);
  if (!format) formats.set(locale, (format = new Intl.DateTimeFormat(localeDefinition(locale).language, { dateStyle: 'long', timeZone: 'UTC' })));
  return format.format(new Date(iso));
}
