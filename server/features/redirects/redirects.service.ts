import type { Clock } from '#server/lib/clock.ts';
import { DERIVED_DATA_TTL_MS, TimedCache } from '#server/lib/timed-cache.ts';
import type { RedirectRow, RedirectsRepository } from './redirects.repository.ts';

/** A redirect found for a path: where to and with which status. */
export interface Redirect {
  destination: string;
  status: number;
}

/** What the service reads: the whole table (a repository, or a fake in a unit test). */
export type RedirectsSource = Pick<RedirectsRepository, 'all'>;

/**
 * Looks paths up in the redirects table. The table is small and read on every page request,
 * so the whole of it is held in memory (decision 059); a change made through another process
 * shows within the cache time.
 */
export class RedirectsService {
  readonly #repository: RedirectsSource;
  readonly #table: TimedCache<'table', Map<string, Redirect>>;

  constructor(repository: RedirectsSource, clock: Clock) {
    this.#repository = repository;
    this.#table = new TimedCache({ ttlMs: DERIVED_DATA_TTL_MS, clock, maxEntries: 1 });
  }

  /** The redirect for a path (trailing slash ignored), or null. */
  async find(path: string): Promise<Redirect | null> {
    const table = await this.#table.get('table', async () => toTable(await this.#repository.all()));
    return table.get(normalisePath(path)) ?? null;
  }

  /** Forgets the cached table (after an import in the same process). */
  invalidate(): void {
    this.#table.clear();
  }
}

function toTable(rows: RedirectRow[]): Map<string, Redirect> {
  return new Map(rows.map((row) => [normalisePath(row.path), { destination: row.destination, status: row.status }]));
}

/** "/a/b/" and "/a/b" are the same path; "/" stays "/". */
function normalisePath(path: string): string {
  return path.length > 1 && path.endsWith('/') ? path.replace(/\/+$/, '') || '/' : path;
}
