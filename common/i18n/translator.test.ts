import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import { LOCALE_CODES } from '../locales.ts';
import { MESSAGES } from './resources.ts';
import { createTranslator, type MessageTree } from './translator.ts';

/** Every key of a message tree, with plural variants folded into their base key. */
function keysOf(tree: MessageTree, prefix = ''): string[] {
  return Object.entries(tree).flatMap(([key, value]) =>
    typeof value === 'string' ? [`${prefix}${key.replace(/_(zero|one|two|few|many|other)$/, '')}`] : keysOf(value, `${prefix}${key}.`),
  );
}

function placeholdersOf(tree: MessageTree): string[] {
  return Object.values(tree).flatMap((value) =>
    typeof value === 'string' ? [...value.matchAll(/\{\{(.+?)\}\}/g)].map((m) => m[1]!.trim()) : placeholdersOf(value),
  );
}

function i18nextFor(locale: string) {
  const instance = i18next.createInstance();
  void instance.init({
    lng: locale,
    fallbackLng: false,
    resources: { [locale]: MESSAGES[locale as keyof typeof MESSAGES] },
    defaultNS: 'common',
    interpolation: { escapeValue: false },
    initAsync: false,
  });
  return instance;
}

describe.each(LOCALE_CODES)('the translator reads the %s messages as i18next does', (locale) => {
  const messages = MESSAGES[locale];
  const reference = i18nextFor(locale);
  const ours = createTranslator(locale, messages);
  const names = [...new Set(Object.values(messages).flatMap((tree) => placeholdersOf(tree)))].filter((name) => name !== 'count');
  const values = Object.fromEntries(names.map((name) => [name, `<${name}>`]));

  it('every message, with and without values, and every plural form', () => {
    let compared = 0;
    for (const [namespace, tree] of Object.entries(messages)) {
      const scoped = ours.namespace(namespace);
      const referenceScoped = reference.getFixedT(locale, namespace);
      for (const key of new Set(keysOf(tree))) {
        for (const given of [undefined, values, ...[0, 1, 2, 5, 21].map((count) => ({ ...values, count }))]) {
          expect(ours.t(`${namespace}:${key}`, given), `${namespace}:${key} ${JSON.stringify(given)}`).toBe(reference.t(`${namespace}:${key}`, given as never));
          expect(scoped(key, given)).toBe(referenceScoped(key, given as never));
          compared += 1;
        }
      }
    }
    expect(compared).toBeGreaterThan(1000);
  });

  it('missing keys, arrays of keys, other namespaces and values that are not strings', () => {
    const cases: Array<[string | string[], Record<string, unknown>?]> = [
      ['shell:no.such.key'],
      ['no-such-key'],
      [['shell:no.such.key', 'shell:notFound.title']],
      [['shell:no.such.key', 'shell:neither']],
      ['shell:notFound.unmatched', { path: 42 }],
      ['shell:notFound.unmatched', {}],
      ['errors:generic'],
    ];
    for (const [key, given] of cases)
      expect(ours.namespace('accounts')(key, given), JSON.stringify(key)).toBe(reference.getFixedT(locale, 'accounts')(key, given as never));
  });

  it('one function per namespace, so hooks and effects that depend on it stay still', () => {
    expect(ours.namespace('shell')).toBe(ours.namespace('shell'));
    expect(ours.namespace()).toBe(ours.t);
  });
});
