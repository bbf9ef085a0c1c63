import { randomBytes } from 'node:crypto';
import type { APIRequestContext } from '@playwright/test';
import { solve } from '../../common/proof-of-work.ts';

/** Accounts through the API, as the browser makes them: for tests that need a session to start from. */

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
  method: 'GET' | 'POST' | 'PATCH' | 'PUT',
  path: string,
  options: { token?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<{ status: number; data: T; message: string }> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (method !== 'GET') {
    const csrf = await request.get('/serve/api/csrf');
    const setCookie = csrf.headers()['set-cookie'];
    const cookie = setCookie?.split('\n').find((c) => c.startsWith('XSRF-TOKEN='));
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
