import { expect } from '@playwright/test';
import { newMember, uniqueUsername } from '../support/accounts.ts';
import { catalogueSamples, httpTest as test } from '../support/site.ts';
import { observatoryScan, type ObservatoryReport } from './observatory.ts';

// Mozilla HTTP Observatory (decision 072): every page type scores A+ and passes every test that
// does not need TLS. Each scan is a handful of requests from loopback; they run side by side.

/** The failed tests of a report, named, so a failure says which rule broke. */
const failed = (report: ObservatoryReport) => report.tests.filter((t) => !t.pass).map((t) => `${t.name}: ${t.result}`);

test('every page type scores A+ in the Mozilla HTTP Observatory, apart from the TLS tests', async ({ request, baseURL }) => {
  test.setTimeout(60_000);
  const { app } = await catalogueSamples(request);
  const member = await newMember(request, uniqueUsername('observatory'), 'observed-headers-42');
  const session = [`Cookie: token=${encodeURIComponent(member.token)}`];
  const pages: Array<{ type: string; path: string; status?: number; headers?: string[] }> = [
    { type: 'home', path: '/' },
    { type: 'home in Chinese', path: '/zh-CN' },
    { type: 'app page', path: `/app/${app}` },
    { type: 'play page', path: `/play/${app}` },
    { type: 'article list', path: '/article/news' },
    { type: 'article', path: '/article/news/1001' },
    { type: 'user page', path: '/user/profile', headers: session },
    { type: 'login', path: '/login' },
    { type: 'not found', path: '/no-such-page', status: 404 },
    { type: 'API JSON', path: '/serve/api/app/list/?limit=2' },
    { type: 'API that sets the CSRF cookie', path: '/serve/api/csrf' },
    { type: 'feed', path: '/feeds/news.en.xml' },
    { type: 'sitemap', path: '/sitemap.xml' },
  ];
  const reports = await Promise.all(pages.map((page) => observatoryScan(baseURL!, page.path, page.headers)));
  const grades: Record<string, string> = {};
  for (const [index, page] of pages.entries()) {
    const report = reports[index]!;
    expect(report.status, page.type).toBe(page.status ?? 200);
    expect(failed(report), page.type).toEqual([]);
    grades[page.type] = `${report.grade} (${report.score})`;
    expect(report.grade, `${page.type}: ${JSON.stringify(report.tests)}`).toBe('A+');
  }
  test.info().annotations.push({ type: 'observatory', description: JSON.stringify(grades) });
});

test('the session and CSRF cookies pass the Observatory cookie rules', async ({ baseURL }) => {
  const report = await observatoryScan(baseURL!, '/serve/api/csrf');
  expect(report.tests.find((t) => t.name === 'cookies')?.result).toBe('cookies-secure-with-httponly-sessions-and-samesite');
});

test('game files lose only the inline-script rule, which games need inside their sandbox', async ({ request, baseURL }) => {
  const { app } = await catalogueSamples(request);
  const report = await observatoryScan(baseURL!, `/games/${app}/`);
  expect(report.status).toBe(200);
  expect(failed(report)).toEqual(['content-security-policy: csp-implemented-with-unsafe-inline']);
});
