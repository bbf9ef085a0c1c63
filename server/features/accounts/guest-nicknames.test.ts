import { describe, expect, it } from 'vitest';
import { NicknameSchema } from '#common/api/accounts.schema.ts';
import { LOCALES } from '#common/locales.ts';
import { guestNickname } from './guest-nicknames.ts';

describe('guestNickname', () => {
  it('always follows the nickname rules, in every locale', () => {
    for (const { code } of LOCALES) {
      for (let i = 0; i < 200; i++) {
        const nickname = guestNickname(code);
        expect(NicknameSchema.safeParse(nickname).success, nickname).toBe(true);
      }
    }
  });

  it('speaks the visitor’s language: Latin words in English, Chinese words in Chinese, then four digits', () => {
    for (let i = 0; i < 50; i++) {
      expect(guestNickname('en')).toMatch(/^[A-Z][a-z]+[A-Z][a-z]+\d{4}$/);
      expect(guestNickname('zh-CN')).toMatch(/^\p{Script=Han}{3,5}\d{4}$/u);
    }
  });

  it('varies as much in Chinese as in English', () => {
    const seen = new Set(Array.from({ length: 300 }, () => guestNickname('zh-CN').replace(/\d+$/, '')));
    // 24 adjectives × 24 animals: 300 draws find well over a hundred different word pairs.
    expect(seen.size).toBeGreaterThan(150);
  });
});
