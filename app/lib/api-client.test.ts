import { beforeEach, describe, expect, it } from 'vitest';
import { ApiError, type ApiClientOptions, createApiClient } from './api-client.ts';

interface Call {
  url: string;
  method: string;
  headers: Headers;
  body: unknown;
  credentials: RequestCredentials | undefined;
}

/** A fake server: answers calls in order from a script; /csrf always succeeds and sets the cookie. */
function fakeServer(script: Array<{ status: number; body?: unknown; headers?: Record<string, string> } | 'network-error'>) {
  const calls: Call[] = [];
  const state = { cookies: 'XSRF-TOKEN=tok%3D1' };
  const fetch = (async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = String(input);
    calls.push({ url, method: init.method ?? 'GET', headers: new Headers(init.headers), body: init.body, credentials: init.credentials });
    if (url.startsWith('/serve/api/csrf')) {
      state.cookies = 'XSRF-TOKEN=fresh%3D2';
      return new Response(JSON.stringify({ code: 200, message: 'OK', data: null }), { status: 200 });
    }
    const next = script.shift() ?? { status: 200, body: { code: 200, message: 'OK', data: 'default' } };
    if (next === 'network-error') throw new TypeError('Failed to fetch');
    return new Response(next.body === undefined ? null : typeof next.body === 'string' ? next.body : JSON.stringify(next.body), {
      status: next.status,
      headers: next.headers,
    });
  }) as typeof globalThis.fetch;
  return { calls, state, fetch };
}

describe('API client', () => {
  let sleeps: number[];
  let server: ReturnType<typeof fakeServer>;
  const client = (script: Parameters<typeof fakeServer>[0], extra: Partial<ApiClientOptions> = {}) => {
    server = fakeServer(script);
    return createApiClient({
      fetch: server.fetch,
      sleep: async (ms) => {
        sleeps.push(ms);
      },
      cookies: () => server.state.cookies,
      locale: () => 'zh-CN',
      token: () => null,
      genericError: () => 'Generic error text',
      ...extra,
    });
  };
  beforeEach(() => {
    sleeps = [];
  });

  it('sends credentials, JSON headers, the XSRF token, locale, bearer token and campaign tags; GET gets a locale query', async () => {
    const api = client([{ status: 200, body: { code: 200, message: 'OK', data: { items: [] } } }], {
      token: () => '12|secret',
      cookies: () => 'XSRF-TOKEN=abc%3D%3D; utm_source=news%20letter; utm_medium=email; utm_term=',
    });
    const result = await api.get('/app/list/', { query: { limit: 3, tag: undefined } });
    expect(result).toEqual({ code: 200, message: 'OK', data: { items: [] } });
    const [call] = server.calls;
    expect(call!.url).toBe('/serve/api/app/list/?limit=3&locale=zh-CN');
    expect(call!.credentials).toBe('include');
    expect(call!.headers.get('accept')).toBe('application/json');
    expect(call!.headers.get('content-type')).toBe('application/json');
    expect(call!.headers.get('x-xsrf-token')).toBe('abc==');
    expect(call!.headers.get('locale')).toBe('zh-CN');
    expect(call!.headers.get('authorization')).toBe('Bearer 12|secret');
    expect(call!.headers.get('utm-source')).toBe('news%20letter');
    expect(call!.headers.get('utm-medium')).toBe('email');
    expect(call!.headers.has('utm-term')).toBe(false);
    expect(call!.headers.has('utm-campaign')).toBe(false);
    expect(call!.body).toBeUndefined();
  });

  it("adds the page's configured headers to every call until they are taken away; a call's own header wins", async () => {
    const ok = { status: 200, body: { code: 200, message: 'OK', data: null } };
    const api = client([ok, ok, ok]);
    api.configure({ headers: () => ({ 'playport-preview': 'b7-abc' }) });
    await api.request('POST', '/game/login/7');
    await api.request('GET', '/game/config/7', { headers: { 'playport-preview': 'b8-def' } });
    api.configure({ headers: () => ({}) });
    await api.request('GET', '/game/config/7');
    expect(server.calls.map((call) => call.headers.get('playport-preview'))).toEqual(['b7-abc', 'b8-def', null]);
  });

  it('sends no Authorization header without a token, and keeps an explicit locale query', async () => {
    const api = client([{ status: 200, body: { code: 200, message: 'OK', data: null } }]);
    await api.request('GET', '/page/info/?slug=about&locale=en');
    expect(server.calls[0]!.url).toBe('/serve/api/page/info/?slug=about&locale=en');
    expect(server.calls[0]!.headers.has('authorization')).toBe(false);
  });

  it('POST, PUT and PATCH send an empty JSON body by default; DELETE sends none; no locale query', async () => {
    const api = client([]);
    await api.post('/logout/');
    await api.request('PUT', '/x');
    await api.patch('/member/nickname/', { nickname: 'Ada' });
    await api.delete('/webauthn/credential/3');
    expect(server.calls.map((c) => [c.method, c.url, c.body])).toEqual([
      ['POST', '/serve/api/logout/', '{}'],
      ['PUT', '/serve/api/x', '{}'],
      ['PATCH', '/serve/api/member/nickname/', '{"nickname":"Ada"}'],
      ['DELETE', '/serve/api/webauthn/credential/3', undefined],
    ]);
  });

  it('leaves the Content-Type of a FormData body to the browser', async () => {
    const api = client([]);
    const form = new FormData();
    form.set('avatar', new Blob(['x']), 'a.png');
    await api.post('/member/avatar/', form);
    expect(server.calls[0]!.body).toBe(form);
    expect(server.calls[0]!.headers.has('content-type')).toBe(false);
  });

  it.each([408, 425, 429, 500, 502, 503, 504])('retries %i: three attempts in all, one second apart, then fails', async (status) => {
    const failure = { status, body: { code: status, message: `failed with ${status}`, data: null } };
    const api = client([failure, failure, failure, { status: 200, body: { code: 200, message: 'OK', data: 'late' } }]);
    const error = await api.get('/app/list/').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status, message: `failed with ${status}` });
    expect(server.calls).toHaveLength(3);
    expect(sleeps).toEqual([1000, 1000]);
  });

  it('succeeds when a retry succeeds', async () => {
    const api = client([{ status: 503 }, { status: 200, body: { code: 200, message: 'OK', data: 'second' } }]);
    expect((await api.post('/member/played/', { app_id: 1 })).data).toBe('second');
    expect(server.calls).toHaveLength(2);
    expect(sleeps).toEqual([1000]);
  });

  it('takes a 409 as the final answer: one request, its message, for reads and writes alike', async () => {
    for (const method of ['GET', 'POST', 'DELETE'] as const) {
      const conflict = { status: 409, body: { code: 409, error: 'last_sign_in_method', message: 'Google is your only way to sign in.', data: null } };
      const api = client([conflict, conflict, conflict]);
      const error = (await api.request(method, '/social/unbind/google').catch((e: unknown) => e)) as ApiError;
      expect(
        server.calls.filter((c) => !c.url.includes('/csrf')),
        method,
      ).toHaveLength(1);
      expect(error).toMatchObject({ status: 409, errorCode: 'last_sign_in_method', message: 'Google is your only way to sign in.' });
    }
    expect(sleeps).toEqual([]);
  });

  it('sends a write that met a 500 only once (it may have been done), and retries a read', async () => {
    const api = client([{ status: 500 }, { status: 200, body: { code: 200, message: 'OK', data: 'again' } }]);
    await expect(api.post('/member/played/', { app_id: 1 })).rejects.toMatchObject({ status: 500 });
    expect(server.calls.filter((c) => c.method === 'POST')).toHaveLength(1);
    const reader = client([{ status: 500 }, { status: 200, body: { code: 200, message: 'OK', data: 'again' } }]);
    expect((await reader.get('/app/list/')).data).toBe('again');
    expect(server.calls).toHaveLength(2);
  });

  it('waits as long as a short Retry-After asks, and does not wait for a long one', async () => {
    const api = client([
      { status: 503, headers: { 'Retry-After': '3' } },
      { status: 200, body: { code: 200, message: 'OK', data: 'back' } },
    ]);
    expect((await api.get('/app/list/')).data).toBe('back');
    expect(sleeps).toEqual([3000]);
    sleeps = [];
    const limited = client([
      { status: 429, headers: { 'Retry-After': '357' }, body: { code: 429, message: 'Try again in 357 seconds.', data: { retryAfter: 357 } } },
    ]);
    await expect(limited.post('/username/login/', { username: 'a', password: 'b' })).rejects.toMatchObject({
      status: 429,
      message: 'Try again in 357 seconds.',
    });
    expect(server.calls.filter((c) => !c.url.includes('/csrf'))).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });

  it('does not retry other statuses', async () => {
    for (const status of [400, 401, 403, 404, 409, 410, 422]) {
      const api = client([{ status, body: { code: status, message: 'nope', data: { errors: { name: ['bad'] } } } }]);
      const error = (await api.request('GET', '/x').catch((e: unknown) => e)) as ApiError;
      expect(server.calls, String(status)).toHaveLength(1);
      expect(error.status).toBe(status);
      expect(error.data).toEqual({ errors: { name: ['bad'] } });
    }
    expect(sleeps).toEqual([]);
  });

  it('on 419 fetches a fresh CSRF cookie, then retries with the new token', async () => {
    const api = client([
      { status: 419, body: { code: 419, message: 'expired', data: null } },
      { status: 200, body: { code: 200, message: 'OK', data: 'ok' } },
    ]);
    const result = await api.post('/username/login/', { username: 'a', password: 'b' });
    expect(result.data).toBe('ok');
    expect(server.calls.map((c) => `${c.method} ${c.url}`)).toEqual([
      'POST /serve/api/username/login/',
      'GET /serve/api/csrf',
      'POST /serve/api/username/login/',
    ]);
    expect(server.calls[0]!.headers.get('x-xsrf-token')).toBe('tok=1');
    expect(server.calls[2]!.headers.get('x-xsrf-token')).toBe('fresh=2');
    expect(server.calls[1]!.credentials).toBe('include');
  });

  it('fetches the CSRF cookie before a state-changing call when there is none', async () => {
    const api = client([{ status: 200, body: { code: 200, message: 'OK', data: null } }]);
    server.state.cookies = '';
    await api.post('/logout/');
    expect(server.calls.map((c) => c.url)).toEqual(['/serve/api/csrf', '/serve/api/logout/']);
    expect(server.calls[1]!.headers.get('x-xsrf-token')).toBe('fresh=2');
  });

  it('a 419 that persists fails after three attempts with a CSRF refresh before each retry', async () => {
    const expired = { status: 419, body: { code: 419, message: 'The page has expired.', data: null } };
    const api = client([expired, expired, expired]);
    const error = await api.patch('/member/nickname/', { nickname: 'x' }).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 419, message: 'The page has expired.' });
    expect(server.calls.filter((c) => c.url === '/serve/api/csrf')).toHaveLength(2);
    expect(server.calls.filter((c) => c.url.endsWith('/nickname/'))).toHaveLength(3);
  });

  it("uses the body's code over the HTTP status, and the generic text when there is no message", async () => {
    const api = client([
      { status: 400, body: { code: 4001, error: 'made_up', message: 'Custom failure', data: null } },
      { status: 403, body: '<html>proxy page</html>' },
      { status: 404, body: { code: 404, message: '', data: null } },
    ]);
    // An `error` that is none of the portal's codes is no code at all.
    await expect(api.request('GET', '/a')).rejects.toMatchObject({ status: 4001, message: 'Custom failure', errorCode: null });
    await expect(api.request('GET', '/b')).rejects.toMatchObject({ status: 403, message: 'Generic error text', errorCode: null });
    await expect(api.request('GET', '/c')).rejects.toMatchObject({ status: 404, message: 'Generic error text' });
  });

  it('a network failure is retried like a server error, then fails with status 0 and the generic text', async () => {
    const api = client(['network-error', 'network-error', 'network-error']);
    const error = await api.request('GET', '/x').catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'ApiError', status: 0, message: 'Generic error text' });
    expect(server.calls).toHaveLength(3);
  });

  it('an aborted call is not retried', async () => {
    const controller = new AbortController();
    const api = client([], {
      fetch: (async () => {
        controller.abort();
        throw new DOMException('aborted', 'AbortError');
      }) as typeof fetch,
    });
    await expect(api.request('GET', '/x', { signal: controller.signal })).rejects.toMatchObject({ name: 'AbortError' });
    expect(sleeps).toEqual([]);
  });

  it('settled() waits for every call in flight, failed ones included, and is immediate when none is', async () => {
    const answers: Array<(response: Response) => void> = [];
    const api = client([], {
      fetch: (() => new Promise<Response>((resolve) => answers.push(resolve))) as typeof fetch,
    });
    let settled = false;
    await api.settled();
    const first = api.request('GET', '/a');
    const second = api.request('GET', '/b', { once: true }).catch(() => 'refused');
    void api.settled().then(() => {
      settled = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 0));
    answers[0]!(new Response(JSON.stringify({ code: 200, message: 'OK', data: 1 }), { status: 200 }));
    await first;
    expect(settled).toBe(false);
    answers[1]!(new Response(JSON.stringify({ code: 401, message: 'No', data: null }), { status: 401 }));
    expect(await second).toBe('refused');
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(settled).toBe(true);
  });
});
