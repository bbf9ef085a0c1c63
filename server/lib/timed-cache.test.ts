import { describe, expect, it } from 'vitest';
import { TimedCache } from './timed-cache.ts';

const setup = (maxEntries?: number) => {
  let now = 1_000_000;
  const cache = new TimedCache<string, number>({ ttlMs: 1000, clock: { now: () => new Date(now) }, ...(maxEntries ? { maxEntries } : {}) });
  let loads = 0;
  const load = (value: number) => async () => {
    loads += 1;
    await new Promise((resolve) => setTimeout(resolve, 0));
    return value;
  };
  return { cache, load, loads: () => loads, advance: (ms: number) => (now += ms) };
};

describe('TimedCache', () => {
  it('loads once for concurrent callers and keeps the value for its time', async () => {
    const { cache, load, loads, advance } = setup();
    expect(await Promise.all([cache.get('a', load(1)), cache.get('a', load(2)), cache.get('a', load(3))])).toEqual([1, 1, 1]);
    advance(999);
    expect(await cache.get('a', load(4))).toBe(1);
    advance(1);
    expect(await cache.get('a', load(5))).toBe(5);
    expect(loads()).toBe(2);
  });

  it('does not keep a failed load, forgets everything on clear, and holds at most maxEntries keys', async () => {
    const { cache, load, loads } = setup(2);
    await expect(cache.get('x', async () => Promise.reject(new Error('database down')))).rejects.toThrow('database down');
    expect(await cache.get('x', load(1))).toBe(1);
    cache.clear();
    expect(await cache.get('x', load(2))).toBe(2);
    await cache.get('y', load(3));
    await cache.get('z', load(4));
    // x was the oldest and made room for z.
    expect(await cache.get('x', load(5))).toBe(5);
    expect(loads()).toBe(5);
  });
});
