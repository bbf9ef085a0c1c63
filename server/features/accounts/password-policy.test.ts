import { describe, expect, it } from 'vitest';
import { ZxcvbnPasswordPolicy } from './password-policy.ts';

describe('password policy', () => {
  const policy = new ZxcvbnPasswordPolicy(['Playport']);

  it.each(['password', 'password1', '12345678', 'qwertyuiop', 'iloveyou123', 'football1', 'letmein!', 'abc123abc'])(
    'refuses the common password %s',
    async (password) => {
      expect(await policy.problem(password, [])).toBe('accounts:password.common');
    },
  );

  it.each([
    ['playport2026', []],
    ['Playport!!', []],
    ['dave_4dave_4', ['dave_4']],
  ] as const)('refuses %s, made of the site name or the username', async (password, context) => {
    expect(await policy.problem(password, context)).toBe('accounts:password.personal');
  });

  it.each(['aaaaaaaaaaaa', 'abcdefgh1', 'zxcvbnm1'])('refuses the easily guessed %s', async (password) => {
    expect(await policy.problem(password, [])).not.toBeNull();
  });

  it.each(['correct horse battery', 'Tr0ub4dor&3', 'upgrade-pass-1', 'gate-keeper-1', '我的密码是长颈鹿和月亮', 'kZ8#qP2!vL'])(
    'accepts the strong %s, whatever its characters',
    async (password) => {
      expect(await policy.problem(password, ['dave_4'])).toBeNull();
    },
  );
});
