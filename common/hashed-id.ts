import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';

/** An identifier as it may leave the browser (decision 065): trimmed, lower-cased, SHA-256, lowercase hex. */
export function hashedId(value: string | number): string {
  return bytesToHex(sha256(new TextEncoder().encode(String(value).trim().toLowerCase())));
}
