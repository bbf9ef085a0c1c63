import type { Clock } from './clock.ts';

/**
 * Values a service computes from data that changes only on import (column trees, counts, related
 * articles, the redirects table), kept in memory for `ttlMs`. Another process (the content
 * command, a second instance) may import at any time, so entries expire; an import in this
 * process clears them at once. Concurrent callers of a missing key share one load; a failed load
 * is not kept. At most `maxEntries` keys, the oldest dropped first.
 */
export class TimedCache<K, V> {
  readonly #entries = new Map<K, { value: Promise<V>; loadedAt: number }>();
  readonly #ttlMs: number;
  readonly #clock: Clock;
  readonly #maxEntries: number;

  constructor(options: { ttlMs: number; clock: Clock; maxEntries?: number }) {
    this.#ttlMs = options.ttlMs;
    this.#clock = options.clock;
    this.#maxEntries = options.maxEntries ?? 1000;
  }

  get(key: K, load: () => Promise<V>): Promise<V> {
    const now = this.#clock.now().getTime();
    const entry = this.#entries.get(key);
    if (entry && now - entry.loadedAt < this.#ttlMs) return entry.value;
    this.#entries.delete(key);
    if (this.#entries.size >= this.#maxEntries) this.#entries.delete(this.#entries.keys().next().value!);
    const value = load();
    this.#entries.set(key, { value, loadedAt: now });
    value.catch(() => {
      if (this.#entries.get(key)?.value === value) this.#entries.delete(key);
    });
    return value;
  }

  clear(): void {
    this.#entries.clear();
  }
}

/** How long derived data is kept: an import elsewhere shows within this time. */
export const DERIVED_DATA_TTL_MS = 30_000;
