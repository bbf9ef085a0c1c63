/**
 * A short-lived in-memory cache of whole pages for visitors without a session cookie
 * (first visits, crawlers, link previews). A cached page is stored with the nonce it was
 * rendered with; each hit swaps in the nonce of the new response.
 */
export interface CachedPage {
  status: number;
  headers: Array<[string, string]>;
  body: string;
  nonce: string;
  expiresAt: number;
}

export class PageCache {
  readonly #entries = new Map<string, CachedPage>();
  readonly #ttlMs: number;
  readonly #maxEntries: number;

  constructor(ttlSeconds: number, maxEntries = 500) {
    this.#ttlMs = ttlSeconds * 1000;
    this.#maxEntries = maxEntries;
  }

  get enabled(): boolean {
    return this.#ttlMs > 0;
  }

  get(key: string, now = Date.now()): CachedPage | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= now) {
      this.#entries.delete(key);
      return undefined;
    }
    return entry;
  }

  set(key: string, page: Omit<CachedPage, 'expiresAt'>, now = Date.now()): void {
    if (!this.enabled) return;
    // Maps iterate in insertion order: the first key is the oldest.
    if (this.#entries.size >= this.#maxEntries) this.#entries.delete(this.#entries.keys().next().value!);
    this.#entries.set(key, { ...page, expiresAt: now + this.#ttlMs });
  }

  /** The body with the cached nonce replaced by this response's. */
  static withNonce(page: CachedPage, nonce: string): string {
    return page.body.replaceAll(page.nonce, nonce);
  }
}
