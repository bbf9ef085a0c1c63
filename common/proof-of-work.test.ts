import { sha256 } from '@noble/hashes/sha2.js';
import { describe, expect, it } from 'vitest';
import { solve, solves } from './proof-of-work.ts';

/** The first nonce, in the order `solve` tries them, that `solves` accepts: one full hash per try. */
function firstSolution(challenge: string, difficulty: number): string {
  for (let n = 0; ; n++) if (solves(challenge, n.toString(36), difficulty)) return n.toString(36);
}

describe('proof of work', () => {
  it('finds the same nonce as hashing each try whole, for challenges shorter and longer than a hash block', async () => {
    for (const challenge of [
      'v1.short',
      `v1.1790000000000.15.${'0123456789abcdef'.repeat(2)}.${'A'.repeat(43)}`,
      'x'.repeat(63),
      'y'.repeat(64),
      'z'.repeat(130),
    ]) {
      for (const difficulty of [4, 9, 12]) {
        const nonce = await solve(challenge, difficulty);
        expect(nonce).toBe(firstSolution(challenge, difficulty));
        expect(solves(challenge, nonce, difficulty)).toBe(true);
      }
    }
  });

  it('answers with a nonce whose hash has the leading zero bits asked for, also across slices', async () => {
    const challenge = 'v1.across-slices';
    let pauses = 0;
    const nonce = await solve(challenge, 10, async () => void pauses++, 16);
    const hash = sha256(new TextEncoder().encode(`${challenge}:${nonce}`));
    expect(hash[0]).toBe(0);
    expect(hash[1]! >> 6).toBe(0);
    expect(pauses).toBe(Math.floor(Number.parseInt(nonce, 36) / 16));
  });
});
