import { describe, expect, it } from 'vitest';
import { PhoneSchema } from './api/accounts.schema.ts';
import { internationalPhone } from './phone-numbers.ts';

describe('internationalPhone (decision 117)', () => {
  it('gives a mainland mobile number typed on a Chinese page its +86, however it is spaced', () => {
    for (const typed of ['13800138000', '138 0013 8000', '138-0013-8000', ' (138) 0013 8000 ', '8613800138000', '0086 138 0013 8000', '19912345678']) {
      const international = internationalPhone(typed, 'zh-CN');
      expect(international, typed).toMatch(/^\+861[3-9]\d{9}$/);
      expect(PhoneSchema.parse(international)).toBe(international);
    }
  });

  it('leaves everything else to the API rule: numbers with +, other lengths and prefixes, and every number on an English page', () => {
    for (const typed of ['+86 138 0013 8000', '+44 20 7946 0958', '12345678901', '2345678901', '138001380001', '']) {
      expect(internationalPhone(typed, 'zh-CN'), typed).toBe(typed);
    }
    expect(internationalPhone('13800138000', 'en')).toBe('13800138000');
    expect(internationalPhone('13105550123', 'en')).toBe('13105550123');
    expect(PhoneSchema.safeParse(internationalPhone('13800138000', 'en')).success).toBe(false);
  });
});
