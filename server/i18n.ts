import i18next, { type TFunction } from 'i18next';
import { MESSAGES } from '#common/i18n/resources.ts';
import { type Locale, LOCALE_CODES, resolveLocale } from '#common/locales.ts';

const instance = i18next.createInstance();
await instance.init({
  resources: MESSAGES,
  lng: 'en',
  fallbackLng: 'en',
  supportedLngs: [...LOCALE_CODES],
  defaultNS: 'common',
  interpolation: { escapeValue: false },
  initAsync: false,
});

const translators = new Map<Locale, TFunction>(LOCALE_CODES.map((code) => [code, instance.getFixedT(code)]));

/** A translator fixed to one locale, for server-side texts (API messages). */
export function translator(locale: Locale): TFunction {
  return translators.get(locale) ?? translators.get('en')!;
}

/** The API's locale: Locale header, then the locale query, then English. */
export function requestLocale(header: string | string[] | undefined, query: unknown): Locale {
  const fromHeader = Array.isArray(header) ? header[0] : header;
  const fromQuery = query && typeof query === 'object' && 'locale' in query ? String((query as { locale: unknown }).locale) : undefined;
  return resolveLocale(fromHeader, fromQuery);
}
