import { AppSortSchema, AppTypeSchema, SlugSchema } from '#common/api/catalogue.schema.ts';
import { isPersonalPage } from '#common/route-rules.ts';

/**
 * A short-lived in-memory cache of whole pages. Every page but the personal ones (My area, the
 * profile pages, login) is rendered the same for everybody (decision 066), so visitors with and
 * without a session are served from it; the two are kept apart only because the page tells the
 * browser whether the server saw a token cookie. A cached page is stored with the nonce it was
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
  /** Lookups since the process started, for the hit ratio in the metrics. */
  readonly lookups = { hits: 0, misses: 0 };

  constructor(ttlSeconds: number, maxEntries = 500) {
    this.#ttlMs = ttlSeconds * 1000;
    this.#maxEntries = maxEntries;
  }

  get enabled(): boolean {
    return this.#ttlMs > 0;
  }

  get(key: string, now = Date.now()): CachedPage | undefined {
    const entry = this.#entries.get(key);
    if (entry && entry.expiresAt <= now) this.#entries.delete(key);
    if (!entry || entry.expiresAt <= now) {
      this.lookups.misses += 1;
      return undefined;
    }
    this.lookups.hits += 1;
    return entry;
  }

  set(key: string, page: Omit<CachedPage, 'expiresAt'>, now = Date.now()): void {
    if (!this.enabled) return;
    // Maps iterate in insertion order: the first key is the oldest.
    if (this.#entries.size >= this.#maxEntries) this.#entries.delete(this.#entries.keys().next().value!);
    this.#entries.set(key, { ...page, expiresAt: now + this.#ttlMs });
  }

  /** Forgets every page (content changed). */
  clear(): void {
    this.#entries.clear();
  }

  /** The body with the cached nonce replaced by this response's. */
  static withNonce(page: CachedPage, nonce: string): string {
    return page.body.replaceAll(page.nonce, nonce);
  }
}

/**
 * Query parameters a cached page may differ by, each with the values it may take. A page asked
 * with any other parameter (a search text, a cursor, a return path, a made-up one) is rendered
 * fresh and not kept: otherwise random query strings would fill the cache and push out the pages
 * everybody asks for. A tag names an existing tag or the page is a 404, which is never kept.
 */
const CACHEABLE_PARAMETERS: Record<string, (value: string) => boolean> = {
  sort: (value) => AppSortSchema.safeParse(value).success,
  type: (value) => AppTypeSchema.safeParse(value).success,
  tag: (value) => SlugSchema.safeParse(value).success,
};

/**
 * The cache key of a page, or null when the page must not be kept (a personal page, or a query
 * outside the known parameters): the path, the allowed query parameters in a fixed order, what
 * decides the language, whether the visitor has a session, and whether the server took the
 * browser for a crawler (its pages say so: crawlers get no guest account).
 */
export function pageCacheKey(request: {
  url: string;
  hasSession: boolean;
  preferredLocale: string | null;
  localeCookie: string | undefined;
  crawler: boolean;
}): string | null {
  const [path, query = ''] = request.url.split('?', 2) as [string, string?];
  if (isPersonalPage(path)) return null;
  const parameters = [...new URLSearchParams(query)];
  if (parameters.some(([name, value]) => !CACHEABLE_PARAMETERS[name]?.(value))) return null;
  if (new Set(parameters.map(([name]) => name)).size !== parameters.length) return null;
  const normalised = parameters
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([name, value]) => `${name}=${value}`)
    .join('&');
  return `${path}?${normalised}|${request.preferredLocale ?? '-'}|${request.localeCookie ?? '-'}|${request.hasSession ? 'session' : '-'}|${request.crawler ? 'crawler' : '-'}`;
}
