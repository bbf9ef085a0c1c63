import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importArticles } from '#server/features/articles/articles.import.ts';
import { importCatalogue } from '#server/features/catalogue/catalogue.import.ts';
import { buildGamesOrigin } from '#server/features/games/games-origin.ts';
import { importPages } from '#server/features/pages/pages.import.ts';
import type { Clock } from '#server/lib/clock.ts';
import { FIXTURES, openTestApi, type TestApi } from '#server/testing/test-api.ts';
import { type TestPlayer, testPlayers } from '#server/testing/test-players.ts';

/** The `data` of an API envelope. */
function data<T = unknown>(response: LightMyRequestResponse): T {
  return (response.json() as { data: T }).data;
}

const CONTENT = resolve(import.meta.dirname, '../../../content');
const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20"><rect width="40" height="20" fill="teal"/></svg>');

function articleBody(overrides: Record<string, unknown> = {}) {
  return {
    column: 'news',
    slug: 'harbour-lights',
    cover: null,
    publishedAt: '2026-12-01T09:00:00Z',
    texts: {
      en: { title: 'Harbour lights', summary: 'A new season starts.', markdown: '## Lights\n\nThe harbour **glows**.', tags: ['season'], author: 'Mira' },
      'zh-CN': { title: '港口灯火', summary: '新赛季开始。', markdown: '## 灯火\n\n港口**亮了**。', tags: ['season'], author: null },
    },
    ...overrides,
  };
}

describe('Console: games, articles and pages (decision 099)', () => {
  const now = { value: new Date('2026-11-26T12:00:00Z') };
  const clock: Clock = { now: () => now.value };
  let api: TestApi;
  const players = testPlayers(() => api, 99);
  const roles: Record<'guest' | 'member' | 'developer' | 'operator', TestPlayer> = {} as never;
  let announcements = 0;

  beforeAll(async () => {
    api = await openTestApi({ UPLOAD_DIR: mkdtempSync(join(tmpdir(), 'playport-console-')) }, { clock });
    await importArticles(api.services.articlesImport, { folder: resolve(CONTENT, 'articles') });
    await importPages(api.services.pagesImport, resolve(CONTENT, 'pages'));
    roles.guest = await players.newGuest();
    roles.member = await players.newMember();
    roles.developer = await players.newMember();
    await api.services.developers.saveProfile(roles.developer.userInfo.uid, { studioName: 'Tidepool', contactEmail: 'dev@tidepool.test' });
    roles.operator = await players.newMember();
    await api.services.operators.grant(String(roles.operator.userInfo.uid));
    api.services.contentChanges.onChange(() => {
      announcements += 1;
    });
  });
  afterAll(async () => {
    await api.close();
  });

  const call = (method: 'GET' | 'POST' | 'PATCH' | 'PUT', path: string, token: string | undefined, body?: unknown) =>
    api.call(method, path, { token, ...(body === undefined ? {} : { body }) });
  const as = (role: keyof typeof roles) => roles[role].token;
  const upload = async (token: string | undefined, name: string, bytes: Buffer) => {
    const boundary = 'consoleboundary';
    return api.app.inject({
      method: 'POST',
      url: '/serve/api/console/articles/media',
      headers: {
        ...(await api.csrfHeaders()),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        'content-type': `multipart/form-data; boundary=${boundary}`,
      },
      payload: Buffer.concat([
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n`),
        bytes,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]),
    });
  };
  const listGames = async (query: string) =>
    data<{ items: Array<{ slug: string; studio: unknown }> }>(await call('GET', `/console/games/?${query}`, as('operator'))).items;
  const gameId = async (slug: string) => (await api.database.db.selectFrom('apps').select('id').where('slug', '=', slug).executeTakeFirstOrThrow()).id;
  const auditCount = async () => (await api.services.auditLog.page({ limit: 1000 })).entries.length;

  it('refuses every call to anyone but an operator, and changes nothing when it refuses', async () => {
    const alpha = await gameId('alpha');
    const calls: Array<[string, (token: string | undefined) => Promise<LightMyRequestResponse>]> = [
      ['list games', (t) => call('GET', '/console/games/', t)],
      ['unpublish a game', (t) => call('PATCH', `/console/games/${alpha}`, t, { published: false, reason: 'test' })],
      ['feature a game', (t) => call('PATCH', `/console/games/${alpha}`, t, { featured: false })],
      ['preview markdown', (t) => call('POST', '/console/markdown/preview', t, { markdown: '# Hi' })],
      ['list articles', (t) => call('GET', '/console/articles/', t)],
      ['create an article', (t) => call('POST', '/console/articles/', t, articleBody())],
      ['read an article', (t) => call('GET', '/console/articles/1001', t)],
      ['replace an article', (t) => call('PUT', '/console/articles/1002', t, articleBody())],
      ['list pages', (t) => call('GET', '/console/pages/', t)],
      ['read a page', (t) => call('GET', '/console/pages/about', t)],
      ['replace a page', (t) => call('PUT', '/console/pages/about', t, { texts: { en: { title: 'About', markdown: 'Changed' } } })],
      ['create a page', (t) => call('POST', '/console/pages/', t, { slug: 'refused-page', texts: { en: { title: 'Refused', markdown: 'No.' } } })],
      ['upload an image', (t) => upload(t, 'dot.svg', SVG)],
    ];
    const pageRows = () => api.database.db.selectFrom('pages').selectAll().orderBy('slug').orderBy('locale').execute();
    const before = { audit: await auditCount(), articles: await api.database.db.selectFrom('articles').select('id').execute(), pages: await pageRows() };
    for (const [name, run] of calls) {
      expect([name, (await run(undefined)).statusCode]).toEqual([name, 401]);
      for (const role of ['guest', 'member', 'developer'] as const) {
        const response = await run(as(role));
        expect([name, role, response.statusCode, response.json().error]).toEqual([name, role, 403, 'forbidden']);
      }
    }
    expect(await auditCount()).toBe(before.audit);
    expect(await api.database.db.selectFrom('articles').select('id').execute()).toEqual(before.articles);
    expect(await pageRows()).toEqual(before.pages);
    expect(await api.services.catalogue.gameConfig('en', { slug: 'alpha' })).toMatchObject({ slug: 'alpha' });

    // The operator reaches each one (the writes are undone by the tests below where they matter).
    for (const [name, run] of calls) {
      const status = (await run(as('operator'))).statusCode;
      expect([name, status >= 200 && status < 300]).toEqual([name, true]);
    }
    await call('PATCH', `/console/games/${alpha}`, as('operator'), { published: true, featured: true });
  });

  it('answers bad input with 422 and unknown targets with 404, changing nothing', async () => {
    const audit = await auditCount();
    expect((await call('PATCH', '/console/games/999999', as('operator'), { published: false })).statusCode).toBe(404);
    expect((await call('PATCH', '/console/games/abc', as('operator'), { published: false })).statusCode).toBe(422);
    expect((await call('PATCH', `/console/games/${await gameId('beta')}`, as('operator'), { reason: 'nothing asked' })).statusCode).toBe(422);
    expect((await call('PUT', '/console/articles/999999', as('operator'), articleBody())).statusCode).toBe(404);
    expect((await call('POST', '/console/articles/', as('operator'), articleBody({ publishedAt: 'tomorrow' }))).statusCode).toBe(422);
    expect((await call('POST', '/console/articles/', as('operator'), articleBody({ column: 'nosuchcolumn' }))).statusCode).toBe(422);
    expect((await call('POST', '/console/articles/', as('operator'), articleBody({ cover: 'https://evil.test/x.png' }))).statusCode).toBe(422);
    expect((await call('PUT', '/console/pages/no-such-page', as('operator'), { texts: { en: { title: 'X', markdown: 'Y' } } })).statusCode).toBe(404);
    expect((await upload(as('operator'), 'fake.png', Buffer.from('not a png'))).statusCode).toBe(422);
    expect((await upload(as('operator'), 'script.html', Buffer.from('<script>alert(1)</script>'))).statusCode).toBe(422);
    expect(await auditCount()).toBe(audit);
  });

  it('renders the preview with the site pipeline: a script does not survive', async () => {
    const response = await call('POST', '/console/markdown/preview', as('operator'), {
      markdown: '# Title\n\n<script>alert(1)</script>\n\n<img src="x" onerror="alert(2)">\n\n[link](javascript:alert(3)) **bold**',
    });
    const { html } = data<{ html: string }>(response);
    expect(html).not.toMatch(/<script|alert\(1\)|onerror|javascript:/i);
    expect(html).toContain('<strong>bold</strong>');
    expect(html).toContain('<img src="x"');
  });

  it('takes an unpublished game out of every public place at once, and brings it back', async () => {
    const alpha = await gameId('alpha');
    const catalogue = api.services.catalogue;
    // Warm every cache first, so the test proves they drop.
    const puzzleBefore = (await catalogue.categories('en')).find((c) => c.slug === 'puzzle')!.count;
    const numbersBefore = (await catalogue.tags('en')).find((t) => t.slug === 'numbers')!.count;
    expect(await catalogue.hostedGame('alpha.games.localhost')).not.toBeNull();
    expect((await catalogue.home('en')).featured.map((a) => a.slug)).toContain('alpha');
    const origin = await buildGamesOrigin({ config: api.config, catalogue, gamesDir: resolve(FIXTURES, 'games'), logger: false });
    expect((await origin.inject({ method: 'GET', url: '/index.html', headers: { host: 'alpha.games.localhost:3001' } })).statusCode).toBe(200);

    const heard = announcements;
    const audit = await auditCount();
    const response = await call('PATCH', `/console/games/${alpha}`, as('operator'), { published: false, reason: 'broken build' });
    expect(response.statusCode).toBe(200);
    expect(data(response)).toMatchObject({ slug: 'alpha', published: false });
    expect(announcements).toBe(heard + 1);
    expect((await api.services.auditLog.page({ limit: 1 })).entries[0]).toMatchObject({
      operatorUserId: roles.operator.userInfo.uid,
      action: 'game.unpublish',
      target: { type: 'game', id: String(alpha) },
      detail: { slug: 'alpha', reason: 'broken build' },
    });
    expect(await auditCount()).toBe(audit + 1);

    const slugs = async (query: string) =>
      (data<{ items: Array<{ slug: string }> }>(await call('GET', `/app/list/?${query}`, undefined)).items ?? []).map((a) => a.slug);
    expect(await slugs('limit=50')).not.toContain('alpha');
    expect(await slugs('q=alpha')).toEqual([]);
    expect(await slugs('q=2048')).not.toContain('alpha');
    expect(await slugs('category=puzzle')).not.toContain('alpha');
    expect(await slugs('tag=numbers')).not.toContain('alpha');
    expect(await slugs('featured=true')).not.toContain('alpha');
    expect((await catalogue.categories('en')).find((c) => c.slug === 'puzzle')!.count).toBe(puzzleBefore - 1);
    expect((await catalogue.tags('en')).find((t) => t.slug === 'numbers')?.count ?? 0).toBe(numbersBefore - 1);
    const home = await catalogue.home('en');
    expect([...home.featured, ...home.popular, ...home.newest].map((a) => a.slug)).not.toContain('alpha');
    expect((await call('GET', '/app/info/?slug=alpha', undefined)).statusCode).toBe(404);
    expect((await call('GET', `/game/config/${alpha}`, undefined)).statusCode).toBe(404);
    await expect(catalogue.gameConfig('en', { slug: 'alpha' })).rejects.toMatchObject({ code: 'not_found' });
    expect(await api.services.sitemap.xml('https://play.example')).not.toContain('/app/alpha');
    expect(await catalogue.hostedGame('alpha.games.localhost')).toBeNull();
    expect((await origin.inject({ method: 'GET', url: '/index.html', headers: { host: 'alpha.games.localhost:3001' } })).statusCode).toBe(404);
    // Operators still see it, and can find it among the unpublished.
    const hidden = data<{ items: Array<{ slug: string }> }>(await call('GET', '/console/games/?published=unpublished&q=ALPHA', as('operator')));
    expect(hidden.items.map((g) => g.slug)).toEqual(['alpha']);

    // The same change again changes and records nothing.
    await call('PATCH', `/console/games/${alpha}`, as('operator'), { published: false, reason: 'again' });
    expect(await auditCount()).toBe(audit + 1);

    await call('PATCH', `/console/games/${alpha}`, as('operator'), { published: true, reason: 'fixed' });
    expect(await slugs('q=alpha')).toEqual(['alpha']);
    expect(await api.services.sitemap.xml('https://play.example')).toContain('/app/alpha');
    expect((await origin.inject({ method: 'GET', url: '/index.html', headers: { host: 'alpha.games.localhost:3001' } })).statusCode).toBe(200);
    await origin.close();
  });

  it('features and unfeatures a game on the home page', async () => {
    const beta = await gameId('beta');
    const featured = async () => (await api.services.catalogue.home('en')).featured.map((a) => a.slug);
    const wasFeatured = (await featured()).includes('beta');
    await call('PATCH', `/console/games/${beta}`, as('operator'), { featured: !wasFeatured });
    expect((await featured()).includes('beta')).toBe(!wasFeatured);
    expect((await api.services.auditLog.page({ limit: 1 })).entries[0]).toMatchObject({ action: wasFeatured ? 'game.unfeature' : 'game.feature' });
    await call('PATCH', `/console/games/${beta}`, as('operator'), { featured: wasFeatured });
    expect((await featured()).includes('beta')).toBe(wasFeatured);
  });

  it('lists games by developer and by publication', async () => {
    const gamma = await gameId('gamma');
    await api.database.db.updateTable('apps').set({ developer_user_id: roles.developer.userInfo.uid }).where('id', '=', gamma).execute();
    expect(await listGames(`developer=${roles.developer.userInfo.uid}`)).toEqual([
      expect.objectContaining({ slug: 'gamma', studio: { userId: roles.developer.userInfo.uid, name: 'Tidepool' } }),
    ]);
    expect((await listGames('developer=house')).map((g) => g.slug)).not.toContain('gamma');
    expect((await listGames('q=%25')).length).toBe(0);
  });

  it('publishes a scheduled article at its time, without anyone acting', async () => {
    now.value = new Date('2026-11-26T12:00:00Z');
    const image = await upload(as('operator'), 'harbour.svg', SVG);
    expect(image.statusCode).toBe(201);
    const { url, width, height } = data<{ url: string; width: number; height: number }>(image);
    expect(url).toMatch(/^\/uploads\/articles\/harbour-40x20-[0-9a-f]{16}\.svg$/);
    expect({ width, height }).toEqual({ width: 40, height: 20 });

    const body = articleBody({ publishedAt: '2026-12-01T09:00:00Z', cover: url });
    body.texts.en.markdown += `\n\n![Harbour](${url})\n\n<script>alert(1)</script>`;
    const created = await call('POST', '/console/articles/', as('operator'), body);
    expect(created.statusCode).toBe(201);
    const article = data<{ id: number; path: string; source: string }>(created);
    expect(article).toMatchObject({ source: 'console', path: `/article/news/${article.id}` });

    const scheduled = async () => {
      const info = await call('GET', `/article/info/${article.id}`, undefined);
      const list = data<{ items: Array<{ id: number }> }>(await call('GET', '/article/list/news?limit=50', undefined)).items.map((a) => a.id);
      const feed = (await api.services.articles.feed('en', 'news')).entries.map((e) => e.id);
      const sitemap = await api.services.sitemap.xml('https://play.example');
      return { info: info.statusCode, listed: list.includes(article.id), inFeed: feed.includes(article.id), inSitemap: sitemap.includes(`/${article.id}<`) };
    };
    expect(await scheduled()).toEqual({ info: 404, listed: false, inFeed: false, inSitemap: false });
    const listed = data<{ items: Array<{ id: number; scheduled: boolean }> }>(await call('GET', '/console/articles/', as('operator'))).items;
    expect(listed.find((a) => a.id === article.id)).toMatchObject({ scheduled: true });

    now.value = new Date('2026-12-01T09:00:01Z');
    expect(await scheduled()).toEqual({ info: 200, listed: true, inFeed: true, inSitemap: true });
    const en = data<{ body: string; title: string }>(await call('GET', `/article/info/${article.id}`, undefined));
    expect(en.title).toBe('Harbour lights');
    expect(en.body).toContain(`<img src="${url}"`);
    // Sized as imported images are, so the page keeps its place for it.
    expect(en.body).toMatch(/<img [^>]*width="40" height="20"/);
    expect(en.body).not.toMatch(/<script|alert\(1\)/);
    // The preview of the same Markdown is exactly what readers get.
    expect(data<{ html: string }>(await call('POST', '/console/markdown/preview', as('operator'), { markdown: body.texts.en.markdown })).html).toBe(en.body);
    const zh = data<{ title: string; locale: string }>(await api.call('GET', `/article/info/${article.id}`, { headers: { locale: 'zh-CN' } }));
    expect(zh).toMatchObject({ title: '港口灯火', locale: 'zh-CN' });
    expect(data<{ texts: { en: { markdown: string } } }>(await call('GET', `/console/articles/${article.id}`, as('operator'))).texts.en.markdown).toBe(
      body.texts.en.markdown.trim(),
    );
    expect((await api.services.auditLog.page({ limit: 5 })).entries.map((e) => e.action)).toEqual(expect.arrayContaining(['article.create', 'article.image']));
  });

  it('creates a static page at /page/<slug> and publishes it at its time, as articles are', async () => {
    now.value = new Date('2026-11-26T12:00:00Z');
    const body = {
      slug: 'harbour-rules',
      publishedAt: '2026-12-02T08:00:00Z',
      texts: {
        en: { title: 'Harbour rules', description: 'What players agree to.', markdown: 'Be **kind**.\n\n<script>alert(1)</script>' },
        'zh-CN': { title: '港口规则', markdown: '友善**待人**。' },
      },
    };
    const created = await call('POST', '/console/pages/', as('operator'), body);
    expect(created.statusCode, created.body).toBe(200);
    expect(data(created)).toMatchObject({ slug: 'harbour-rules', source: 'console', publishedAt: '2026-12-02T08:00:00.000Z', path: '/page/harbour-rules' });
    expect((await api.services.auditLog.page({ limit: 1 })).entries[0]).toMatchObject({
      operatorUserId: roles.operator.userInfo.uid,
      action: 'page.create',
      target: { type: 'page', id: 'harbour-rules' },
      detail: { title: 'Harbour rules', scheduled: true, publishedAt: '2026-12-02T08:00:00.000Z' },
    });
    const seen = async () => ({
      info: (await call('GET', '/page/info/?slug=harbour-rules', undefined)).statusCode,
      inSitemap: (await api.services.sitemap.xml('https://play.example')).includes('/page/harbour-rules<'),
    });
    expect(await seen()).toEqual({ info: 404, inSitemap: false });
    const listed = data<{ items: Array<{ slug: string; scheduled: boolean; path: string }> }>(await call('GET', '/console/pages/', as('operator'))).items;
    expect(listed.find((p) => p.slug === 'harbour-rules')).toMatchObject({ scheduled: true, path: '/page/harbour-rules' });
    expect(listed.find((p) => p.slug === 'about')).toMatchObject({ scheduled: false, path: '/about' });

    now.value = new Date('2026-12-02T08:00:01Z');
    expect(await seen()).toEqual({ info: 200, inSitemap: true });
    const en = data<{ title: string; bodyHtml: string }>(await call('GET', '/page/info/?slug=harbour-rules', undefined));
    expect(en.title).toBe('Harbour rules');
    expect(en.bodyHtml).toContain('<strong>kind</strong>');
    expect(en.bodyHtml).not.toMatch(/<script|alert\(1\)/);
    expect(data<{ title: string }>(await api.call('GET', '/page/info/?slug=harbour-rules', { headers: { locale: 'zh-CN' } })).title).toBe('港口规则');

    // Saved again with a time ahead: readers wait for the new time.
    const rescheduled = await call('PUT', '/console/pages/harbour-rules', as('operator'), { ...body, slug: undefined, publishedAt: '2026-12-03T08:00:00Z' });
    expect(rescheduled.statusCode, rescheduled.body).toBe(200);
    expect(await seen()).toEqual({ info: 404, inSitemap: false });
    expect((await api.services.auditLog.page({ limit: 1 })).entries[0]).toMatchObject({ action: 'page.update', detail: { scheduled: true } });

    // A taken address, and the editor's own, are refused on the slug and change nothing.
    const audit = await auditCount();
    for (const slug of ['harbour-rules', 'about', 'new']) {
      const refused = await call('POST', '/console/pages/', as('operator'), { ...body, slug });
      expect([slug, refused.statusCode, Object.keys(refused.json().data.errors)]).toEqual([slug, 422, ['slug']]);
    }
    expect((await call('POST', '/console/pages/', as('operator'), { ...body, slug: 'Bad Slug' })).statusCode).toBe(422);
    expect(await auditCount()).toBe(audit);
    expect(data<{ publishedAt: string }>(await call('GET', '/console/pages/harbour-rules', as('operator'))).publishedAt).toBe('2026-12-03T08:00:00.000Z');
  });

  it('gives two articles saved at the same moment ids of their own', async () => {
    const [first, second] = await Promise.all([
      call('POST', '/console/articles/', as('operator'), articleBody({ slug: 'twin-one' })),
      call('POST', '/console/articles/', as('operator'), articleBody({ slug: 'twin-two' })),
    ]);
    expect([first.statusCode, second.statusCode]).toEqual([201, 201]);
    expect(data<{ id: number }>(first).id).not.toBe(data<{ id: number }>(second).id);
  });

  it('keeps articles and pages edited in the Console when the content import runs again', async () => {
    const imported = data<{ texts: { en: { markdown: string; title: string } } }>(await call('GET', '/console/articles/1001', as('operator')));
    // Imported text opens as its HTML, which renders to itself.
    expect(data<{ html: string }>(await call('POST', '/console/markdown/preview', as('operator'), { markdown: imported.texts.en.markdown })).html).toBe(
      imported.texts.en.markdown,
    );
    const edited = articleBody({ slug: 'playport-opens-its-doors', publishedAt: '2026-01-01T00:00:00Z' });
    edited.texts.en.title = 'Edited in the Console';
    expect((await call('PUT', '/console/articles/1001', as('operator'), edited)).statusCode).toBe(200);
    expect(
      (await call('PUT', '/console/pages/about', as('operator'), { texts: { en: { title: 'About us', markdown: 'Edited **here**.' }, 'zh-CN': null } }))
        .statusCode,
    ).toBe(200);

    const articles = await importArticles(api.services.articlesImport, { folder: resolve(CONTENT, 'articles') });
    expect(articles.keptConsoleEdits).toContain(1001);
    const pages = await importPages(api.services.pagesImport, resolve(CONTENT, 'pages'));
    expect(pages.keptConsoleEdits).toEqual(['about']);
    expect(data<{ title: string }>(await call('GET', '/article/info/1001', undefined)).title).toBe('Edited in the Console');
    const about = data<{ title: string; bodyHtml: string }>(await call('GET', '/page/info/?slug=about', undefined));
    expect(about).toMatchObject({ title: 'About us', bodyHtml: '<p>Edited <strong>here</strong>.</p>\n' });
    // Without a Chinese text the page falls back to English, as imported pages do.
    expect(data<{ locale: string }>(await api.call('GET', '/page/info/?slug=about', { headers: { locale: 'zh-CN' } })).locale).toBe('en');
  });

  it('keeps a house game an operator unpublished in the Console when the content import runs again', async () => {
    const beta = await gameId('beta');
    const gamma = await gameId('gamma');
    const published = async (id: number) =>
      (await api.database.db.selectFrom('apps').select(['published', 'listing_source']).where('id', '=', id).executeTakeFirstOrThrow()).published;
    expect((await call('PATCH', `/console/games/${beta}`, as('operator'), { published: false, reason: 'licence question' })).statusCode).toBe(200);
    // Changed outside the Console: the import is still the source of these.
    await api.database.db.updateTable('apps').set({ published: 0 }).where('id', '=', gamma).execute();
    await api.database.db.updateTable('app_translations').set({ title: 'Stale title' }).where('app_id', '=', beta).execute();

    const report = await importCatalogue(api.services.catalogueImport, { folder: resolve(FIXTURES, 'catalogue'), gamesFolder: resolve(FIXTURES, 'games') });
    expect(report.keptConsoleListings).toContain('beta');
    expect(report.keptConsoleListings).not.toContain('gamma');
    expect(await published(beta)).toBe(0);
    expect(await published(gamma)).toBe(1);
    // The rest of the entry is imported as before.
    const titles = await api.database.db.selectFrom('app_translations').select('title').where('app_id', '=', beta).execute();
    expect(titles.map((row) => row.title)).not.toContain('Stale title');
    expect((await call('GET', '/app/info/?slug=beta', undefined)).statusCode).toBe(404);

    // Published again in the Console: that is kept too, and the game is back.
    await call('PATCH', `/console/games/${beta}`, as('operator'), { published: true, reason: 'cleared' });
    await importCatalogue(api.services.catalogueImport, { folder: resolve(FIXTURES, 'catalogue'), gamesFolder: resolve(FIXTURES, 'games') });
    expect(await published(beta)).toBe(1);
    expect((await call('GET', '/app/info/?slug=beta', undefined)).statusCode).toBe(200);
  });
});
