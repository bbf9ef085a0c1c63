import { describe, expect, it } from 'vitest';
import { PageCache, pageCacheKey } from './page-cache.ts';

describe('PageCache', () => {
  const page = { status: 200, headers: [], body: '<script nonce="AAA">x</script><style nonce="AAA"></style>', nonce: 'AAA' };

  it('serves an entry until it expires', () => {
    const cache = new PageCache(5);
    cache.set('/', page, 1_000);
    expect(cache.get('/', 5_999)).toBeDefined();
    expect(cache.get('/', 6_000)).toBeUndefined();
  });

  it('swaps in the nonce of the new response everywhere', () => {
    const cache = new PageCache(5);
    cache.set('/', page, 0);
    expect(PageCache.withNonce(cache.get('/', 1)!, 'BBB')).toBe('<script nonce="BBB">x</script><style nonce="BBB"></style>');
  });

  it('is off with a zero TTL and drops the oldest entry when full', () => {
    const off = new PageCache(0);
    off.set('/', page);
    expect(off.get('/')).toBeUndefined();
    const small = new PageCache(5, 2);
    small.set('a', page, 0);
    small.set('b', page, 0);
    small.set('c', page, 0);
    expect(small.get('a', 1)).toBeUndefined();
    expect(small.get('c', 1)).toBeDefined();
  });
});

const key = (url: string, extra: Partial<Parameters<typeof pageCacheKey>[0]> = {}) =>
  pageCacheKey({ url, hasSession: false, preferredLocale: null, localeCookie: undefined, crawler: false, ...extra });

describe('pageCacheKey', () => {
  it('keys a page by its path, its known parameters in a fixed order, and what decides the language', () => {
    expect(key('/categories/puzzle?type=game&sort=newest')).toBe(key('/categories/puzzle?sort=newest&type=game'));
    expect(key('/about')).not.toBe(key('/about', { preferredLocale: 'zh-CN' }));
    expect(key('/about')).not.toBe(key('/about', { localeCookie: 'en' }));
    expect(key('/search?tag=puzzle')).toBe('/search?tag=puzzle|-|-|-|-');
  });

  it('keeps the pages shared by everyone for visitors with a session too, apart from those without', () => {
    expect(key('/about', { hasSession: true })).toBe('/about?|-|-|session|-');
    expect(key('/zh-CN/app/2048', { hasSession: true })).not.toBe(key('/zh-CN/app/2048'));
  });

  it("keeps crawlers' pages apart: they tell the browser to make no guest account", () => {
    expect(key('/app/2048', { crawler: true })).toBe('/app/2048?|-|-|-|crawler');
    expect(key('/app/2048', { crawler: true })).not.toBe(key('/app/2048'));
  });

  it('never keeps a personal page, with or without a session', () => {
    for (const url of ['/user', '/user/', '/user/profile/nickname', '/zh-CN/user/profile', '/login', '/zh-CN/login?mode=create', '/login/']) {
      expect(key(url), url).toBeNull();
      expect(key(url, { hasSession: true }), url).toBeNull();
    }
  });

  it('keeps nothing that random query strings could multiply', () => {
    for (const url of [
      '/about?x=1',
      '/?token=1%7Cabc',
      '/search?q=snake',
      '/article/news?cursor=eyJ2IjoxfQ',
      '/login?redirect=%2Fuser',
      '/categories?sort=random',
      '/search?type=x',
      '/search?tag=a&tag=b',
      '/search?tag=bad!',
    ]) {
      expect(key(url), url).toBeNull();
    }
  });
});
