import type { Locale } from '#common/locales.ts';

/** A price in minor units as the locale writes it ("$1.99", "US$1.99"). */
export function formatPrice(minor: number, currency: string, locale: Locale): string {
  const format = new Intl.NumberFormat(locale, { style: 'currency', currency });
  const digits = format.resolvedOptions().maximumFractionDigits ?? 2;
  return format.format(minor / 10 ** digits);
}
