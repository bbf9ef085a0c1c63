import { type Locale, localeDefinition } from '#common/locales.ts';
import { formatMoney } from '#common/money.ts';

/** How the Earnings pages write amounts, months and dates in the page's language (UTC, as statements count). */
export function earningsFormat(locale: Locale) {
  const language = localeDefinition(locale).language;
  const months = new Intl.DateTimeFormat(language, { year: 'numeric', month: 'long', timeZone: 'UTC' });
  const dates = new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeZone: 'UTC' });
  const times = new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' });
  const numbers = new Intl.NumberFormat(language);
  const percents = new Intl.NumberFormat(language, { style: 'percent', maximumFractionDigits: 2 });
  return {
    money: (minor: number, currency: string) => formatMoney(minor, currency, locale),
    /** `YYYY-MM` as "November 2026", "2026年11月". */
    month: (month: string) => months.format(new Date(`${month}-01T00:00:00Z`)),
    date: (iso: string) => dates.format(new Date(iso)),
    /** An instant with its time, in UTC (the months' clock). */
    time: (iso: string) => `${times.format(new Date(iso))} UTC`,
    number: (value: number) => numbers.format(value),
    percent: (value: number) => percents.format(value / 100),
  };
}
