import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MonotonicClock } from '#server/testing/clocks.ts';
import { insertUser, openTestApi, type TestApi } from '#server/testing/test-api.ts';

/** The catalogue API over the fixture catalogue: alpha (game, featured), beta (game), gamma (app). */
describe('catalogue API', () => {
  let api: TestApi;
  const get = async (url: string, headers: Record<string, string> = {}) => {
    const response = await api.app.inject({ method: 'GET', url: `/serve/api${url}`, headers });
    return { status: response.statusCode, body: response.json() };
  };
  const slugs = async (url: string, headers: Record<string, string> = {}) => {
    const { status, body } = await get(url, headers);
    expect(status, url).toBe(200);
    return body.data.items.map((item: { slug: string }) => item.slug);
  };

  beforeAll(async () => {
    api = await openTestApi();
  });
  afterAll(() => api.close());

  describe('GET /app/list/', () => {
    it('filters by type, category, tag and featured', async () => {
      expect(await slugs('/app/list/?type=app')).toEqual(['gamma']);
      expect(await slugs('/app/list/?type=game')).toEqual(['beta', 'alpha']);
      expect(await slugs('/app/list/?category=tools')).toEqual(['gamma']);
      expect(await slugs('/app/list/?category=puzzle&type=app')).toEqual([]);
      expect(await slugs('/app/list/?tag=numbers')).toEqual(['alpha']);
      expect(await slugs('/app/list/?tag=classic')).toEqual(['beta', 'alpha']);
      expect(await slugs('/app/list/?featured=1')).toEqual(['alpha']);
    });

    it('sorts by popularity, release date or name', async () => {
      expect(await slugs('/app/list/')).toEqual(['beta', 'alpha', 'gamma']);
      expect(await slugs('/app/list/?sort=newest')).toEqual(['beta', 'alpha', 'gamma']);
      expect(await slugs('/app/list/?sort=name')).toEqual(['alpha', 'beta', 'gamma']);
    });

    it('pages with a cursor through every sort without gaps or repeats, and ends with a null cursor', async () => {
      for (const sort of ['popular', 'newest', 'name']) {
        const all = await slugs(`/app/list/?sort=${sort}`);
        const seen: string[] = [];
        let cursor: string | null = null;
        for (let page = 0; page < 5; page++) {
          const { body } = await get(`/app/list/?sort=${sort}&limit=1${cursor ? `&cursor=${cursor}` : ''}`);
          seen.push(...body.data.items.map((i: { slug: string }) => i.slug));
          cursor = body.data.nextCursor;
          if (!cursor) break;
        }
        expect(seen, sort).toEqual(all);
        expect(cursor).toBeNull();
      }
      // A page exactly as long as what is left has no next page.
      const { body } = await get('/app/list/?limit=3');
      expect(body.data.items).toHaveLength(3);
      expect(body.data.nextCursor).toBeNull();
      const first = await get('/app/list/?limit=2');
      const second = await get(`/app/list/?limit=2&cursor=${first.body.data.nextCursor}`);
      expect(second.body.data.items.map((i: { slug: string }) => i.slug)).toEqual(['gamma']);
      expect(second.body.data.nextCursor).toBeNull();
    });

    it('rejects bad parameters with 422 and never answers 500', async () => {
      const popularCursor = (await get('/app/list/?limit=1')).body.data.nextCursor;
      for (const url of [
        '/app/list/?limit=61',
        '/app/list/?limit=-1',
        '/app/list/?limit=1.5',
        '/app/list/?sort=',
        '/app/list/?type=GAME',
        '/app/list/?tag=a%20b',
        '/app/list/?category=%00',
        '/app/list/?q=',
        '/app/list/?q=%20%20',
        '/app/list/?featured=yes',
        `/app/list/?cursor=${'a'.repeat(201)}`,
        `/app/list/?cursor=${Buffer.from('{"v":1}').toString('base64url')}`,
        // A cursor of the popular order used with another order.
        `/app/list/?sort=name&cursor=${popularCursor}`,
      ]) {
        const { status, body } = await get(url);
        expect(status, url).toBe(422);
        expect(Object.keys(body.data.errors).length, url).toBeGreaterThan(0);
      }
    });

    it('answers 404 for a category or tag that does not exist', async () => {
      const category = await get('/app/list/?category=nothing');
      expect(category.status).toBe(404);
      expect(category.body.message).toBe('No category is called “nothing”.');
      const tag = await get('/app/list/?tag=nothing', { locale: 'zh-CN' });
      expect(tag.status).toBe(404);
      expect(tag.body.message).toBe('没有名为“nothing”的标签。');
    });

    it('searches titles, descriptions and tags in both locales', async () => {
      expect(await slugs('/app/list/?q=2048')).toEqual(['alpha']);
      expect(await slugs('/app/list/?q=snake')).toEqual(['beta']);
      // Words by prefix, any case.
      expect(await slugs('/app/list/?q=SNA')).toEqual(['beta']);
      expect(await slugs('/app/list/?q=longer%20description%20calc')).toEqual(['gamma']);
      // Chinese by a two-character and a one-character substring, whatever the request's locale.
      expect(await slugs(`/app/list/?q=${encodeURIComponent('贪吃')}`)).toEqual(['beta']);
      expect(await slugs(`/app/list/?q=${encodeURIComponent('尔法')}&locale=zh-CN`)).toEqual(['alpha']);
      expect(await slugs(`/app/list/?q=${encodeURIComponent('蛇')}`)).toEqual(['beta']);
      expect(await slugs(`/app/list/?q=${encodeURIComponent('阿尔法数字')}`)).toEqual(['alpha']);
      expect(await slugs(`/app/list/?q=${encodeURIComponent('数阿')}`)).toEqual([]);
      // Tag titles in both locales.
      expect(await slugs('/app/list/?q=numbers')).toEqual(['alpha']);
      expect(await slugs(`/app/list/?q=${encodeURIComponent('经典')}`)).toEqual(['beta', 'alpha']);
      // Every word must match; filters combine with the text.
      expect(await slugs('/app/list/?q=alpha%20snake')).toEqual([]);
      expect(await slugs('/app/list/?q=summary&type=app')).toEqual(['gamma']);
      expect(await slugs('/app/list/?q=summary&sort=name&limit=2')).toEqual(['alpha', 'beta']);
    });

    it('treats search syntax as plain text', async () => {
      for (const q of ['"', '*', 'NEAR(', 'snake"', "it's", '\\', '%_', 'a:*', '!', '&|', 'OR']) {
        const { status } = await get(`/app/list/?q=${encodeURIComponent(q)}`);
        expect(status, q).toBe(200);
      }
      expect(await slugs(`/app/list/?q=${encodeURIComponent('"snake"')}`)).toEqual(['beta']);
      expect(await slugs(`/app/list/?q=${encodeURIComponent('*&|!')}`)).toEqual([]);
    });

    it('serves texts in the request locale with English fallback', async () => {
      const zh = await get('/app/list/?sort=name', { locale: 'zh-CN' });
      const titles = Object.fromEntries(zh.body.data.items.map((i: { slug: string; title: string }) => [i.slug, i.title]));
      expect(titles).toEqual({ alpha: '阿尔法数字', beta: '贪吃小蛇', gamma: '计算器' });
      const en = await get('/app/list/?locale=en&type=app');
      expect(en.body.data.items[0]).toMatchObject({
        slug: 'gamma',
        title: 'Gamma Calculator',
        type: 'app',
        thumbnail: '/games/gamma/thumb.svg',
        width: 480,
        height: 640,
      });
    });
  });

  describe('GET /app/info/', () => {
    it('gives details, categories, tags and similar apps', async () => {
      const { status, body } = await get('/app/info/?slug=alpha', { locale: 'zh-CN' });
      expect(status).toBe(200);
      expect(body.data).toMatchObject({
        slug: 'alpha',
        title: '阿尔法数字',
        description: '阿尔法数字 的详细介绍。',
        categories: [{ slug: 'puzzle', title: '益智' }],
        tags: [
          { slug: 'numbers', title: '数字' },
          { slug: 'classic', title: '经典' },
        ],
        screenshots: [],
        favourite: null,
      });
      expect(body.data.similar.map((s: { slug: string }) => s.slug)).toEqual(['beta']);
    });

    it('answers 404 for an unknown slug and 422 for a malformed or missing one', async () => {
      const unknown = await get('/app/info/?slug=nope');
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual({ code: 404, error: 'not_found', message: 'No app or game is called “nope”.', data: null });
      expect((await get('/app/info/?slug=../x')).status).toBe(422);
      expect((await get('/app/info/')).status).toBe(422);
    });
  });

  it('GET /app/tag/ lists tags with counts', async () => {
    const { body } = await get('/app/tag/', { locale: 'zh-CN' });
    expect(body.data.items).toEqual([
      { slug: 'classic', title: '经典', count: 2 },
      { slug: 'numbers', title: '数字', count: 1 },
    ]);
    const apps = await get('/app/tag/?type=app');
    expect(apps.body.data.items.map((t: { count: number }) => t.count)).toEqual([0, 0]);
    expect((await get('/app/tag/?type=x')).status).toBe(422);
  });

  it('GET /app/category/ and /app/category/info/ give categories with counts, localised with fallback', async () => {
    const { body } = await get('/app/category/?locale=zh-CN');
    expect(body.data.items).toEqual([
      { slug: 'puzzle', title: '益智', description: 'Think first.', icon: 'puzzle', count: 2 },
      { slug: 'tools', title: 'Tools', description: null, icon: null, count: 1 },
    ]);
    expect((await get('/app/category/info/?slug=tools')).body.data).toMatchObject({ slug: 'tools', count: 1 });
    expect((await get('/app/category/info/?slug=none')).status).toBe(404);
    expect((await get('/app/category/info/?slug=a.b')).status).toBe(422);
  });

  it('GET /game/config/{app_id} gives what the play page needs', async () => {
    const { body: list } = await get('/app/list/?type=app');
    const id = list.data.items[0].id;
    const { status, body } = await get(`/game/config/${id}`, { locale: 'zh-CN' });
    expect(status).toBe(200);
    expect(body.data).toEqual({
      appId: id,
      slug: 'gamma',
      title: '计算器',
      type: 'app',
      // On its own host below the games origin (decision 089), keeping that origin; the copy kept
      // for offline play is on the portal's origin and runs without it.
      url: 'http://gamma.games.localhost:3001/index.html?locale=zh-CN',
      offlineCopy: { url: '/games/gamma/index.html?locale=zh-CN', sandbox: 'allow-scripts allow-pointer-lock' },
      orientation: 'any',
      width: 480,
      height: 640,
      sandbox: 'allow-scripts allow-same-origin allow-pointer-lock allow-storage-access-by-user-activation',
      allow: 'fullscreen; autoplay; gamepad',
      sdk: { channel: 'playport', locale: 'zh-CN', portalOrigin: 'http://localhost:3000', loadedMessage: 'playport:game-loaded' },
      // An app that sells nothing; items and who owns them are payments.db.test.ts's.
      items: [],
    });
    expect((await get('/game/config/999999')).status).toBe(404);
    for (const bad of ['abc', '0', '-1', '1.5', '99999999999']) expect((await get(`/game/config/${bad}`)).status, bad).toBe(422);
  });
});

describe('member library API', () => {
  let api: TestApi;
  let auth: Record<string, string>;
  let ids: Record<string, number>;

  beforeAll(async () => {
    // Every write is at least a millisecond after the last: "most recent first" needs no sleep.
    api = await openTestApi({}, { clock: new MonotonicClock() });
    const userId = await insertUser(api.services);
    const { token } = await api.services.tokens.issue(userId, 'test');
    auth = { ...(await api.csrfHeaders()), authorization: `Bearer ${token}` };
    const list = await api.app.inject({ method: 'GET', url: '/serve/api/app/list/' });
    ids = Object.fromEntries(list.json().data.items.map((i: { slug: string; id: number }) => [i.slug, i.id]));
  });
  afterAll(() => api.close());

  const call = async (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown, headers = auth) => {
    const response = await api.app.inject({ method, url: `/serve/api${url}`, headers, ...(payload === undefined ? {} : { payload: payload as object }) });
    return { status: response.statusCode, body: response.json() };
  };

  it('records plays for the caller and the game, and lists them most recent first', async () => {
    const first = await call('POST', '/member/played/', { app_id: ids.alpha });
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({ appId: ids.alpha, playCount: 1 });
    const again = await call('POST', '/member/played/', { app_id: ids.alpha });
    expect(again.body.data.playCount).toBe(2);
    expect(again.body.data.lastPlayedAt >= first.body.data.lastPlayedAt).toBe(true);
    await call('POST', '/member/played/', { app_id: ids.gamma });

    const { body } = await call('GET', '/member/played/?locale=zh-CN');
    expect(body.data.items.map((i: { slug: string; plays: number; title: string }) => [i.slug, i.plays, i.title])).toEqual([
      ['gamma', 1, '计算器'],
      ['alpha', 2, '阿尔法数字'],
    ]);
    // Paging.
    const page = await call('GET', '/member/played/?limit=1');
    expect(page.body.data.items).toHaveLength(1);
    const next = await call('GET', `/member/played/?limit=1&cursor=${page.body.data.nextCursor}`);
    expect(next.body.data.items.map((i: { slug: string }) => i.slug)).toEqual(['alpha']);
    expect(next.body.data.nextCursor).toBeNull();
    // The game's popularity grew with the plays (fixture popularity 500).
    const info = await call('GET', '/app/info/?slug=alpha');
    expect(info.body.data.playCount).toBe(502);
  });

  it("keeps each account's history to itself", async () => {
    const other = await insertUser(api.services);
    const { token } = await api.services.tokens.issue(other, 'other');
    const { body } = await call('GET', '/member/played/', undefined, { authorization: `Bearer ${token}` });
    expect(body.data.items).toEqual([]);
  });

  it('rejects plays without a token, without CSRF, for unknown apps and with bad bodies', async () => {
    const { authorization: _a, ...csrfOnly } = auth;
    expect((await call('POST', '/member/played/', { app_id: ids.alpha }, csrfOnly)).status).toBe(401);
    expect((await call('GET', '/member/played/', undefined, {})).status).toBe(401);
    expect((await call('POST', '/member/played/', { app_id: ids.alpha }, { authorization: auth.authorization! })).status).toBe(419);
    expect((await call('POST', '/member/played/', { app_id: 999_999 })).status).toBe(404);
    for (const body of [{}, { app_id: 'x' }, { app_id: 0 }, { slug: 'alpha' }]) {
      const response = await call('POST', '/member/played/', body);
      expect(response.status, JSON.stringify(body)).toBe(422);
      expect(response.body.data.errors.app_id).toBeDefined();
    }
    expect((await call('GET', '/member/played/?limit=0')).status).toBe(422);
    expect((await call('GET', `/member/played/?cursor=${Buffer.from('{"v":3,"id":1}').toString('base64url')}`)).status).toBe(422);
  });

  it('marks, lists and removes favourites; both are idempotent; app info shows the state', async () => {
    expect((await call('GET', '/app/info/?slug=beta')).body.data.favourite).toBe(false);
    expect((await call('PUT', `/member/favourite/${ids.beta}`)).body.data).toEqual({ appId: ids.beta, favourite: true });
    expect((await call('PUT', `/member/favourite/${ids.beta}`)).status).toBe(200);
    await call('PUT', `/member/favourite/${ids.gamma}`);
    expect((await call('GET', '/app/info/?slug=beta')).body.data.favourite).toBe(true);
    expect((await call('GET', `/member/favourite/${ids.beta}`)).body.data).toEqual({ appId: ids.beta, favourite: true });
    expect((await call('GET', `/member/favourite/${ids.alpha}`)).body.data).toEqual({ appId: ids.alpha, favourite: false });
    const list = await call('GET', '/member/favourite/');
    expect(list.body.data.items.map((i: { slug: string }) => i.slug)).toEqual(['gamma', 'beta']);
    expect(list.body.data.items[0].favouritedAt).toEqual(expect.any(String));

    expect((await call('DELETE', `/member/favourite/${ids.beta}`)).body.data).toEqual({ appId: ids.beta, favourite: false });
    expect((await call('DELETE', `/member/favourite/${ids.beta}`)).status).toBe(200);
    expect((await call('GET', '/member/favourite/')).body.data.items.map((i: { slug: string }) => i.slug)).toEqual(['gamma']);

    expect((await call('PUT', '/member/favourite/999999')).status).toBe(404);
    expect((await call('PUT', '/member/favourite/abc')).status).toBe(422);
    expect((await call('GET', '/member/favourite/', undefined, {})).status).toBe(401);
  });

  it('documents the member library in the OpenAPI document', async () => {
    const doc = (await api.app.inject({ method: 'GET', url: '/serve/api/openapi.json' })).json();
    expect(doc.paths['/member/favourite/{app_id}'].put.security).toEqual([{ bearer: [] }]);
    expect(doc.paths['/member/favourite/{app_id}'].delete).toBeDefined();
    expect(doc.paths['/member/favourite/'].get.responses['200']).toBeDefined();
    expect(doc.paths['/member/played/'].post.requestBody).toBeDefined();
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/app/info/', '/app/tag/', '/app/category/', '/game/config/{app_id}']));
  });
});
