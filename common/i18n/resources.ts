import enCommon from './locales/en/common.json' with { type: 'json' };
import enErrors from './locales/en/errors.json' with { type: 'json' };
import zhCommon from './locales/zh-CN/common.json' with { type: 'json' };
import zhErrors from './locales/zh-CN/errors.json' with { type: 'json' };
import type { Locale } from '../locales.ts';

/**
 * Every message namespace, per locale. en and zh-CN must have the same keys
 * (a unit test compares them). Add a namespace to both locales in one change.
 */
export const MESSAGES = {
  en: { common: enCommon, errors: enErrors },
  'zh-CN': { common: zhCommon, errors: zhErrors },
} satisfies Record<Locale, Record<string, unknown>>;

export type Messages = (typeof MESSAGES)['en'];
export const NAMESPACES = Object.keys(MESSAGES.en) as Array<keyof Messages>;
