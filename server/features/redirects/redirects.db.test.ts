import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ContentError } from '#server/content/files.ts';
import { openTestDatabase } from '#server/testing/test-database.ts';
import { importRedirects } from './redirects.import.ts';
import { RedirectsRepository } from './redirects.repository.ts';
import { DERIVED_DATA_TTL_MS } from '#server/lib/timed-cache.ts';
import { RedirectsService } from './redirects.service.ts';

describe('redirects', () => {
  let database: Awaited<ReturnType<typeof openTestDatabase>>;
  let repository: RedirectsRepository;
  let now = new Date('2026-11-01T00:00:00.000Z');
  const clock = { now: () => now };
  const folder = mkdtempSync(join(tmpdir(), 'playport-redirects-'));
  beforeAll(async () => {
    database = await openTestDatabase();
    repository = new RedirectsRepository(database.db);
  });
  afterAll(async () => {
    await database.drop();
    rmSync(folder, { recursive: true, force: true });
  });

  it('imports the demo redirects and finds them by path, trailing slash or not', async () => {
    const report = await importRedirects(repository, resolve(import.meta.dirname, '../../../content/redirects.yaml'), clock);
    expect(report.redirects).toBeGreaterThanOrEqual(3);
    const service = new RedirectsService(repository, clock);
    expect(await service.find('/news')).toEqual({ destination: '/article/news', status: 302 });
    expect(await service.find('/news/')).toEqual({ destination: '/article/news', status: 302 });
    expect(await service.find('/privacy')).toEqual({ destination: '/privacy-policy', status: 301 });
    expect(await service.find('/nothing')).toBeNull();
    expect(await service.find('/')).toBeNull();
  });

  it('keeps the table in memory and reloads it after the cache time', async () => {
    const service = new RedirectsService(repository, clock);
    expect(await service.find('/later')).toBeNull();
    await repository.upsert([{ path: '/later', destination: 'https://example.com/x#y', status: 307, created_at: now.toISOString() }]);
    expect(await service.find('/later')).toBeNull();
    now = new Date(now.getTime() + DERIVED_DATA_TTL_MS);
    expect(await service.find('/later')).toEqual({ destination: 'https://example.com/x#y', status: 307 });
    await repository.upsert([{ path: '/later', destination: '/about', status: 301, created_at: now.toISOString() }]);
    service.invalidate();
    expect(await service.find('/later')).toEqual({ destination: '/about', status: 301 });
  });

  it('rejects an invalid file whole', async () => {
    const file = join(folder, 'redirects.yaml');
    writeFileSync(
      file,
      [
        '- path: /ok',
        '  destination: /about',
        '- path: no-slash',
        '  destination: /x',
        '- path: /bad-target',
        '  destination: javascript:alert(1)',
        '- path: /ok',
        '  destination: /terms',
        '  status: 200',
      ].join('\n'),
    );
    const error = await importRedirects(repository, file, clock).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ContentError);
    const problems = (error as ContentError).problems.join('\n');
    expect(problems).toMatch(/1\.path/);
    expect(problems).toMatch(/2\.destination/);
    expect(problems).toMatch(/3\.status/);
    const service = new RedirectsService(repository, clock);
    expect(await service.find('/ok')).toBeNull();
  });
});
