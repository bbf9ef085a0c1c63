import { createContext, type ReactNode, useContext } from 'react';
import type { Translate, Translator } from '#common/i18n/translator.ts';

const TranslatorContext = createContext<Translator | null>(null);

/** Gives the page's components the translator of its locale; a new locale is a new translator. */
export function TranslationProvider({ translator, children }: { translator: Translator; children: ReactNode }) {
  return <TranslatorContext value={translator}>{children}</TranslatorContext>;
}

/** The translate function of a namespace (keys may still name another, `errors:generic`). */
export function useTranslation(namespace?: string): { t: Translate } {
  const translator = useContext(TranslatorContext);
  if (!translator) throw new Error('useTranslation needs a TranslationProvider above it');
  return { t: translator.namespace(namespace) };
}
