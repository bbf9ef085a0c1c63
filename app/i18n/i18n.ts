import type { Locale } from '#common/locales.ts';
import type { Messages } from '#common/i18n/resources.ts';
import { createTranslator, type Translator } from '#common/i18n/translator.ts';

/**
 * One translator per locale, each with that locale's messages only. Switching locale swaps the
 * translator in the provider, so every component re-renders with the new texts in the same
 * render as the new page.
 */
const instances = new Map<Locale, Translator>();
const empties = new Map<Locale, Translator>();
const loading = new Map<Locale, Promise<boolean>>();

/** The translator of a locale, created from its messages on first use. */
export function i18nFor(locale: Locale, messages: Messages): Translator {
  let instance = instances.get(locale);
  if (!instance) instances.set(locale, (instance = createTranslator(locale, messages)));
  return instance;
}

/** The translator of a locale whose messages are already here, else undefined. */
export function loadedI18n(locale: Locale): Translator | undefined {
  return instances.get(locale);
}

/** A stand-in without messages (texts show as keys), for a page whose messages failed to load. */
export function emptyI18n(locale: Locale): Translator {
  let instance = empties.get(locale);
  if (!instance) empties.set(locale, (instance = createTranslator(locale, {})));
  return instance;
}

/**
 * Where a locale's messages are. The build id (on <html data-build>) is part of the address, so
 * the day-long browser cache never serves the texts of an older release.
 */
export function messagesUrl(locale: Locale, build: string | undefined = browserBuild()): string {
  return `/${locale}/messages.json${build ? `?v=${encodeURIComponent(build)}` : ''}`;
}

function browserBuild(): string | undefined {
  return typeof document === 'undefined' ? undefined : document.documentElement.dataset.build;
}

/**
 * Makes sure a locale's messages are here, fetching /{locale}/messages.json when they are not.
 * A failure warns "Failed loading locale" and resolves false: the caller keeps the current locale.
 */
export function loadLocaleMessages(locale: Locale, fetcher: typeof fetch = (...args) => globalThis.fetch(...args)): Promise<boolean> {
  if (instances.has(locale)) return Promise.resolve(true);
  let pending = loading.get(locale);
  if (!pending) {
    // Same mode and credentials as the page's <link rel="preload" as="fetch" crossorigin>, which it reuses.
    pending = fetcher(messagesUrl(locale))
      .then(async (response) => {
        if (!response.ok) throw new Error(`HTTP ${response.status}`);
        i18nFor(locale, (await response.json()) as Messages);
        return true;
      })
      .catch((error: unknown) => {
        console.warn('Failed loading locale', locale, error);
        return false;
      })
      .finally(() => loading.delete(locale));
    loading.set(locale, pending);
  }
  return pending;
}
