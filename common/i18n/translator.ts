/**
 * Translating with the message files of common/i18n/locales: the subset of i18next's format the
 * messages use, in a few hundred bytes instead of i18next's 14 KB in every page's first load
 * (decision 079). A test holds it to i18next's output for every message of both locales.
 *
 * - `ns:key.path` picks a namespace; a key without one uses the translator's namespace.
 * - `{{name}}` takes a value from the values; a placeholder without a value stays as written.
 * - With a numeric `count`, `key_zero` (for 0), then `key_{plural category}`, then `key` itself.
 * - An array of keys gives the first that exists; a missing key gives the key without its namespace.
 */

/** The shape every message file has: nested objects of strings. */
export type MessageTree = { readonly [key: string]: string | MessageTree };

export type TranslationValues = Readonly<Record<string, unknown>>;

/** Translates a key (or the first found of several keys) with optional values. */
export type Translate = (key: string | readonly string[], values?: TranslationValues) => string;

export interface Translator {
  /** Translates in the default namespace (`common`). */
  readonly t: Translate;
  /** A translate function whose keys without a namespace are read in `namespace`; the same function every call. */
  namespace(namespace?: string): Translate;
}

const NAMESPACE_SEPARATOR = ':';
const KEY_SEPARATOR = '.';
const PLACEHOLDER = /\{\{(.+?)\}\}/g;
const DEFAULT_NAMESPACE = 'common';

function lookUp(tree: MessageTree | undefined, path: string): string | undefined {
  let node: string | MessageTree | undefined = tree;
  for (const part of path.split(KEY_SEPARATOR)) {
    if (node === undefined || typeof node === 'string') return undefined;
    node = node[part];
  }
  return typeof node === 'string' ? node : undefined;
}

function interpolate(message: string, values: TranslationValues | undefined): string {
  if (!values || !message.includes('{{')) return message;
  return message.replace(PLACEHOLDER, (placeholder, name: string) => {
    const value = values[name.trim()];
    return value === undefined || value === null ? placeholder : String(value);
  });
}

export function createTranslator(language: string, messages: Readonly<Record<string, MessageTree>>): Translator {
  let plurals: Intl.PluralRules | undefined;
  const pluralCategory = (count: number) => (plurals ??= new Intl.PluralRules(language)).select(count);

  function resolve(key: string, defaultNamespace: string, values: TranslationValues | undefined): string | undefined {
    const separator = key.indexOf(NAMESPACE_SEPARATOR);
    const tree = messages[separator > 0 ? key.slice(0, separator) : defaultNamespace];
    const path = separator > 0 ? key.slice(separator + 1) : key;
    const count = values?.count;
    if (typeof count === 'number') {
      const plural = (count === 0 ? lookUp(tree, `${path}_zero`) : undefined) ?? lookUp(tree, `${path}_${pluralCategory(count)}`);
      if (plural !== undefined) return plural;
    }
    return lookUp(tree, path);
  }

  const byNamespace = new Map<string, Translate>();
  function namespace(name: string = DEFAULT_NAMESPACE): Translate {
    let translate = byNamespace.get(name);
    if (!translate) {
      translate = (key, values) => {
        const keys: readonly string[] = typeof key === 'string' ? [key] : key;
        for (const candidate of keys) {
          const message = resolve(candidate, name, values);
          if (message !== undefined) return interpolate(message, values);
        }
        const last = keys[keys.length - 1] ?? '';
        const separator = last.indexOf(NAMESPACE_SEPARATOR);
        return separator > 0 ? last.slice(separator + 1) : last;
      };
      byNamespace.set(name, translate);
    }
    return translate;
  }

  return { t: namespace(), namespace };
}
