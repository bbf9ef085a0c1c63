import type { BrowserContext, Page } from '@playwright/test';

/** What browser journeys of every feature do with a page's session and what the page sends. */

/** Gives the browser a session: the token cookie the session store and the server read. */
export async function useSession(context: BrowserContext, baseURL: string, token: string): Promise<void> {
  await context.addCookies([{ name: 'token', value: encodeURIComponent(token), url: baseURL, sameSite: 'Strict', secure: true }]);
}

/** The browser's current token (decoded), or null. */
export async function browserToken(context: BrowserContext): Promise<string | null> {
  const cookie = (await context.cookies()).find((c) => c.name === 'token');
  return cookie?.value ? decodeURIComponent(cookie.value) : null;
}

/** Counts the page's calls to the API by "METHOD /path/" from now on. */
export function countApiCalls(page: Page): (key: string) => number {
  const seen: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith('/serve/api/')) seen.push(`${request.method()} ${url.pathname.slice('/serve/api'.length)}`);
  });
  return (key) => seen.filter((s) => s === key).length;
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
