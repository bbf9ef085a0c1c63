import { describe, expect, it } from 'vitest';
import { createMetrics } from './metrics.ts';
import { PageCache } from './page-cache.ts';
import { parseMetrics } from '../testing/metrics-text.ts';

describe('createMetrics', () => {
  it('reads each outbox once per scrape, and keeps a failing one out', async () => {
    let reads = 0;
    const metrics = createMetrics({
      outboxes: {
        webhooks: async () => {
          reads += 1;
          return { depth: 3, oldestAgeSeconds: 42 };
        },
        mail: () => Promise.reject(new Error('database away')),
      },
      pingDatabase: () => Promise.reject(new Error('database away')),
    });
    const samples = parseMetrics(await metrics.registry.metrics());
    expect(reads).toBe(1);
    expect(samples.filter((s) => s.name.startsWith('outbox_')).map((s) => [s.name, s.labels.outbox, s.value])).toEqual([
      ['outbox_depth', 'webhooks', 3],
      ['outbox_oldest_age_seconds', 'webhooks', 42],
    ]);
    expect(samples.find((s) => s.name === 'database_up')?.value).toBe(0);
    await metrics.registry.metrics();
    expect(reads).toBe(2);
  });

  it("counts the page cache's hits and misses", async () => {
    const lookups = { hits: 0, misses: 0 };
    const metrics = createMetrics({
      outboxes: { webhooks: async () => ({ depth: 0, oldestAgeSeconds: 0 }), mail: async () => ({ depth: 0, oldestAgeSeconds: 0 }) },
      pingDatabase: async () => undefined,
      pageCache: () => lookups,
    });
    const cache = new PageCache(60);
    cache.get('/');
    cache.set('/', { status: 200, headers: [], body: 'page', nonce: 'n' });
    cache.get('/');
    cache.get('/');
    Object.assign(lookups, cache.lookups);
    const samples = parseMetrics(await metrics.registry.metrics()).filter((s) => s.name === 'page_cache_lookups_total');
    expect(samples.map((s) => [s.labels.result, s.value])).toEqual([
      ['hit', 2],
      ['miss', 1],
    ]);
  });

  it('labels a request no route matched `unmatched` and an unusual method `OTHER`', async () => {
    const metrics = createMetrics({
      outboxes: { webhooks: async () => ({ depth: 0, oldestAgeSeconds: 0 }), mail: async () => ({ depth: 0, oldestAgeSeconds: 0 }) },
      pingDatabase: async () => undefined,
    });
    metrics.observe({ server: 'games', method: 'BREW', route: undefined, status: 404, seconds: 0.001 });
    const sample = parseMetrics(await metrics.registry.metrics()).find((s) => s.name === 'http_requests_total');
    expect(sample).toEqual({ name: 'http_requests_total', labels: { server: 'games', method: 'OTHER', route: 'unmatched', status: '404' }, value: 1 });
  });
});
