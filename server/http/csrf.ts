import { createHmac, randomBytes } from 'node:crypto';
import { safeEqual } from '../lib/random.ts';

/**
 * Signed double-submit tokens: the XSRF-TOKEN cookie holds `{random}.{hmac}`, and a
 * state-changing call must echo it in X-XSRF-TOKEN. The HMAC stops a cookie planted by
 * a sibling sub-domain from passing, since it cannot be forged without APP_SECRET.
 */
export class CsrfTokens {
  readonly #secret: string;
  constructor(secret: string) {
    this.#secret = secret;
  }

  issue(): string {
    const random = randomBytes(24).toString('base64url');
    return `${random}.${this.#sign(random)}`;
  }

  /** True when the header matches the cookie and the cookie carries our signature. */
  verify(cookie: string | undefined, header: string | undefined): boolean {
    if (!cookie || !header || cookie.length > 200) return false;
    if (!safeEqual(cookie, header)) return false;
    const [random, signature] = cookie.split('.');
    return Boolean(random && signature && safeEqual(signature, this.#sign(random)));
  }

  #sign(value: string): string {
    return createHmac('sha256', this.#secret).update(`xsrf:${value}`).digest('base64url').slice(0, 32);
  }
}
