import { MESSAGES } from '#common/i18n/resources.ts';
import { createTranslator, type Translate } from '#common/i18n/translator.ts';
import { type Locale, LOCALE_CODES, resolveLocale } from '#common/locales.ts';

// Both locales have the same keys (a unit test compares them), so no fallback locale is needed.
const translators = new Map<Locale, Translate>(LOCALE_CODES.map((code) => [code, createTranslator(code, MESSAGES[code]).t]));

/** A translator fixed to one locale, for server-side texts (API messages). */
export function translator(locale: Locale): Translate {
  return translators.get(locale) ?? translators.get('en')!;
}

/** The API's locale: Locale header, then the locale query, then English. */
export function requestLocale(header: string | string[] | undefined, query: unknown): Locale {
  const fromHeader = Array.isArray(header) ? header[0] : header;
  const fromQuery = query && typeof query === 'object' && 'locale' in query ? String((query as { locale: unknown }).locale) : undefined;
  return resolveLocale(fromHeader, fromQuery);
}

/** A translation key ("namespace:key.path"), as a schema's rule message names its text; any other text (a URL in it, say) is not one. */
export function isTranslationKey(text: string): boolean {
  return /^[a-z][\w-]*:[\w.-]+$/.test(text);
}
