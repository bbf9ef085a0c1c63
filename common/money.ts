/*
 * Money in integer minor units, as orders keep it. How many minor units a major unit has is the
 * currency's exponent in ISO 4217, which Xsolla and Meta follow. Intl's own digits (CLDR) differ
 * for a few currencies (IQD, LAK, LBP, MMK… are written without decimals but keep ISO's), so the
 * exponent comes from this table, never from Intl.
 */
import { type Locale, localeDefinition } from './locales.ts';

/** ISO 4217 currencies whose exponent is not 2 (list one, as published by the maintenance agency). */
const EXPONENTS: Readonly<Record<string, number>> = {
  BIF: 0,
  CLP: 0,
  DJF: 0,
  GNF: 0,
  ISK: 0,
  JPY: 0,
  KMF: 0,
  KRW: 0,
  PYG: 0,
  RWF: 0,
  UGX: 0,
  UYI: 0,
  VND: 0,
  VUV: 0,
  XAF: 0,
  XOF: 0,
  XPF: 0,
  BHD: 3,
  IQD: 3,
  JOD: 3,
  KWD: 3,
  LYD: 3,
  OMR: 3,
  TND: 3,
  CLF: 4,
  UYW: 4,
};

/** Minor units per major unit, as a power of ten: JPY 0, USD 2, KWD 3. */
export function currencyExponent(currency: string): number {
  return EXPONENTS[currency.trim().toUpperCase()] ?? 2;
}

/** An amount in minor units as a number of major units (199 USD → 1.99; 199 JPY → 199). */
export function toMajorUnits(minor: number, currency: string): number {
  const exponent = currencyExponent(currency);
  return Number((minor / 10 ** exponent).toFixed(exponent));
}

/** The major-unit amount written with exactly the currency's decimals ("1.99", "199", "1.250"). */
export function majorUnitsText(minor: number, currency: string): string {
  const exponent = currencyExponent(currency);
  return (minor / 10 ** exponent).toFixed(exponent);
}

/**
 * A major-unit amount (a number, or a decimal string as providers send it) in minor units; null
 * when it is not a finite number or has more decimals than the currency has.
 */
export function toMinorUnits(amount: unknown, currency: string): number | null {
  const value = typeof amount === 'number' ? amount : typeof amount === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(amount) ? Number(amount) : Number.NaN;
  if (!Number.isFinite(value)) return null;
  const minor = value * 10 ** currencyExponent(currency);
  const rounded = Math.round(minor);
  // 1.99 × 100 is 198.99999999999997: a float's error, not a third decimal.
  return Math.abs(minor - rounded) < 1e-6 ? rounded : null;
}

const moneyFormats = new Map<string, Intl.NumberFormat>();

/**
 * The formatter of major-unit amounts of a currency in a locale, with exactly the currency's
 * ISO 4217 decimals: Intl's own (CLDR) would write IQD 1.250 as "IQD 1".
 */
export function moneyFormat(currency: string, locale: Locale): Intl.NumberFormat {
  const language = localeDefinition(locale).language;
  const key = `${language} ${currency}`;
  let format = moneyFormats.get(key);
  if (!format) {
    const digits = currencyExponent(currency);
    format = new Intl.NumberFormat(language, { style: 'currency', currency, minimumFractionDigits: digits, maximumFractionDigits: digits });
    moneyFormats.set(key, format);
  }
  return format;
}

/** An amount in minor units as the locale writes it ("$1.99", "¥120", "IQD 1.250"): the one money format of buyers, studios and operators. */
export function formatMoney(minor: number, currency: string, locale: Locale): string {
  return moneyFormat(currency, locale).format(toMajorUnits(minor, currency));
}
