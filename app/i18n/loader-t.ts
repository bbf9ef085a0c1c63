import { MESSAGES } from '#common/i18n/resources.ts';
import { i18nFor } from './i18n.ts';
import { localeOfPath } from '#common/locales.ts';

/** The locale of a request and a translator for it, for loaders (titles, meta). */
export function loaderT(request: Request) {
  const locale = localeOfPath(new URL(request.url).pathname);
  const t = i18nFor(locale, MESSAGES[locale]).t;
  return { locale, t };
}
