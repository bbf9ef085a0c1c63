import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ContentError } from '#server/content/files.ts';
import { openTestApi, type TestApi } from '#server/testing/test-api.ts';
import { importPages } from './pages.import.ts';

const CONTENT_PAGES = resolve(import.meta.dirname, '../../../content/pages');

function folderWith(files: Record<string, string>): string {
  const folder = mkdtempSync(join(tmpdir(), 'playport-pages-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(folder, name), text);
  return folder;
}

const page = (slug: string, locale: string, title: string, body = 'Some **text**.\n\n<script>alert(1)</script>') =>
  `---\nslug: ${slug}\nlocale: ${locale}\ntitle: "${title}"\ndescription: "About ${slug}"\nupdated_at: "2026-10-01"\n---\n\n${body}\n`;

describe('static pages', () => {
  let api: TestApi;
  const folders: string[] = [];
  beforeAll(async () => {
    api = await openTestApi();
  });
  afterAll(async () => {
    await api.close();
    for (const folder of folders) rmSync(folder, { recursive: true, force: true });
  });

  it('imports the demo pages of both locales and serves them by slug and locale', async () => {
    expect(await api.services.pages.isEmpty()).toBe(true);
    const report = await importPages(api.services.pagesImport, CONTENT_PAGES);
    expect(report.pages).toBe(10);
    expect(await api.services.pages.isEmpty()).toBe(false);
    for (const slug of ['about', 'terms', 'cookie-policy', 'privacy-policy']) {
      const en = await api.app.inject({ method: 'GET', url: `/serve/api/page/info/?slug=${slug}` });
      expect(en.statusCode, slug).toBe(200);
      // The privacy policy changed with account deletion (decision 147).
      const updatedAt = slug === 'privacy-policy' ? '2026-11-29T00:00:00.000Z' : '2026-11-01T00:00:00.000Z';
      expect(en.json().data).toMatchObject({ slug, locale: 'en', updatedAt });
      const zh = await api.app.inject({ method: 'GET', url: `/serve/api/page/info/?slug=${slug}&locale=zh-CN` });
      expect(zh.json().data.locale, slug).toBe('zh-CN');
      expect(zh.json().data.title, slug).not.toBe(en.json().data.title);
    }
    const about = await api.app.inject({ method: 'GET', url: '/serve/api/page/info/?slug=about', headers: { locale: 'zh-CN' } });
    expect(about.json().data.title).toBe('关于 Playport');
    expect(about.json().data.bodyHtml).toContain('<h2>');
    // A page of another slug is served too (at /page/<slug>).
    const developers = await api.app.inject({ method: 'GET', url: '/serve/api/page/info/?slug=developers&locale=zh-CN' });
    expect(developers.json().data).toMatchObject({ slug: 'developers', locale: 'zh-CN', title: '在 Playport 发布你的游戏' });
  });

  it('falls back to English when a page has no translation, and sanitises the body', async () => {
    const folder = folderWith({ 'imprint.en.md': page('imprint', 'en', 'Imprint') });
    folders.push(folder);
    await importPages(api.services.pagesImport, folder);
    const response = await api.app.inject({ method: 'GET', url: '/serve/api/page/info/?slug=imprint&locale=zh-CN' });
    const data = response.json().data;
    expect(data).toMatchObject({ slug: 'imprint', locale: 'en', title: 'Imprint', description: 'About imprint' });
    expect(data.bodyHtml).toContain('<strong>text</strong>');
    expect(data.bodyHtml).not.toContain('script');
  });

  it('answers 404 for an unknown page and 422 for a malformed slug', async () => {
    const missing = await api.app.inject({ method: 'GET', url: '/serve/api/page/info/?slug=nothing-here' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ code: 404, message: 'Not found.' });
    for (const url of ['/serve/api/page/info/', '/serve/api/page/info/?slug=../etc', '/serve/api/page/info/?slug=About']) {
      const response = await api.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(422);
    }
  });

  it('importing again updates in place', async () => {
    const first = folderWith({ 'faq.en.md': page('faq', 'en', 'FAQ'), 'faq.zh-CN.md': page('faq', 'zh-CN', '常见问题') });
    const second = folderWith({ 'faq.en.md': page('faq', 'en', 'Questions') });
    folders.push(first, second);
    await importPages(api.services.pagesImport, first);
    await importPages(api.services.pagesImport, first);
    await importPages(api.services.pagesImport, second);
    expect((await api.services.pages.info('en', 'faq')).title).toBe('Questions');
    expect((await api.services.pages.info('zh-CN', 'faq')).title).toBe('常见问题');
  });

  it('rejects an invalid folder whole, naming each problem', async () => {
    const folder = folderWith({
      'ok.en.md': page('ok', 'en', 'Fine'),
      'wrong.en.md': page('other', 'en', 'Mismatch'),
      'nolocale.fr.md': page('nolocale', 'en', 'French'),
      'onlyzh.zh-CN.md': page('onlyzh', 'zh-CN', '只有中文'),
      'empty.en.md': '---\nslug: empty\nlocale: en\ntitle: ""\nupdated_at: "yesterday"\n---\n',
    });
    folders.push(folder);
    const error = await importPages(api.services.pagesImport, folder).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ContentError);
    const problems = (error as ContentError).problems.join('\n');
    expect(problems).toContain('wrong.en.md: slug: "other" does not match the file name');
    expect(problems).toContain('nolocale.fr.md: file name must be <slug>.<locale>.md');
    expect(problems).toContain('onlyzh: has no English version');
    expect(problems).toMatch(/empty\.en\.md: title/);
    expect(problems).toMatch(/empty\.en\.md: updated_at/);
    await expect(api.services.pages.info('en', 'ok')).rejects.toMatchObject({ code: 'not_found' });
  });
});
