import { describe, expect, it } from 'vitest';
import { Argon2PasswordHasher } from './password-hasher.ts';

describe('Argon2PasswordHasher', () => {
  const hasher = new Argon2PasswordHasher();

  it('makes salted argon2id hashes that verify only the right password', async () => {
    const first = await hasher.hash('correct horse battery');
    const second = await hasher.hash('correct horse battery');
    expect(first).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(first).not.toBe(second);
    expect(first).not.toContain('correct horse battery');
    expect(await hasher.verify(first, 'correct horse battery')).toBe(true);
    expect(await hasher.verify(first, 'correct horse batterY')).toBe(false);
  });

  it('answers false for a hash it cannot read', async () => {
    expect(await hasher.verify('not-a-hash', 'anything')).toBe(false);
  });
});
