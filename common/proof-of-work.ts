import { sha256 } from '@noble/hashes/sha2.js';

/**
 * The small proof of work a browser does before the server creates a guest account for it
 * (decision 054): find a nonce such that SHA-256(`{challenge}:{nonce}`) starts with `difficulty`
 * zero bits. The server hands out signed challenges and checks a solution with one hash; the
 * browser needs about 2^difficulty hashes.
 */
function leadingZeroBits(hash: Uint8Array): number {
  let bits = 0;
  for (const byte of hash) {
    if (byte === 0) {
      bits += 8;
      continue;
    }
    return bits + Math.clz32(byte) - 24;
  }
  return bits;
}

const encoder = new TextEncoder();

/** Whether `nonce` solves the challenge at this difficulty. */
export function solves(challenge: string, nonce: string, difficulty: number): boolean {
  return leadingZeroBits(sha256(encoder.encode(`${challenge}:${nonce}`))) >= difficulty;
}

/**
 * Finds a nonce, a slice of `sliceSize` hashes at a time, yielding between slices (`pause`) so
 * the page stays responsive on slow phones. The same nonces in the same order as `solves` checks
 * them, but the hash of `{challenge}:` is taken once and each try only hashes on from there into
 * the same objects: about three times fewer CPU cycles, which on a phone's first visit are taken
 * from the page and the game starting next to it (decision 106).
 */
export async function solve(
  challenge: string,
  difficulty: number,
  pause: () => Promise<void> = () => new Promise((resolve) => setTimeout(resolve, 0)),
  sliceSize = 2048,
): Promise<string> {
  const prefix = sha256.create().update(encoder.encode(`${challenge}:`));
  const hasher = prefix.clone();
  const hash = new Uint8Array(32);
  const nonceBytes = new Uint8Array(16);
  for (let start = 0; ; start += sliceSize) {
    for (let n = start; n < start + sliceSize; n++) {
      const nonce = n.toString(36);
      // A nonce is base-36 digits: one byte each.
      for (let i = 0; i < nonce.length; i++) nonceBytes[i] = nonce.charCodeAt(i);
      prefix._cloneInto(hasher);
      hasher.update(nonceBytes.subarray(0, nonce.length));
      hasher.digestInto(hash);
      if (leadingZeroBits(hash) >= difficulty) return nonce;
    }
    await pause();
  }
}
