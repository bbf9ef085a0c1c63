import type { Locale } from '#common/locales.ts';

const formats = new Map<Locale, Intl.ListFormat>();

/**
 * A list as the locale writes it: "a, b, c" in English, "a、b、c" in Chinese (decision 121). The
 * narrow style keeps English without "and" and Chinese with the enumeration comma throughout.
 */
export function formatList(locale: Locale, items: readonly string[]): string {
  let format = formats.get(locale);
  if (!format) {
    format = new Intl.ListFormat(locale, { type: 'conjunction', style: 'narrow' });
    formats.set(locale, format);
  }
  return format.format(items);
}
