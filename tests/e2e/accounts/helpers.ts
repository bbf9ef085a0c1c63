import { randomBytes } from 'node:crypto';
import type { APIRequestContext, BrowserContext, Page } from '@playwright/test';
import { ACTION_DEBOUNCE_MS } from '../../../app/features/accounts/use-pending-action.ts';
import { solve } from '../../../common/proof-of-work.ts';

export interface UserInfo {
  uid: number;
  nickname: string | null;
  avatar: string | null;
  social_providers: string[];
  webauthn: boolean;
  isGuest: boolean;
}

export interface Account {
  token: string;
  userInfo: UserInfo;
}

/** A username no other test (or run) uses: usernames are unique and limits count per username. */
export function uniqueUsername(prefix: string): string {
  return `${prefix}_${randomBytes(5).toString('hex')}`.slice(0, 20);
}

/** Calls the API as a browser would: the CSRF cookie first for state-changing calls, then the call. */
export async function call<T = any>(
  request: APIRequestContext,
  method: 'GET' | 'POST' | 'PATCH',
  path: string,
  options: { token?: string; body?: unknown } = {},
): Promise<{ status: number; data: T; message: string }> {
  const headers: Record<string, string> = {};
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (method !== 'GET') {
    const csrf = await request.get('/serve/api/csrf');
    const cookie = csrf.headers()['set-cookie']?.split('\n').find((c) => c.startsWith('XSRF-TOKEN='));
    if (!cookie) throw new Error('no XSRF-TOKEN cookie');
    const value = cookie.split(';')[0]!.slice('XSRF-TOKEN='.length);
    headers.cookie = `XSRF-TOKEN=${value}`;
    headers['x-xsrf-token'] = decodeURIComponent(value);
  }
  const response = await request.fetch(`/serve/api${path}`, { method, headers, data: method === 'GET' ? undefined : (options.body ?? {}) });
  const json = await response.json();
  return { status: response.status(), data: json.data as T, message: json.message as string };
}

/** A solved challenge for POST /guest/login/, as the browser makes it (decision 054). */
export async function solvedChallenge(request: APIRequestContext): Promise<{ challenge: string; nonce: string }> {
  const { data } = await call<{ challenge: string; difficulty: number }>(request, 'GET', '/guest/challenge/');
  return { challenge: data.challenge, nonce: await solve(data.challenge, data.difficulty, async () => undefined) };
}

/** A new guest account through the API. */
export async function newGuest(request: APIRequestContext): Promise<Account> {
  const { status, data } = await call<Account>(request, 'POST', '/guest/login/', { body: await solvedChallenge(request) });
  if (status !== 201) throw new Error(`guest login: ${status}`);
  return data;
}

/** A new member: a guest that chose a username and password. */
export async function newMember(request: APIRequestContext, username: string, password: string): Promise<Account> {
  const guest = await newGuest(request);
  const { status, data } = await call<Account>(request, 'PATCH', '/member/password/', { token: guest.token, body: { username, password } });
  if (status !== 200) throw new Error(`set password: ${status}`);
  return { token: data.token, userInfo: data.userInfo };
}

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
