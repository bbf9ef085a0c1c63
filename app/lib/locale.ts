import { DEFAULT_LOCALE, isLocale, type Locale } from '#common/locales.ts';

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
