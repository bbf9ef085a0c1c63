import i18next, { type i18n as I18n } from 'i18next';
import type { Locale } from '#common/locales.ts';
import type { Messages } from '#common/i18n/resources.ts';

const instances = new Map<Locale, I18n>();
let browserInstance: I18n | null = null;

function create(locale: Locale, messages: Messages): I18n {
  const instance = i18next.createInstance();
  void instance.init({
    lng: locale,
    fallbackLng: false,
    resources: { [locale]: messages },
    defaultNS: 'common',
    interpolation: { escapeValue: false },
    initAsync: false,
    react: { useSuspense: false },
  });
  return instance;
}

/**
 * The i18next instance for a render. The server keeps one per locale (messages are
 * static); the browser keeps one and adds a locale's messages when it first needs them.
 */
export function i18nFor(locale: Locale, messages: Messages): I18n {
  if (typeof document === 'undefined') {
    let instance = instances.get(locale);
    if (!instance) instances.set(locale, (instance = create(locale, messages)));
    return instance;
  }
  if (!browserInstance) browserInstance = create(locale, messages);
  if (!browserInstance.hasResourceBundle(locale, 'common')) {
    for (const [ns, bundle] of Object.entries(messages)) browserInstance.addResourceBundle(locale, ns, bundle, true, true);
  }
  if (browserInstance.language !== locale) void browserInstance.changeLanguage(locale);
  return browserInstance;
}
