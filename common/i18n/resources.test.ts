import { describe, expect, it } from 'vitest';
import { MESSAGES } from './resources.ts';

function keys(value: unknown, prefix = ''): string[] {
  if (typeof value !== 'object' || value === null) return [prefix];
  return Object.entries(value).flatMap(([k, v]) => keys(v, prefix ? `${prefix}.${k}` : k));
}

const vars = (s: string) => (s.match(/{{\s*\w+\s*}}/g) ?? []).sort();

describe('message files', () => {
  it('have the same keys in en and zh-CN', () => {
    expect(keys(MESSAGES['zh-CN']).sort()).toEqual(keys(MESSAGES.en).sort());
  });

  it('have no empty texts and keep interpolation variables', () => {
    const en = Object.fromEntries(keys(MESSAGES.en).map((k) => [k, k.split('.').reduce<any>((o, p) => o[p], MESSAGES.en)]));
    const zh = Object.fromEntries(keys(MESSAGES['zh-CN']).map((k) => [k, k.split('.').reduce<any>((o, p) => o[p], MESSAGES['zh-CN'])]));
    for (const [key, text] of Object.entries(en)) {
      expect(String(text).trim(), key).not.toBe('');
      expect(String(zh[key]).trim(), key).not.toBe('');
      expect(vars(String(zh[key])), key).toEqual(vars(String(text)));
    }
  });
});
