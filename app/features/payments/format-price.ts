import type { Locale } from '#common/locales.ts';
import { toMajorUnits } from '#common/money.ts';

/** A price in minor units as the locale writes it ("$1.99", "US$1.99"). */
export function formatPrice(minor: number, currency: string, locale: Locale): string {
  // The exponent is ISO 4217's, as stored; Intl's own digits differ for a few currencies (IQD).
  return new Intl.NumberFormat(locale, { style: 'currency', currency }).format(toMajorUnits(minor, currency));
}
