import type { Clock } from '#server/lib/clock.ts';
import type { RedirectRow, RedirectsRepository } from './redirects.repository.ts';

/** A redirect found for a path: where to and with which status. */
export interface Redirect {
  destination: string;
  status: number;
}

/** What the service reads: the whole table (a repository, or a fake in a unit test). */
export type RedirectsSource = Pick<RedirectsRepository, 'all'>;

/** How long the table is kept in memory: the page middleware asks on every request. */
export const REDIRECTS_CACHE_MS = 30_000;

/**
 * Looks paths up in the redirects table. The table is small and read on every page request,
 * so the whole of it is held in memory and reloaded after REDIRECTS_CACHE_MS; a change made
 * through another instance shows within that time.
 */
export class RedirectsService {
  readonly #repository: RedirectsSource;
  readonly #clock: Clock;
  #table: Map<string, Redirect> | null = null;
  #loadedAt = 0;
  #loading: Promise<Map<string, Redirect>> | null = null;

  constructor(repository: RedirectsSource, clock: Clock) {
    this.#repository = repository;
    this.#clock = clock;
  }

  /** The redirect for a path (trailing slash ignored), or null. */
  async find(path: string): Promise<Redirect | null> {
    const table = await this.#current();
    return table.get(normalisePath(path)) ?? null;
  }

  /** Forgets the cached table (after an import in the same process). */
  invalidate(): void {
    this.#table = null;
  }

  async #current(): Promise<Map<string, Redirect>> {
    const now = this.#clock.now().getTime();
    if (this.#table && now - this.#loadedAt < REDIRECTS_CACHE_MS) return this.#table;
    // Concurrent requests share one reload.
    this.#loading ??= this.#repository
      .all()
      .then((rows) => {
        this.#table = toTable(rows);
        this.#loadedAt = now;
        return this.#table;
      })
      .finally(() => {
        this.#loading = null;
      });
    return this.#loading;
  }
}

function toTable(rows: RedirectRow[]): Map<string, Redirect> {
  return new Map(rows.map((row) => [normalisePath(row.path), { destination: row.destination, status: row.status }]));
}

/** "/a/b/" and "/a/b" are the same path; "/" stays "/". */
export function normalisePath(path: string): string {
  return path.length > 1 && path.endsWith('/') ? path.replace(/\/+$/, '') || '/' : path;
}
