import type { Locale } from './locales.ts';

/**
 * A mainland China mobile number as people write it at home: 11 digits, 1 then 3 to 9, maybe
 * after 86 or 0086 without the plus.
 */
const CHINA_MOBILE = /^(?:0086|86)?(1[3-9]\d{9})$/;

/**
 * The phone number a visitor typed, in the international form the API takes (decision 117): on a
 * Chinese page a mainland mobile number without its country code gets +86. Anything else is left
 * as typed for the API's own rule (+ and the country code): in English 1 310 555 0123 is as
 * likely an American number, so nothing is guessed there.
 */
export function internationalPhone(typed: string, locale: Locale): string {
  if (locale !== 'zh-CN') return typed;
  const mobile = CHINA_MOBILE.exec(typed.replace(/[\s().-]/g, ''));
  return mobile ? `+86${mobile[1]}` : typed;
}
