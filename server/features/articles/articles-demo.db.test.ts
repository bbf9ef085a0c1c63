import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '#server/config.ts';
import { createServices, type Services } from '#server/services.ts';
import { openTestDatabase } from '#server/testing/test-database.ts';
import { type ArticleImportReport, importArticles } from './articles.import.ts';

describe('the demo articles in content/articles', () => {
  const clock = { now: () => new Date('2026-11-22T12:00:00Z') };
  let database: Awaited<ReturnType<typeof openTestDatabase>>;
  let uploads: string;
  let services: Services;
  let report: ArticleImportReport;

  beforeAll(async () => {
    database = await openTestDatabase();
    uploads = mkdtempSync(join(tmpdir(), 'playport-uploads-'));
    services = createServices(database, loadConfig({ APP_ENV: 'test', LOG_LEVEL: 'silent', UPLOAD_DIR: uploads }), clock);
    report = await importArticles(services.articlesImport, { folder: resolve(import.meta.dirname, '../../../content/articles') });
  });

  afterAll(async () => {
    await database.drop();
    rmSync(uploads, { recursive: true, force: true });
  });

  it('import cleanly: at least 3 columns and 20 articles, each in English and Chinese', async () => {
    expect(report.columns).toBeGreaterThanOrEqual(3);
    expect(report.articles).toBeGreaterThanOrEqual(20);
    expect(report.translations).toBe(report.articles * 2);
    const top = await services.articles.columns('zh-CN');
    expect(top.map((c) => c.slug)).toEqual(['news', 'guides', 'updates']);
    expect(top[0]!.children.map((c) => c.title)).toEqual(['赛事', '新品上线']);
    // Importing again changes nothing.
    expect((await importArticles(services.articlesImport, { folder: resolve(import.meta.dirname, '../../../content/articles') })).changed).toBe(0);
  });

  it('drop the script tag quoted in article 1021', async () => {
    const article = await services.articles.info('en', 1021);
    expect(article?.body).toContain('a snippet like this one');
    expect(article?.body).not.toMatch(/<script/i);
  });

  it('write authors per translation and hide the articles scheduled for 2027', async () => {
    expect((await services.articles.info('zh-CN', 1004))?.author).toBe('林晓');
    expect((await services.articles.info('en', 1004))?.author).toBe('Lin Xiao');
    await expect(services.articles.info('en', 1024)).rejects.toMatchObject({ code: 'not_found' });
    await expect(services.articles.info('en', 1025)).rejects.toMatchObject({ code: 'not_found' });
  });
});
