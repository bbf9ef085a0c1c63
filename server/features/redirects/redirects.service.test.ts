import { describe, expect, it } from 'vitest';
import type { RedirectRow } from './redirects.repository.ts';
import { DERIVED_DATA_TTL_MS } from '#server/lib/timed-cache.ts';
import { RedirectsService, type RedirectsSource } from './redirects.service.ts';

/** A redirects table in memory that counts its reads; each read takes a turn of the event loop, as a query does. */
function fakeSource(rows: RedirectRow[]) {
  const source = {
    reads: 0,
    rows,
    async all() {
      source.reads += 1;
      await new Promise<void>((resolve) => setTimeout(resolve, 0));
      return source.rows;
    },
  };
  return source satisfies RedirectsSource;
}

const row = (path: string, destination: string): RedirectRow => ({ path, destination, status: 301, created_at: '2026-01-01T00:00:00.000Z' });

describe('RedirectsService (the table in memory)', () => {
  it('reads the table once for many look-ups, and again only after the cache time', async () => {
    let now = Date.parse('2026-11-24T10:00:00Z');
    const source = fakeSource([row('/old', '/new')]);
    const redirects = new RedirectsService(source, { now: () => new Date(now) });
    expect(await redirects.find('/old/')).toEqual({ destination: '/new', status: 301 });
    expect(await redirects.find('/other')).toBeNull();
    expect(source.reads).toBe(1);

    source.rows = [row('/old', '/newer')];
    now += DERIVED_DATA_TTL_MS - 1;
    expect((await redirects.find('/old'))?.destination).toBe('/new');
    now += 1;
    expect((await redirects.find('/old'))?.destination).toBe('/newer');
    expect(source.reads).toBe(2);
  });

  it('concurrent look-ups share one read; invalidate() reads again at once', async () => {
    const source = fakeSource([row('/a', '/b')]);
    const redirects = new RedirectsService(source, { now: () => new Date('2026-11-24T10:00:00Z') });
    const results = await Promise.all(Array.from({ length: 20 }, () => redirects.find('/a')));
    expect(results.every((r) => r?.destination === '/b')).toBe(true);
    expect(source.reads).toBe(1);
    redirects.invalidate();
    await redirects.find('/a');
    expect(source.reads).toBe(2);
  });
});
