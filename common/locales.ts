/** The interface locales of spec section 3: en is the default and the fallback. */
export const LOCALES = [
  { code: 'en', language: 'en-US', name: 'English', dir: 'ltr' },
  { code: 'zh-CN', language: 'zh-CN', name: '简体中文', dir: 'ltr' },
] as const;

export type Locale = (typeof LOCALES)[number]['code'];

export const DEFAULT_LOCALE: Locale = 'en';

export const LOCALE_CODES: readonly Locale[] = LOCALES.map((l) => l.code);

/** Locale cookie name and lifetime (spec section 9). */
export const LOCALE_COOKIE = 'i18n_redirected';

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALE_CODES as readonly string[]).includes(value);
}

/** Picks a supported locale from a value such as a header, else the default. */
export function resolveLocale(...candidates: Array<string | null | undefined>): Locale {
  for (const candidate of candidates) if (isLocale(candidate)) return candidate;
  return DEFAULT_LOCALE;
}

export function localeDefinition(code: Locale) {
  return LOCALES.find((l) => l.code === code) ?? LOCALES[0];
}

/** Prefixes a path with the locale: the default locale has no prefix. */
export function localePath(locale: Locale, path: string): string {
  const clean = path.startsWith('/') ? path : `/${path}`;
  if (locale === DEFAULT_LOCALE) return clean;
  return clean === '/' ? `/${locale}` : `/${locale}${clean}`;
}

/** The locale a URL path is in: its first segment when that is a locale prefix, else English. */
export function localeOfPath(pathname: string): Locale {
  const first = pathname.split('/')[1];
  return isLocale(first) ? first : DEFAULT_LOCALE;
}

/** The path without its locale prefix ("/zh-CN/app/x" → "/app/x"). */
export function stripLocale(pathname: string): string {
  const first = pathname.split('/')[1];
  if (!isLocale(first)) return pathname || '/';
  const rest = pathname.slice(first.length + 1);
  return rest === '' ? '/' : rest;
}
