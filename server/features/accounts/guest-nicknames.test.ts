import { describe, expect, it } from 'vitest';
import { NicknameSchema } from '#common/api/accounts.schema.ts';
import { guestNickname } from './guest-nicknames.ts';

describe('guestNickname', () => {
  it('always follows the nickname rules', () => {
    for (let i = 0; i < 200; i++) {
      const nickname = guestNickname();
      expect(NicknameSchema.safeParse(nickname).success, nickname).toBe(true);
    }
  });
});
