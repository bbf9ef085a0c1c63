import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertUser, openTestApi, type TestApi } from './testing/test-api.ts';

describe('API conventions', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await openTestApi();
  });
  afterAll(() => api.close());

  it('wraps data in the {code, message, data} envelope', async () => {
    const response = await api.app.inject({ method: 'GET', url: '/serve/api/app/list/?limit=2' });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({ code: 200, message: 'OK' });
    expect(body.data.items).toHaveLength(2);
    expect(body.data.nextCursor).toEqual(expect.any(String));
  });

  it('answers an unknown path with 404 in the envelope, translated by the Locale header', async () => {
    const en = await api.app.inject({ method: 'GET', url: '/serve/api/nothing/here' });
    expect(en.statusCode).toBe(404);
    expect(en.json()).toEqual({ code: 404, error: 'route_not_found', message: 'No API route matches GET /serve/api/nothing/here.', data: null });
    const zh = await api.app.inject({ method: 'POST', url: '/serve/api/nothing', headers: { locale: 'zh-CN' } });
    expect(zh.json()).toMatchObject({ code: 404, message: '没有与 POST /serve/api/nothing 匹配的接口。' });
  });

  it('uses the locale query when there is no Locale header', async () => {
    const response = await api.app.inject({ method: 'GET', url: '/serve/api/app/list/?limit=0&locale=zh-CN' });
    expect(response.statusCode).toBe(422);
    expect(response.json().message).toBe('提交的数据无效。');
  });

  it('rejects bad input with 422 and field errors, never a 500', async () => {
    const cases = [
      '/serve/api/app/list/?limit=0',
      '/serve/api/app/list/?limit=abc',
      '/serve/api/app/list/?sort=random',
      '/serve/api/app/list/?type=movie',
      '/serve/api/app/list/?category=../../etc',
      '/serve/api/app/list/?cursor=not-a-cursor',
      `/serve/api/app/list/?q=${'x'.repeat(101)}`,
    ];
    for (const url of cases) {
      const response = await api.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(422);
      const body = response.json();
      expect(body.code, url).toBe(422);
      expect(body.message, url).toBe('The given data was invalid.');
      expect(Object.keys(body.data.errors).length, url).toBeGreaterThan(0);
      expect(response.body, url).not.toMatch(/at .*\.ts:\d+/);
    }
    const limit = await api.app.inject({ method: 'GET', url: '/serve/api/app/list/?limit=0' });
    expect(limit.json().data.errors).toEqual({ limit: ['Enter 1 or more: 0 is too low.'] });
  });

  it('answers 419 to a state-changing call without a matching XSRF token, and accepts it with one', async () => {
    const missing = await api.app.inject({ method: 'POST', url: '/serve/api/session/check' });
    expect(missing.statusCode).toBe(419);
    expect(missing.json()).toMatchObject({ code: 419, message: 'The page has expired. Please try again.' });
    const headers = await api.csrfHeaders();
    const wrong = await api.app.inject({ method: 'POST', url: '/serve/api/session/check', headers: { ...headers, 'x-xsrf-token': 'other' } });
    expect(wrong.statusCode).toBe(419);
    const ok = await api.app.inject({ method: 'POST', url: '/serve/api/session/check', headers });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().data).toEqual({ valid: false, uid: null });
  });

  it('sets XSRF-TOKEN readable by scripts, SameSite strict', async () => {
    const response = await api.app.inject({ method: 'GET', url: '/serve/api/csrf' });
    const cookie = response.cookies.find((c) => c.name === 'XSRF-TOKEN');
    expect(cookie).toMatchObject({ path: '/', sameSite: 'Strict', secure: true });
    expect(cookie?.httpOnly).toBeFalsy();
  });

  it('resolves the caller from a Bearer token, and not from a forged or revoked one', async () => {
    const userId = await insertUser(api.services);
    const { token, tokenId } = await api.services.tokens.issue(userId, 'test');
    expect(token).toMatch(/^\d+\|[A-Za-z0-9]{48}$/);
    expect(token.length).toBeGreaterThan(49);
    const headers = await api.csrfHeaders();
    const check = (authorization: string) =>
      api.app.inject({ method: 'POST', url: '/serve/api/session/check', headers: { ...headers, authorization: `Bearer ${authorization}` } });
    expect((await check(token)).json().data).toEqual({ valid: true, uid: userId });
    const forged = token.replace(/.$/, (c) => (c === 'a' ? 'b' : 'a'));
    expect((await check(forged)).json().data.valid).toBe(false);
    expect((await check('nonsense')).json().data.valid).toBe(false);
    // Only the hash is stored.
    const row = await api.services.database.db.selectFrom('access_tokens').selectAll().where('id', '=', tokenId).executeTakeFirstOrThrow();
    expect(row.token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(row)).not.toContain(token.split('|')[1]);
    await api.services.tokens.revoke(tokenId);
    expect((await check(token)).json().data.valid).toBe(false);
  });

  it('answers a malformed JSON body with 400 in the envelope', async () => {
    const headers = await api.csrfHeaders();
    const response = await api.app.inject({
      method: 'POST',
      url: '/serve/api/session/check',
      headers: { ...headers, 'content-type': 'application/json' },
      payload: '{"broken":',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ code: 400, error: 'bad_request', message: 'The request could not be read.', data: null });
  });

  it('reads an empty JSON body as {}', async () => {
    const headers = await api.csrfHeaders();
    const response = await api.app.inject({
      method: 'POST',
      url: '/serve/api/session/check',
      headers: { ...headers, 'content-type': 'application/json' },
      payload: '',
    });
    expect(response.statusCode).toBe(200);
  });

  it('tells a missing field from a field of the wrong type', async () => {
    const wrongType = await api.app.inject({ method: 'GET', url: '/serve/api/app/list/?limit=abc' });
    expect(wrongType.json().data.errors.limit).toEqual(['Enter a number.']);
  });

  it('serves an OpenAPI 3.1 document generated from the route schemas', async () => {
    const response = await api.app.inject({ method: 'GET', url: '/serve/api/openapi.json' });
    expect(response.statusCode).toBe(200);
    const doc = response.json();
    expect(doc.openapi).toBe('3.1.0');
    const list = doc.paths['/app/list/'].get;
    const names = list.parameters.map((p: { name: string }) => p.name);
    expect(names).toEqual(expect.arrayContaining(['type', 'category', 'tag', 'q', 'sort', 'limit', 'cursor']));
    const sort = list.parameters.find((p: { name: string }) => p.name === 'sort');
    expect(sort.schema.enum).toEqual(['popular', 'newest', 'name']);
    expect(doc.paths['/session/check'].post.responses['419']).toBeDefined();
  });
});
