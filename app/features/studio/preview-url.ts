import { type Locale, localePath, stripLocale } from '#common/locales.ts';

/**
 * A build's preview link in the language of the page that shows it (decision 119): the API gives
 * the English address (decision 097), and a studio working in Chinese expects the Chinese QA page.
 */
export function previewUrlIn(locale: Locale, previewUrl: string): string {
  const url = new URL(previewUrl);
  url.pathname = localePath(locale, stripLocale(url.pathname));
  return url.href;
}
