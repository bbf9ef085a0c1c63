import { expect } from '@playwright/test';
import { catalogueSamples, httpTest as test, TEXT } from '../support/site.ts';

const GAME_SANDBOX = 'sandbox allow-scripts allow-pointer-lock';

test.describe('server routes and headers', () => {
  test('pages carry a nonce CSP and the security headers; every script carries the nonce', async ({ request }) => {
    const response = await request.get('/');
    const headers = response.headers();
    const csp = headers['content-security-policy']!;
    const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
    expect(nonce).toBeTruthy();
    expect(csp).toContain("frame-ancestors 'self'");
    expect(csp).not.toContain("'unsafe-inline' 'nonce");
    expect(csp).toMatch(/script-src 'self' 'nonce-[^']+' 'strict-dynamic'/);
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(headers['x-request-id']).toMatch(/^[\w-]+$/);
    const html = await response.text();
    const scripts = html.match(/<script[^>]*>/g) ?? [];
    expect(scripts.length).toBeGreaterThan(0);
    for (const tag of scripts) expect(tag).toContain(`nonce="${nonce}"`);
    // A fresh nonce per response.
    const again = (await request.get('/')).headers()['content-security-policy'];
    expect(again).not.toBe(csp);
  });

  test('a page answers OPTIONS with the methods it allows and no cross-origin permission', async ({ request }) => {
    const response = await request.fetch('/article/news', {
      method: 'OPTIONS',
      headers: { origin: 'https://elsewhere.example', 'access-control-request-method': 'GET' },
    });
    expect(response.status()).toBe(204);
    expect(response.headers()['allow']).toBe('GET, HEAD, POST');
    expect(response.headers()['access-control-allow-origin']).toBeUndefined();
  });

  test('hashed assets are immutable and compressed', async ({ request }) => {
    const html = await (await request.get('/')).text();
    const asset = /\/assets\/entry\.client-[\w-]+\.js/.exec(html)?.[0];
    expect(asset).toBeTruthy();
    const response = await request.get(asset!, { headers: { 'accept-encoding': 'br, gzip' } });
    expect(response.status()).toBe(200);
    expect(response.headers()['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(response.headers()['content-encoding']).toBe('br');
    const page = await request.get('/', { headers: { 'accept-encoding': 'gzip' } });
    expect(page.headers()['content-encoding']).toBe('gzip');
  });

  test('the pages a visitor meets first load neither zod, tailwind-merge nor i18next (decisions 078, 079), and describe themselves', async ({ request }) => {
    const { app } = await catalogueSamples(request);
    for (const path of ['/', `/app/${app}`, `/play/${app}`, '/article/news/1001', '/zh-CN/article/news']) {
      const html = await (await request.get(path)).text();
      expect(html, path).toMatch(/<meta name="description" content="[^"]{20,}"/);
      const modules = [...html.matchAll(/(?:src|href)="(\/assets\/[\w.-]+\.js)"/g)].map((match) => match[1]!);
      expect(modules.length, path).toBeGreaterThan(3);
      for (const module of modules) {
        const code = await (await request.get(module)).text();
        // zod's issue codes, tailwind-merge's config and i18next's log prefixes survive minification as strings.
        expect(code, `${path}: ${module}`).not.toContain('invalid_type');
        expect(code, `${path}: ${module}`).not.toContain('conflictingClassGroups');
        expect(code, `${path}: ${module}`).not.toContain('i18next::');
      }
    }
  });

  test('locale messages, web manifest and build manifest', async ({ request }) => {
    const zh = await request.get('/zh-CN/messages.json');
    expect(zh.status()).toBe(200);
    expect(zh.headers()['cache-control']).toBe('public, max-age=86400');
    expect((await zh.json()).common.home).toBe('首页');
    expect((await request.get('/fr/messages.json')).status()).toBe(404);

    const manifest = await request.get('/api/manifest/webmanifest.json?locale=zh-CN');
    expect(manifest.headers()['content-type']).toContain('application/manifest+json');
    const body = await manifest.json();
    expect(body).toMatchObject({ name: 'Playport', lang: 'zh-CN', start_url: '/zh-CN/pwa', display: 'standalone' });
    expect(body.icons.some((icon: { sizes: string }) => icon.sizes === '512x512')).toBe(true);
    for (const icon of body.icons) expect((await request.get(icon.src)).status(), icon.src).toBe(200);
    // One app whichever language installed it; start, scope, shortcuts and screenshots in the locale.
    const en = await (await request.get('/api/manifest/webmanifest.json?locale=en')).json();
    expect({ id: body.id, scope: body.scope }).toEqual({ id: '/', scope: '/zh-CN' });
    expect({ id: en.id, scope: en.scope, start_url: en.start_url }).toEqual({ id: '/', scope: '/', start_url: '/pwa' });
    expect(body.shortcuts.map((s: { name: string; url: string }) => [s.name, s.url])).toEqual([
      ['分类', '/zh-CN/categories'],
      ['新闻', '/zh-CN/article/news'],
      ['最近玩过', '/zh-CN/user'],
    ]);
    expect(en.shortcuts.map((s: { url: string }) => s.url)).toEqual(['/categories', '/article/news', '/user']);
    for (const manifestOf of [body, en]) {
      expect(manifestOf.screenshots.map((s: { form_factor: string; sizes: string }) => [s.form_factor, s.sizes])).toEqual([
        ['wide', '1280x800'],
        ['narrow', '390x844'],
      ]);
      for (const shot of manifestOf.screenshots) {
        const image = await request.get(shot.src);
        expect(image.status(), shot.src).toBe(200);
        expect(image.headers()['content-type']).toBe('image/jpeg');
      }
    }

    const build = await request.get(`/builds/latest.json?t=${Date.now()}`);
    expect(build.headers()['cache-control']).toBe('no-cache');
    expect((await build.json()).id).toMatch(/^\w+$/);
  });

  test('the game token keys are a plain key set at the well-known address and in the API, the same', async ({ request }) => {
    const wellKnown = await request.get('/.well-known/jwks.json');
    expect(wellKnown.status()).toBe(200);
    expect(wellKnown.headers()['content-type']).toMatch(/^application\/jwk-set\+json/);
    expect(wellKnown.headers()['cache-control']).toBe('public, max-age=3600');
    const keys = (await wellKnown.json()) as { keys: Array<Record<string, string>> };
    expect(keys.keys[0]).toMatchObject({ kty: 'OKP', crv: 'Ed25519', alg: 'EdDSA', use: 'sig' });
    expect(keys.keys[0]!.d).toBeUndefined();
    expect(await (await request.get('/serve/api/game/jwks.json')).json()).toEqual(keys);
  });

  test('the page CSP lets the play page frame games from their own hosts below the games origin, and the QA page previews below the previews origin', async ({
    request,
  }) => {
    const csp = (await request.get('/')).headers()['content-security-policy']!;
    expect(csp).toMatch(/frame-src 'self' http:\/\/\*\.games\.localhost:\d+ http:\/\/\*\.previews\.localhost:\d+/);
  });

  test('health and readiness', async ({ request }) => {
    expect(await (await request.get('/healthz')).json()).toEqual({ status: 'ok' });
    const ready = await request.get('/readyz');
    expect(ready.status()).toBe(200);
    expect((await ready.json()).status).toBe('ready');
  });

  test('the API answers in its envelope through the portal, and the OpenAPI document is served', async ({ request }) => {
    const list = await request.get('/serve/api/app/list/?limit=3&locale=zh-CN');
    const body = await list.json();
    expect(body.code).toBe(200);
    expect(body.data.items).toHaveLength(3);
    const missing = await request.get('/serve/api/does-not-exist');
    expect(missing.status()).toBe(404);
    expect((await missing.json()).code).toBe(404);
    const doc = await (await request.get('/serve/api/openapi.json')).json();
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/app/list/', '/csrf', '/session/check']));
  });

  test('shared pages are cached briefly with a fresh nonce, for visitors with and without a session; personal pages and unknown queries are not', async ({
    request,
  }) => {
    const url = '/terms';
    const first = await request.get(url);
    expect(['miss', 'hit']).toContain(first.headers()['x-page-cache']);
    const second = await request.get(url);
    expect(second.headers()['x-page-cache']).toBe('hit');
    const nonce = /'nonce-([^']+)'/.exec(second.headers()['content-security-policy']!)![1]!;
    const firstNonce = /'nonce-([^']+)'/.exec(first.headers()['content-security-policy']!)![1]!;
    expect(nonce).not.toBe(firstNonce);
    const html = await second.text();
    expect(html).toContain(`nonce="${nonce}"`);
    expect(html).not.toContain(firstNonce);
    // A session gets the same shared page, from its own entry (the page says a token cookie was seen), and no name in it (decision 066).
    const session = { cookie: 'token=1%7Cabc' };
    expect(['miss', 'hit']).toContain((await request.get(url, { headers: session })).headers()['x-page-cache']);
    expect((await request.get(url, { headers: session })).headers()['x-page-cache']).toBe('hit');
    for (const personal of ['/user', '/zh-CN/user/profile', '/login']) {
      expect((await request.get(personal, { headers: session })).headers()['x-page-cache'], personal).toBeUndefined();
      expect((await request.get(personal)).headers()['x-page-cache'], personal).toBeUndefined();
    }
    // Made-up query strings are rendered fresh and never fill the cache.
    for (const probe of [`${url}?probe=${Date.now()}`, `${url}?probe=${Date.now()}`]) {
      expect((await request.get(probe)).headers()['x-page-cache'], probe).toBeUndefined();
    }
    const sorted = await request.get('/categories?type=game&sort=newest');
    const reordered = await request.get('/categories?sort=newest&type=game');
    expect(reordered.headers()['x-page-cache']).toBe('hit');
    expect(await reordered.text()).toContain(/'nonce-([^']+)'/.exec(reordered.headers()['content-security-policy']!)![1]!);
    expect(sorted.status()).toBe(200);
  });

  test('games are served with their own strict policy', async ({ request }) => {
    const game = await request.get('/games/snake/index.html');
    expect(game.status()).toBe(200);
    expect(game.headers()['content-security-policy']).toContain("connect-src 'none'");
  });

  test('messages are served per locale, cached for a day', async ({ request }) => {
    const zh = await request.get('/zh-CN/messages.json');
    expect(zh.headers()['cache-control']).toBe('public, max-age=86400');
    expect((await zh.json()).shell.notFound.title).toBe(TEXT['zh-CN'].notFound);
    expect((await (await request.get('/en/messages.json')).json()).shell.notFound.title).toBe(TEXT.en.notFound);
  });

  test('every response under /games/ carries the sandbox policy', async ({ request }) => {
    for (const path of ['/games/snake/', '/games/snake/index.html', '/games/snake/thumbnail.svg', '/games/2048/index.html', '/games/no-such-game/x.html']) {
      const response = await request.get(path);
      expect(response.headers()['content-security-policy'], path).toContain(GAME_SANDBOX);
    }
  });
});
