import { newGuest } from '../../support/accounts.ts';
import type { APIRequestContext, BrowserContext, Page } from '@playwright/test';

/** What the API answers in `data` for a GET, in a locale. */
export async function apiData<T = any>(request: APIRequestContext, path: string, locale = 'en'): Promise<T> {
  const response = await request.get(`/serve/api${path}`, { headers: { locale } });
  if (!response.ok()) throw new Error(`GET ${path}: ${response.status()}`);
  return (await response.json()).data as T;
}

/** A fresh guest account through the API, as a browser makes it, and its bearer token. */
export async function guestToken(request: APIRequestContext): Promise<string> {
  return (await newGuest(request)).token;
}

/** Gives the browser the session of `token`: the token cookie the session store reads (spec section 9). */
export async function useToken(context: BrowserContext, baseURL: string, token: string): Promise<void> {
  await context.addCookies([{ name: 'token', value: encodeURIComponent(token), url: baseURL, sameSite: 'Strict' }]);
}

/** Records the page's tracking events (`playport:track`) from its first script on. */
export async function recordTracking(page: Page): Promise<() => Promise<Array<{ event: string; data: Record<string, unknown> }>>> {
  await page.addInitScript(() => {
    const seen: unknown[] = [];
    (window as unknown as { __tracked: unknown[] }).__tracked = seen;
    window.addEventListener('playport:track', (event) => seen.push((event as CustomEvent).detail));
  });
  return () => page.evaluate(() => (window as unknown as { __tracked: Array<{ event: string; data: Record<string, unknown> }> }).__tracked);
}
