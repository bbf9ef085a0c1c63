import { type Locale, localeDefinition } from '#common/locales.ts';
import { formatMoney } from '#common/money.ts';

/** How the statistics page writes its figures in the page's language (dates in UTC, as the days are). */
export interface StatsFormat {
  number(value: number): string;
  /** A UTC day (YYYY-MM-DD) as a short date: "Mar 9", "3月9日". */
  day(day: string): string;
  /** A UTC day with its year. */
  longDay(day: string): string;
  /** Milliseconds as seconds ("12.5 sec", "12.5秒"); a dash for none. */
  seconds(ms: number | null): string;
  /** Minor units as the currency's amount ("$1.99", "¥500"). */
  money(minor: number, currency: string): string;
}

/** The formatters of one locale. */
export function statsFormat(locale: Locale): StatsFormat {
  const language = localeDefinition(locale).language;
  const numbers = new Intl.NumberFormat(language);
  const days = new Intl.DateTimeFormat(language, { month: 'short', day: 'numeric', timeZone: 'UTC' });
  const longDays = new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeZone: 'UTC' });
  const seconds = new Intl.NumberFormat(language, { style: 'unit', unit: 'second', unitDisplay: 'short', maximumFractionDigits: 1 });
  return {
    number: (value) => numbers.format(value),
    day: (day) => days.format(new Date(`${day}T00:00:00Z`)),
    longDay: (day) => longDays.format(new Date(`${day}T00:00:00Z`)),
    seconds: (ms) => (ms === null ? '–' : seconds.format(ms / 1000)),
    money: (minor, currency) => formatMoney(minor, currency, locale),
  };
}
