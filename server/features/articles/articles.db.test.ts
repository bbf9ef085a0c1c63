import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { registerApiStandalone } from '#server/api.ts';
import { loadConfig } from '#server/config.ts';
import { ContentError } from '#server/content/files.ts';
import type { Clock } from '#server/lib/clock.ts';
import { createServices, type Services } from '#server/services.ts';
import { FIXTURES } from '#server/testing/test-api.ts';
import { importCatalogue } from '#server/features/catalogue/catalogue.import.ts';
import { openTestDatabase } from '#server/testing/test-database.ts';
import { articlePublicRoutes } from './articles-public.routes.ts';
import { importArticles } from './articles.import.ts';

const COVER = '<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="630" viewBox="0 0 1200 630"><rect width="1200" height="630" fill="#16a34a"/></svg>';
const FIGURE = '<svg xmlns="http://www.w3.org/2000/svg" width="800" height="400"><rect width="800" height="400" fill="#3f3f46"/></svg>';
const COLUMNS = `
- slug: news
  sort: 1
  cover: covers/news.svg
  i18n:
    en: { title: News, description: Announcements. }
    zh-CN: { title: 新闻, description: 公告。 }
- slug: esports
  parent: news
  i18n:
    en: { title: Esports }
    zh-CN: { title: 赛事 }
- slug: guides
  sort: 2
  i18n:
    en: { title: Guides }
`;

interface ArticleSpec {
  id: number;
  column: string;
  at: string;
  tags?: string[];
  body?: string;
  zh?: boolean;
  cover?: string;
}

function articleFile(spec: ArticleSpec, locale: 'en' | 'zh-CN'): string {
  const title = locale === 'en' ? `Article ${spec.id}` : `文章 ${spec.id}`;
  return [
    '---',
    `id: ${spec.id}`,
    `column: ${spec.column}`,
    `slug: article-${spec.id}`,
    `locale: ${locale}`,
    `title: "${title}"`,
    `summary: "Summary of ${spec.id}"`,
    `cover: ${spec.cover ?? 'covers/cover.svg'}`,
    'author: "Test Writer"',
    `published_at: "${spec.at}"`,
    `tags: [${(spec.tags ?? []).join(', ')}]`,
    '---',
    '',
    spec.body ?? `Body of ${spec.id}, with a [link](/app/snake).`,
    '',
  ].join('\n');
}

/** Ten articles in the news family (seven in news, three in esports), two guides, one scheduled in 2027. */
const ARTICLES: ArticleSpec[] = [
  ...Array.from({ length: 7 }, (_, i) => ({ id: 101 + i, column: 'news', at: `2026-0${i + 1}-10T09:00:00Z`, tags: i % 2 ? ['odd'] : ['even'], zh: true })),
  { id: 201, column: 'esports', at: '2026-02-15T09:00:00Z', tags: ['cup'], zh: true },
  { id: 202, column: 'esports', at: '2026-04-15T09:00:00Z', tags: ['cup', 'even'], zh: true },
  // Same time as 101's neighbour would be ambiguous without the id tiebreak.
  { id: 203, column: 'esports', at: '2026-04-15T09:00:00Z', tags: ['cup'], zh: false },
  {
    id: 301,
    column: 'guides',
    at: '2026-03-01T09:00:00Z',
    zh: true,
    body: [
      'Safe text <script>alert("x")</script> stays.',
      '',
      '<img src="images/figure.svg" onerror="alert(1)"> <a href="https://example.com" onclick="steal()">out</a> [in](/article/news/101) [bad](javascript:alert(1))',
      '',
      '![A figure](images/figure.svg)',
    ].join('\n'),
  },
  { id: 302, column: 'guides', at: '2026-05-01T09:00:00Z', tags: ['even'], zh: true },
  { id: 401, column: 'news', at: '2027-01-15T09:00:00Z', tags: ['even'], zh: true },
];

async function writeContent(folder: string, articles: ArticleSpec[] = ARTICLES, extra: Record<string, string> = {}): Promise<void> {
  const files: Record<string, string> = {
    'columns.yaml': COLUMNS,
    'covers/news.svg': COVER,
    'covers/cover.svg': COVER,
    'images/figure.svg': FIGURE,
    ...extra,
  };
  for (const spec of articles) {
    files[`${spec.column}/${spec.id}-article.en.md`] = articleFile(spec, 'en');
    if (spec.zh) files[`${spec.column}/${spec.id}-article.zh-CN.md`] = articleFile(spec, 'zh-CN');
  }
  for (const [name, text] of Object.entries(files)) {
    await mkdir(dirname(join(folder, name)), { recursive: true });
    await writeFile(join(folder, name), text);
  }
}

describe('articles', () => {
  const now = { value: new Date('2026-11-22T12:00:00Z') };
  const clock: Clock = { now: () => now.value };
  let app: FastifyInstance;
  let services: Services;
  let drop: () => Promise<void>;
  let content: string;
  let uploads: string;

  const get = async (url: string, headers: Record<string, string> = {}) => {
    const response = await app.inject({ method: 'GET', url, headers });
    return {
      status: response.statusCode,
      body: response.headers['content-type']?.includes('json') ? response.json() : response.body,
      headers: response.headers,
    };
  };

  beforeAll(async () => {
    const database = await openTestDatabase();
    drop = database.drop;
    content = mkdtempSync(join(tmpdir(), 'playport-articles-'));
    uploads = mkdtempSync(join(tmpdir(), 'playport-uploads-'));
    const config = loadConfig({
      APP_ENV: 'test',
      LOG_LEVEL: 'silent',
      UPLOAD_DIR: uploads,
      PUBLIC_ORIGIN: 'https://play.example',
      APP_SECRET: 'articles-test-secret-0123456789abcdef',
    });
    services = createServices(database, config, clock);
    await writeContent(content);
    await importArticles(services.articlesImport, { folder: content });
    await importCatalogue(services.catalogueImport, { folder: resolve(FIXTURES, 'catalogue'), gamesFolder: resolve(FIXTURES, 'games') });
    app = Fastify({ logger: false });
    await registerApiStandalone(app, { config, services });
    await app.register(articlePublicRoutes, { config, services });
    await app.ready();
  });

  beforeEach(() => {
    now.value = new Date('2026-11-22T12:00:00Z');
  });

  afterAll(async () => {
    await app.close();
    await drop();
    rmSync(content, { recursive: true, force: true });
    rmSync(uploads, { recursive: true, force: true });
  });

  describe('column info', () => {
    it('gives a column its texts in the request locale, its cover and its sub-columns', async () => {
      const en = await get('/serve/api/article/column/info/news');
      expect(en.status).toBe(200);
      expect(en.body.data).toMatchObject({
        slug: 'news',
        title: 'News',
        description: 'Announcements.',
        parent: null,
        children: [{ slug: 'esports', title: 'Esports' }],
        path: '/article/news',
      });
      expect(en.body.data.cover).toMatch(/^\/uploads\/articles\/news-[0-9a-f]{16}\.svg$/);
      const zh = await get('/serve/api/article/column/info/esports', { locale: 'zh-CN' });
      expect(zh.body.data).toMatchObject({ title: '赛事', parent: { slug: 'news', title: '新闻' }, children: [], path: '/article/news/esports' });
      // A column without a Chinese translation falls back to English.
      expect((await get('/serve/api/article/column/info/guides?locale=zh-CN')).body.data.title).toBe('Guides');
    });

    it('answers an unknown column with 404 in the envelope and a malformed one with 422', async () => {
      const missing = await get('/serve/api/article/column/info/sports');
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual({ code: 404, error: 'not_found', message: 'This column does not exist.', data: null });
      expect((await get('/serve/api/article/column/info/sports', { locale: 'zh-CN' })).body.message).toBe('该栏目不存在。');
      for (const bad of ['ab', 'es-ports', 'news1', 'a'.repeat(21), '%3Cscript%3E']) {
        const response = await get(`/serve/api/article/column/info/${bad}`);
        expect(response.status, bad).toBe(422);
        expect(response.body.data.errors.column, bad).toBeDefined();
      }
    });
  });

  describe('lists', () => {
    it('pages through a column and its sub-columns newest first, without gaps or repeats', async () => {
      const seen: number[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const query: string = cursor ? `?limit=4&cursor=${cursor}` : '?limit=4';
        const response = await get(`/serve/api/article/list/news${query}`);
        expect(response.status).toBe(200);
        expect(response.body.data.items.length).toBeLessThanOrEqual(4);
        seen.push(...response.body.data.items.map((a: { id: number }) => a.id));
        cursor = response.body.data.nextCursor;
        pages += 1;
      } while (cursor && pages < 10);
      expect(pages).toBe(3);
      // 202 and 203 share a time: the higher id comes first. The scheduled 401 is not there.
      expect(seen).toEqual([107, 106, 105, 203, 202, 104, 103, 201, 102, 101]);
    });

    it('lists a sub-column alone, with summaries that carry paths and covers', async () => {
      const response = await get('/serve/api/article/list/esports?locale=zh-CN');
      const items = response.body.data.items;
      expect(items.map((a: { id: number }) => a.id)).toEqual([203, 202, 201]);
      expect(items[1]).toMatchObject({
        id: 202,
        slug: 'article-202',
        title: '文章 202',
        summary: 'Summary of 202',
        author: 'Test Writer',
        publishedAt: '2026-04-15T09:00:00.000Z',
        readingMinutes: 1,
        tags: ['cup', 'even'],
        column: { slug: 'esports', title: '赛事' },
        path: '/article/news/esports/202',
      });
      expect(items[1].cover).toMatch(/^\/uploads\/articles\/cover-[0-9a-f]{16}\.svg$/);
      // No Chinese file: English texts.
      expect(items[0].title).toBe('Article 203');
      expect(response.body.data.nextCursor).toBeNull();
    });

    it('answers bad list parameters with 422 and an unknown column with 404', async () => {
      for (const query of ['limit=0', 'limit=51', 'limit=abc', 'limit=2.5', 'cursor=not-a-cursor', `cursor=${'x'.repeat(201)}`]) {
        const response = await get(`/serve/api/article/list/news?${query}`);
        expect(response.status, query).toBe(422);
        expect(response.body.code, query).toBe(422);
      }
      expect((await get('/serve/api/article/list/n3ws')).status).toBe(422);
      const missing = await get('/serve/api/article/list/sports');
      expect(missing.status).toBe(404);
      expect(missing.body.code).toBe(404);
    });
  });

  describe('article info', () => {
    it('gives the article with its body, tags, related articles and neighbours in its column', async () => {
      const response = await get('/serve/api/article/info/202');
      expect(response.status).toBe(200);
      const article = response.body.data;
      expect(article).toMatchObject({
        id: 202,
        title: 'Article 202',
        author: 'Test Writer',
        locale: 'en',
        tags: ['cup', 'even'],
        trail: [
          { slug: 'news', title: 'News' },
          { slug: 'esports', title: 'Esports' },
        ],
        path: '/article/news/esports/202',
        previous: { id: 201, title: 'Article 201', path: '/article/news/esports/201' },
        next: { id: 203, title: 'Article 203', path: '/article/news/esports/203' },
      });
      expect(article.body).toContain('<a href="/app/snake" rel="noopener">link</a>');
      // Sharing most tags first (203 shares "cup" and is in the same column), never itself, never a scheduled one.
      const related = article.related.map((a: { id: number }) => a.id);
      expect(related).toHaveLength(3);
      expect(related[0]).toBe(203);
      expect(related).not.toContain(202);
      expect(related).not.toContain(401);
      expect((await get('/serve/api/article/info/201')).body.data.previous).toBeNull();
    });

    it('renders Markdown sanitised: no script, no event handlers, safe links, sized images', async () => {
      const { body } = (await get('/serve/api/article/info/301')).body.data;
      expect(body).toContain('Safe text');
      expect(body).toContain('stays.');
      expect(body).not.toMatch(/<script|alert\("x"\)|onerror|onclick|javascript:/i);
      expect(body).toContain('<a href="https://example.com" rel="noopener noreferrer" target="_blank">out</a>');
      expect(body).toContain('<a href="/article/news/101" rel="noopener">in</a>');
      expect(body).toMatch(
        /<img src="\/uploads\/articles\/figure-[0-9a-f]{16}\.svg" alt="A figure" loading="lazy" decoding="async" width="800" height="400" \/>/,
      );
      // The Chinese translation links to Chinese pages.
      const zh = (await get('/serve/api/article/info/301?locale=zh-CN')).body.data;
      expect(zh.locale).toBe('zh-CN');
      expect(zh.body).toContain('<a href="/zh-CN/article/news/101" rel="noopener">in</a>');
      expect(zh.body).toContain('<a href="https://example.com"');
      // The copied image is really there.
      const file = /\/uploads\/articles\/(figure-[0-9a-f]{16}\.svg)/.exec(body)![1]!;
      expect(readdirSync(join(uploads, 'articles'))).toContain(file);
    });

    it('answers a malformed id with 422 and an unknown one with 404', async () => {
      for (const bad of ['abc', '12a', '-1', '0', '1.5', '99999999999']) {
        const response = await get(`/serve/api/article/info/${bad}`);
        expect(response.status, bad).toBe(422);
      }
      const missing = await get('/serve/api/article/info/999', { locale: 'zh-CN' });
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual({ code: 404, error: 'not_found', message: '该文章不存在或尚未发布。', data: null });
    });
  });

  describe('scheduling', () => {
    it('keeps a scheduled article out of everything until its time, then shows it', async () => {
      expect((await get('/serve/api/article/info/401')).status).toBe(404);
      expect((await get('/serve/api/article/list/news?limit=50')).body.data.items.map((a: { id: number }) => a.id)).not.toContain(401);
      expect((await get('/serve/api/article/info/107')).body.data.next).toBeNull();
      expect((await get('/feeds/news.en.xml')).body).not.toContain('article/401');
      expect((await get('/sitemap.xml')).body).not.toContain('/article/news/401');

      now.value = new Date('2027-01-15T09:00:00Z');
      expect((await get('/serve/api/article/info/401')).status).toBe(200);
      expect((await get('/serve/api/article/list/news?limit=1')).body.data.items[0].id).toBe(401);
      expect((await get('/serve/api/article/info/107')).body.data.next).toMatchObject({ id: 401 });
      expect((await get('/feeds/news.en.xml')).body).toContain('article/401/en');
      expect((await get('/sitemap.xml')).body).toContain('<loc>https://play.example/article/news/401</loc>');
    });
  });

  describe('import', () => {
    it('is idempotent: a second import of the same folder changes nothing', async () => {
      const before = await services.database.db.selectFrom('articles').select(['id', 'updated_at']).orderBy('id').execute();
      now.value = new Date('2026-12-01T00:00:00Z');
      const report = await importArticles(services.articlesImport, { folder: content });
      expect(report).toEqual({ columns: 3, articles: 13, translations: 25, changed: 0, keptConsoleEdits: [] });
      const after = await services.database.db.selectFrom('articles').select(['id', 'updated_at']).orderBy('id').execute();
      expect(after).toEqual(before);
      const translations = await services.database.db
        .selectFrom('article_translations')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      expect(Number(translations.n)).toBe(25);
    });

    it('updates a changed article and only that one', async () => {
      const folder = mkdtempSync(join(tmpdir(), 'playport-articles-'));
      try {
        await writeContent(
          folder,
          ARTICLES.map((a) => (a.id === 102 ? { ...a, body: 'A rewritten body.' } : a)),
        );
        now.value = new Date('2026-12-02T00:00:00Z');
        const report = await importArticles(services.articlesImport, { folder });
        expect(report.changed).toBe(1);
        const article = (await get('/serve/api/article/info/102')).body.data;
        expect(article.body).toBe('<p>A rewritten body.</p>\n');
        expect(article.updatedAt).toBe('2026-12-02T00:00:00.000Z');
        await importArticles(services.articlesImport, { folder: content });
      } finally {
        rmSync(folder, { recursive: true, force: true });
      }
    });

    it('rejects a broken folder with messages naming file and field, and writes nothing', async () => {
      const folder = mkdtempSync(join(tmpdir(), 'playport-articles-'));
      const before = await get('/serve/api/article/list/news?limit=50');
      try {
        await writeContent(folder, [...ARTICLES, { id: 501, column: 'news', at: '2026-06-01T09:00:00Z', zh: true }], {
          'news/broken.en.md': '---\nid: 9\ncolumn: sp0rt\nslug: Bad Slug\nlocale: fr\ntitle: ""\npublished_at: yesterday\nextra: 1\n---\n\nText',
          'news/no-front-matter.en.md': 'Just text.',
          'news/wrong-column.en.md': '---\nid: 10\ncolumn: sports\nslug: x\nlocale: en\ntitle: T\nsummary: S\npublished_at: 2026-13-01\n---\n\nText',
          'news/missing-image.en.md': articleFile({ id: 601, column: 'news', at: '2026-01-01T00:00:00Z', body: '![x](images/none.png)' }, 'en'),
          'news/wrong-cover.en.md': articleFile({ id: 602, column: 'news', at: '2026-01-01T00:00:00Z', cover: 'images/figure.svg' }, 'en'),
          'news/outside.en.md': articleFile({ id: 603, column: 'news', at: '2026-01-01T00:00:00Z', body: '![x](../../etc/passwd)' }, 'en'),
          'news/only-chinese.zh-CN.md': articleFile({ id: 604, column: 'news', at: '2026-01-01T00:00:00Z' }, 'zh-CN'),
          'news/other-column.zh-CN.md': articleFile({ id: 101, column: 'guides', at: '2026-01-10T09:00:00Z' }, 'zh-CN'),
        });
        const error = await importArticles(services.articlesImport, { folder }).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(ContentError);
        const problems = (error as ContentError).problems.join('\n');
        expect(problems).toContain('news/broken.en.md: column: must be 3 to 20 letters');
        expect(problems).toContain('news/wrong-column.en.md: column: unknown column "sports" (columns.yaml lists news, esports, guides)');
        expect(problems).toContain('news/broken.en.md: slug: must be lower-case letters and digits separated by single hyphens');
        expect(problems).toContain('news/broken.en.md: locale:');
        expect(problems).toContain('news/broken.en.md: title:');
        expect(problems).toContain('news/broken.en.md: summary:');
        expect(problems).toContain('news/broken.en.md: published_at: must be a date and time');
        expect(problems).toContain('news/broken.en.md: (file):'); // the unknown "extra" key
        expect(problems).toContain('news/no-front-matter.en.md: (file): must start with front matter');
        expect(problems).toContain('news/missing-image.en.md: image: file "images/none.png" does not exist');
        expect(problems).toContain('news/wrong-cover.en.md: cover: "images/figure.svg" is 800×400');
        expect(problems).toContain('news/outside.en.md: image: "../../etc/passwd" points outside the articles folder');
        expect(problems).toContain('news/only-chinese.zh-CN.md: locale: article 604 has no English file');
        expect(problems).toMatch(/news\/101-article\.zh-CN\.md and news\/other-column\.zh-CN\.md: id: both are article 101 in zh-CN/);
        expect(problems).toContain('news/other-column.zh-CN.md: column: must be the same as in news/101-article.en.md (news)');
        // Nothing was written: the valid new article 501 is not there either.
        expect((await get('/serve/api/article/list/news?limit=50')).body).toEqual(before.body);
        expect((await get('/serve/api/article/info/501')).status).toBe(404);
      } finally {
        rmSync(folder, { recursive: true, force: true });
      }
    });

    it('rejects a columns file with an unknown or nested parent', async () => {
      const folder = mkdtempSync(join(tmpdir(), 'playport-articles-'));
      try {
        await writeContent(folder, [], {
          'columns.yaml': `${COLUMNS}\n- slug: cups\n  parent: esports\n  i18n: { en: { title: Cups } }\n- slug: other\n  parent: nowhere\n  i18n: { en: { title: Other } }\n`,
        });
        const error = (await importArticles(services.articlesImport, { folder }).catch((e: unknown) => e)) as ContentError;
        expect(error.problems).toEqual([
          'columns.yaml: cups: parent: "esports" is itself a sub-column; columns nest one level deep',
          'columns.yaml: other: parent: unknown column "nowhere"',
        ]);
      } finally {
        rmSync(folder, { recursive: true, force: true });
      }
    });
  });

  describe('feeds and sitemap', () => {
    it('serves an Atom feed per column and locale with absolute links', async () => {
      const response = await get('/feeds/news.zh-CN.xml');
      expect(response.status).toBe(200);
      expect(response.headers['content-type']).toBe('application/atom+xml; charset=utf-8');
      const xml = response.body as string;
      expect(xml.startsWith('<?xml version="1.0" encoding="utf-8"?>\n<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="zh-CN">')).toBe(true);
      expect(xml).toContain('<title>新闻 | Playport</title>');
      expect(xml).toContain('<link rel="self" type="application/atom+xml" href="https://play.example/feeds/news.zh-CN.xml"/>');
      expect(xml).toContain('<link rel="alternate" type="text/html" href="https://play.example/zh-CN/article/news/esports/202"/>');
      expect(xml.match(/<entry>/g)).toHaveLength(10);
      // Bodies are escaped HTML with absolute links.
      expect(xml).toContain('&lt;a href=&quot;https://play.example/zh-CN/app/snake&quot;');
      expect(xml).not.toMatch(/<a |<p>/);
      expect((await get('/feeds/sports.en.xml')).status).toBe(404);
      expect((await get('/feeds/news.fr.xml')).status).toBe(404);
      expect((await get('/feeds/news.xml')).status).toBe(404);
    });

    it('lists apps, categories, columns and articles in both locales with hreflang alternates', async () => {
      const response = await get('/sitemap.xml');
      expect(response.status).toBe(200);
      expect(response.headers['content-type']).toBe('application/xml; charset=utf-8');
      const xml = response.body as string;
      expect(xml).toContain('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">');
      for (const path of [
        '/app/alpha',
        '/categories/puzzle',
        '/article/news',
        '/article/news/esports',
        '/article/guides',
        '/article/news/esports/202',
        '/article/guides/301',
      ]) {
        expect(xml).toContain(`<loc>https://play.example${path}</loc>`);
        expect(xml).toContain(`<loc>https://play.example/zh-CN${path}</loc>`);
        expect(xml).toContain(`<xhtml:link rel="alternate" hreflang="zh-CN" href="https://play.example/zh-CN${path}"/>`);
      }
      expect(xml).toContain('<xhtml:link rel="alternate" hreflang="x-default" href="https://play.example/article/news"/>');
      expect(xml).toContain('<loc>https://play.example/</loc>');
      expect(xml).toContain('<loc>https://play.example/zh-CN</loc>');
      expect(xml.match(/<url>/g)!.length).toBe(xml.match(/<\/url>/g)!.length);
    });
  });
});
