import { describe, expect, it } from 'vitest';
import { EmailSchema, NicknameSchema, PasswordSchema, PhoneSchema, UsernameSchema } from './accounts.schema.ts';

const messages = (result: { success: boolean; error?: { issues: Array<{ message: string }> } }) => result.error?.issues.map((i) => i.message) ?? [];

describe('account field rules', () => {
  it('usernames: 3 to 20 ASCII letters, digits or underscores, trimmed', () => {
    for (const ok of ['abc', 'A_b_9', 'x'.repeat(20), '  padded  ']) expect(UsernameSchema.safeParse(ok).success, ok).toBe(true);
    expect(UsernameSchema.parse('  padded  ')).toBe('padded');
    expect(messages(UsernameSchema.safeParse('ab'))).toEqual(['accounts:username.length']);
    expect(messages(UsernameSchema.safeParse('x'.repeat(21)))).toEqual(['accounts:username.length']);
    for (const bad of ['with space', 'dash-ed', 'émile', 'пётр', 'a.b'])
      expect(messages(UsernameSchema.safeParse(bad)), bad).toContain('accounts:username.characters');
  });

  it('passwords: 8 to 128 characters, counted as a person would, never trimmed', () => {
    expect(PasswordSchema.parse(' spaced out ')).toBe(' spaced out ');
    expect(PasswordSchema.safeParse('密码密码密码密码').success).toBe(true);
    expect(messages(PasswordSchema.safeParse('1234567'))).toEqual(['accounts:password.length']);
    expect(PasswordSchema.safeParse('x'.repeat(128)).success).toBe(true);
    expect(messages(PasswordSchema.safeParse('x'.repeat(129)))).toEqual(['accounts:password.length']);
  });

  it('nicknames: trimmed, 2 to 24 letters of any script, digits, spaces and _-.', () => {
    for (const ok of ['Li', '玩家', 'Ana María', 'Zoë_2.0-beta', 'ナルト', 'हिन्दी', 'x'.repeat(24)])
      expect(NicknameSchema.safeParse(ok).success, ok).toBe(true);
    expect(NicknameSchema.parse('  Star  ')).toBe('Star');
    expect(NicknameSchema.parse('Zoe\u0308')).toBe('Zoë');
    for (const short of ['a', '  a  ', '', '   ']) expect(messages(NicknameSchema.safeParse(short)), short).toEqual(['accounts:nickname.length']);
    expect(messages(NicknameSchema.safeParse('x'.repeat(25)))).toEqual(['accounts:nickname.length']);
    for (const bad of ['a<b', 'line\nbreak', 'nul\u0000x', 'rtl\u202Eabc', 'emoji🎮', 'semi;colon', 'at@sign']) {
      expect(messages(NicknameSchema.safeParse(bad)), bad).toContain('accounts:nickname.characters');
    }
  });

  it('email: a valid address or empty (removes it)', () => {
    expect(EmailSchema.parse(' me@example.com ')).toBe('me@example.com');
    expect(EmailSchema.parse('')).toBeNull();
    for (const bad of ['me', 'me@', '@example.com', 'me@example', 'a b@example.com'])
      expect(messages(EmailSchema.safeParse(bad)), bad).toEqual(['accounts:email.invalid']);
  });

  it('phone: + and 7 to 15 digits, separators dropped, or empty (removes it)', () => {
    expect(PhoneSchema.parse('+1 (415) 555-0100')).toBe('+14155550100');
    expect(PhoneSchema.parse('+86 138.0013.8000')).toBe('+8613800138000');
    expect(PhoneSchema.parse('  ')).toBeNull();
    for (const bad of ['4155550100', '+123456', '+0123456789', '+1234567890123456', '+44 20 ABC'])
      expect(messages(PhoneSchema.safeParse(bad)), bad).toEqual(['accounts:phone.invalid']);
  });
});
