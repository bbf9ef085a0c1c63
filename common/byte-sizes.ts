import type { Locale } from './locales.ts';

const KB = 1024;
const MB = 1024 * 1024;

/** A number of bytes as people read it, in the locale's digits: "12 KB", "1.5 MB" (binary units, as file managers show them). */
export function byteSizeText(bytes: number, locale: Locale): string {
  const [value, unit] = bytes >= MB ? [bytes / MB, 'megabyte'] : bytes >= KB ? [bytes / KB, 'kilobyte'] : [bytes, 'byte'];
  return new Intl.NumberFormat(locale, {
    style: 'unit',
    unit,
    // "512 bytes" rather than "512 byte"; kB and MB short.
    unitDisplay: unit === 'byte' ? 'long' : 'short',
    maximumFractionDigits: value < 10 && unit !== 'byte' ? 1 : 0,
  }).format(value);
}
