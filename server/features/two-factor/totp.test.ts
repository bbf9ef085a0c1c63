import { describe, expect, it } from 'vitest';
import { acceptedStep, base32, fromBase32, newTotpSecret, otpauthUri, totpCode, totpStep } from './totp.ts';

// RFC 6238, appendix B: the SHA-1 secret "12345678901234567890" and its 8-digit codes.
const RFC_SECRET = base32(Buffer.from('12345678901234567890'));
const RFC_VECTORS: Array<[seconds: number, code: string]> = [
  [59, '94287082'],
  [1_111_111_109, '07081804'],
  [1_111_111_111, '14050471'],
  [1_234_567_890, '89005924'],
  [2_000_000_000, '69279037'],
  [20_000_000_000, '65353130'],
];

describe('TOTP (RFC 6238)', () => {
  it('makes the codes of the RFC’s test vectors', () => {
    for (const [seconds, code] of RFC_VECTORS) expect(totpCode(RFC_SECRET, totpStep(new Date(seconds * 1000)), 8)).toBe(code);
    // Six digits, as authenticator apps show: the last six of the eight.
    expect(totpCode(RFC_SECRET, totpStep(new Date(59_000)))).toBe('287082');
  });

  it('reads back what it writes in base32, and makes 160-bit secrets', () => {
    const bytes = Buffer.from([0, 1, 2, 250, 251, 252, 253, 254, 255, 7]);
    expect(fromBase32(base32(bytes))).toEqual(bytes);
    expect(base32(Buffer.from('foobar'))).toBe('MZXW6YTBOI');
    expect(fromBase32(newTotpSecret())).toHaveLength(20);
    expect(newTotpSecret()).not.toBe(newTotpSecret());
  });

  it('accepts a code of the step before, now and after, once, and nothing else', () => {
    const secret = newTotpSecret();
    const at = new Date('2026-11-29T10:00:10Z');
    const now = totpStep(at);
    expect(acceptedStep(secret, totpCode(secret, now), at, null)).toBe(now);
    expect(acceptedStep(secret, totpCode(secret, now - 1), at, null)).toBe(now - 1);
    expect(acceptedStep(secret, totpCode(secret, now + 1), at, null)).toBe(now + 1);
    expect(acceptedStep(secret, totpCode(secret, now - 2), at, null)).toBeNull();
    expect(acceptedStep(secret, totpCode(secret, now + 2), at, null)).toBeNull();
    // Used once: the same code, or one of an earlier step, is refused after it.
    expect(acceptedStep(secret, totpCode(secret, now), at, now)).toBeNull();
    expect(acceptedStep(secret, totpCode(secret, now - 1), at, now)).toBeNull();
    expect(acceptedStep(secret, totpCode(secret, now + 1), at, now)).toBe(now + 1);
    for (const wrong of ['', '12345', '1234567', 'abcdef', ' 123456']) expect(acceptedStep(secret, wrong, at, null)).toBeNull();
  });

  it('writes the key URI authenticator apps read', () => {
    expect(otpauthUri('Playport', 'star runner', 'JBSWY3DPEHPK3PXP')).toBe(
      'otpauth://totp/Playport%3Astar%20runner?secret=JBSWY3DPEHPK3PXP&issuer=Playport&algorithm=SHA1&digits=6&period=30',
    );
  });
});
