import type { APIRequestContext, BrowserContext, Page } from '@playwright/test';
import { ACTION_DEBOUNCE_MS } from '../../../app/features/accounts/use-pending-action.ts';
import { type Account, call } from '../../support/accounts.ts';

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

/**
 * Waits until the page's session has settled on an account the server accepts (optionally not
 * `unlike`, a token being replaced) and answers it as the server sees it.
 */
export async function settledUser(page: Page, request: APIRequestContext, unlike?: string): Promise<Account> {
  const context = page.context();
  for (let i = 0; i < 100; i++) {
    const token = await browserToken(context);
    if (token && token !== unlike) {
      const { status, data } = await call<Account>(request, 'GET', '/member/info/', { token });
      if (status === 200) return data;
    }
    await page.waitForTimeout(100);
  }
  throw new Error('the page never settled on a session');
}

/**
 * Lets the 500 ms button debounce (spec section 4) pass before pressing again, as a person
 * retyping a field would: a press sooner after the last one is ignored by design.
 */
export async function afterDebounce(page: Page): Promise<void> {
  await page.waitForTimeout(ACTION_DEBOUNCE_MS);
}
