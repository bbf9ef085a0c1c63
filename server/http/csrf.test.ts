import { describe, expect, it } from 'vitest';
import { CsrfTokens } from './csrf.ts';

describe('CsrfTokens', () => {
  const tokens = new CsrfTokens('s'.repeat(40));

  it('accepts a token echoed in the header', () => {
    const token = tokens.issue();
    expect(tokens.verify(token, token)).toBe(true);
  });

  it('rejects a missing or different header', () => {
    const token = tokens.issue();
    expect(tokens.verify(token, undefined)).toBe(false);
    expect(tokens.verify(token, tokens.issue())).toBe(false);
  });

  it('rejects a cookie it did not sign, even when the header matches', () => {
    const forged = 'abc.def';
    expect(tokens.verify(forged, forged)).toBe(false);
    const other = new CsrfTokens('o'.repeat(40)).issue();
    expect(tokens.verify(other, other)).toBe(false);
  });
});
