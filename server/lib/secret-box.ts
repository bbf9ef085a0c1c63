import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';

/*
 * Secrets the portal must give back (a game's backend and webhook secrets, decision 110) are kept
 * encrypted with AES-256-GCM under a key derived from APP_SECRET, never in clear in the database
 * or its backups. After a rotation of APP_SECRET, the keys of APP_SECRET_PREVIOUS still open what
 * was sealed before; what they open is reported stale, for the caller to seal it again under the
 * current key.
 */

/** `v1.{key id}.{iv}.{ciphertext and tag}`, base64url; the key id says which APP_SECRET sealed it. */
const SEALED = /^v1\.([0-9a-f]{8})\.([\w-]{16})\.([\w-]{22,})$/;

interface Key {
  id: string;
  bytes: Buffer;
}

function keyOf(appSecret: string, purpose: string): Key {
  const bytes = Buffer.from(hkdfSync('sha256', appSecret, 'playport', `secret-box:${purpose}`, 32));
  return { id: createHash('sha256').update(bytes).digest('hex').slice(0, 8), bytes };
}

/** What `open` found: the text, and whether a previous APP_SECRET's key sealed it. */
export interface Opened {
  plain: string;
  stale: boolean;
}

/** Seals and opens short secrets under APP_SECRET (and opens under APP_SECRET_PREVIOUS). */
export class SecretBox {
  readonly #current: Key;
  readonly #previous: Key[];
  readonly #purpose: string;

  constructor(appSecret: string, previousSecrets: readonly string[], purpose: string) {
    this.#purpose = purpose;
    this.#current = keyOf(appSecret, purpose);
    this.#previous = previousSecrets.map((secret) => keyOf(secret, purpose));
  }

  /** Encrypts `plain` under the current key; `context` (a row's identity) must be the same to open it. */
  seal(plain: string, context: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.#current.bytes, iv);
    cipher.setAAD(Buffer.from(`${this.#purpose}:${context}`));
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final(), cipher.getAuthTag()]);
    return `v1.${this.#current.id}.${iv.toString('base64url')}.${body.toString('base64url')}`;
  }

  /** The text sealed in `sealed` for `context`, or null when no key of ours opens it (or it was altered). */
  open(sealed: string, context: string): Opened | null {
    const match = SEALED.exec(sealed);
    if (!match) return null;
    const key = [this.#current, ...this.#previous].find((candidate) => candidate.id === match[1]);
    if (!key) return null;
    const body = Buffer.from(match[3]!, 'base64url');
    if (body.length < 16) return null;
    try {
      const decipher = createDecipheriv('aes-256-gcm', key.bytes, Buffer.from(match[2]!, 'base64url'));
      decipher.setAAD(Buffer.from(`${this.#purpose}:${context}`));
      decipher.setAuthTag(body.subarray(-16));
      const plain = Buffer.concat([decipher.update(body.subarray(0, -16)), decipher.final()]).toString('utf8');
      return { plain, stale: key !== this.#current };
    } catch {
      return null;
    }
  }
}
