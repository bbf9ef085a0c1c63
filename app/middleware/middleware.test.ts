import { describe, expect, it } from 'vitest';
import { campaignCookies, campaignTags, secureCookiesFor } from './campaign-tags.ts';
import { homeRedirectLocale, isDocumentRequest } from './locale-redirect.ts';
import { findRedirect, redirectTarget } from './redirect-lookup.ts';

describe('campaign-tag capture', () => {
  it('takes the five utm parameters, URL-encoded, dropping empty ones and others', () => {
    const search = new URLSearchParams('utm_source=news letter&utm_medium=&utm_campaign=spring/2026&utm_term=%20%20&utm_content=a&b=1&utm_other=x');
    expect(campaignTags(search)).toEqual([
      ['utm_source', 'news%20letter'],
      ['utm_campaign', 'spring%2F2026'],
      ['utm_content', 'a'],
    ]);
    expect(campaignTags(new URLSearchParams('q=snake'))).toEqual([]);
  });

  it('sets cookies for 365 days, SameSite strict, Secure on https and localhost', () => {
    expect(campaignCookies(new URLSearchParams('utm_source=fb'), true)).toEqual(['utm_source=fb; Path=/; Max-Age=31536000; SameSite=Strict; Secure']);
    expect(campaignCookies(new URLSearchParams('utm_medium=cpc'), false)).toEqual(['utm_medium=cpc; Path=/; Max-Age=31536000; SameSite=Strict']);
    expect(secureCookiesFor('https://playport.example')).toBe(true);
    expect(secureCookiesFor('http://localhost:3000')).toBe(true);
    expect(secureCookiesFor('http://10.0.0.5')).toBe(false);
  });

  it('cuts very long values', () => {
    const [[, value]] = campaignTags(new URLSearchParams(`utm_source=${'x'.repeat(500)}`)) as [[string, string]];
    expect(value).toHaveLength(200);
  });
});

describe('redirect lookup', () => {
  const table = new Map([
    ['/news', { destination: '/article/news', status: 302 }],
    ['/contact', { destination: '/about#contact', status: 302 }],
    ['/zh-CN/promo', { destination: '/zh-CN/article/news', status: 301 }],
    ['/discord', { destination: 'https://discord.com/invite/x', status: 307 }],
  ]);
  const redirects = { find: async (path: string) => table.get(path) ?? null };

  it('finds the exact path, else the unprefixed one and then adds the locale prefix', async () => {
    expect(await findRedirect(redirects, '/news')).toEqual({ location: '/article/news', status: 302, document: false });
    expect(await findRedirect(redirects, '/zh-CN/news')).toEqual({ location: '/zh-CN/article/news', status: 302, document: false });
    expect(await findRedirect(redirects, '/en/news')).toEqual({ location: '/article/news', status: 302, document: false });
    expect(await findRedirect(redirects, '/zh-CN/promo')).toEqual({ location: '/zh-CN/article/news', status: 301, document: false });
    expect(await findRedirect(redirects, '/promo')).toBeNull();
    expect(await findRedirect(redirects, '/about')).toBeNull();
  });

  it('keeps a destination hash as it is; an absolute destination is a full page load', async () => {
    expect(await findRedirect(redirects, '/zh-CN/contact')).toEqual({ location: '/zh-CN/about#contact', status: 302, document: false });
    expect(await findRedirect(redirects, '/zh-CN/discord')).toEqual({ location: 'https://discord.com/invite/x', status: 307, document: true });
    expect(redirectTarget({ destination: 'HTTP://example.com', status: 302 }, 'en', true).document).toBe(true);
  });
});

describe('first-visit language', () => {
  it('a browser preferring Chinese without a cookie goes to /zh-CN and gets the cookie', () => {
    expect(homeRedirectLocale(null, 'zh-CN')).toEqual({ locale: 'zh-CN', setCookie: true });
  });

  it('the cookie decides once set: Chinese goes to /zh-CN, English stays', () => {
    expect(homeRedirectLocale('zh-CN', 'en')).toEqual({ locale: 'zh-CN', setCookie: false });
    expect(homeRedirectLocale('en', 'zh-CN')).toBeNull();
  });

  it('no cookie and no Chinese preference stays; an unknown cookie value is ignored', () => {
    expect(homeRedirectLocale(null, 'en')).toBeNull();
    expect(homeRedirectLocale(null, null)).toBeNull();
    expect(homeRedirectLocale('fr', null)).toBeNull();
  });

  it('only page loads count as a visit, not the router’s data requests', () => {
    expect(isDocumentRequest(new Request('http://x/', { headers: { 'sec-fetch-dest': 'document' } }))).toBe(true);
    expect(isDocumentRequest(new Request('http://x/', { headers: { 'sec-fetch-dest': 'empty', accept: 'text/html' } }))).toBe(false);
    expect(isDocumentRequest(new Request('http://x/', { headers: { accept: 'text/html,application/xhtml+xml' } }))).toBe(true);
    expect(isDocumentRequest(new Request('http://x/', { headers: { accept: '*/*' } }))).toBe(false);
    // A navigation the service worker passes on: its destination reads "empty", its mode still "navigate".
    expect(isDocumentRequest(new Request('http://x/', { headers: { 'sec-fetch-dest': 'empty', 'sec-fetch-mode': 'navigate', accept: 'text/html' } }))).toBe(
      true,
    );
    expect(isDocumentRequest(new Request('http://x/', { headers: { 'sec-fetch-dest': 'empty', 'sec-fetch-mode': 'cors' } }))).toBe(false);
  });
});
