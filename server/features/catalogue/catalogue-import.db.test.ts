import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DiskStorage } from '#server/adapters/storage/disk-storage.ts';
import { ContentError } from '#server/content/files.ts';
import { FIXTURES, openTestApi, type TestApi } from '#server/testing/test-api.ts';
import { importCatalogue } from './catalogue.import.ts';
import { hostedGameProblems } from './hosted-game-limits.ts';

const GAMES = resolve(FIXTURES, 'games');
const SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="4" height="3"><rect width="4" height="3" fill="green"/></svg>';

const brokenEntry = `slug: "broken entry"
type: movie
categories: [puzzle, nowhere]
tags: [classic, unheard]
width: 50
height: 640
released_at: "yesterday"
entry: index.html
thumbnail: ../secret.svg
i18n:
  en:
    summary: No title here.
    description: Broken.
`;

/** A fresh copy of the fixture catalogue that a test may change. */
function copyFixture(): string {
  const folder = mkdtempSync(join(tmpdir(), 'playport-catalogue-'));
  cpSync(resolve(FIXTURES, 'catalogue'), folder, { recursive: true });
  return folder;
}

describe('catalogue import', () => {
  let api: TestApi;
  const folders: string[] = [];
  const temp = (folder: string) => (folders.push(folder), folder);
  const db = () => api.services.database.db;
  // Everything an import writes, without the update times (which record when it ran).
  const snapshot = async () => ({
    apps: await db()
      .selectFrom('apps')
      .select(['id', 'slug', 'type', 'entry_url', 'thumbnail', 'screenshots', 'featured', 'play_count', 'released_at', 'published', 'created_at'])
      .orderBy('id')
      .execute(),
    translations: await db().selectFrom('app_translations').selectAll().orderBy('app_id').orderBy('locale').execute(),
    categories: await db().selectFrom('categories').select(['id', 'slug', 'icon', 'sort']).orderBy('id').execute(),
    categoryTexts: await db().selectFrom('category_translations').selectAll().orderBy('category_id').orderBy('locale').execute(),
    tags: await db().selectFrom('tags').select(['id', 'slug']).orderBy('id').execute(),
    tagTexts: await db().selectFrom('tag_translations').selectAll().orderBy('tag_id').orderBy('locale').execute(),
    appCategories: await db().selectFrom('app_categories').selectAll().orderBy('app_id').orderBy('category_id').execute(),
    appTags: await db().selectFrom('app_tags').selectAll().orderBy('app_id').orderBy('tag_id').execute(),
    search: await db().selectFrom('app_search').select(['app_id', 'locale', 'tokens']).orderBy('app_id').orderBy('locale').execute(),
  });

  // Each alpha item's kind, by SKU.
  const kinds = async () =>
    Object.fromEntries((await db().selectFrom('app_items').select(['sku', 'kind']).where('sku', 'like', 'alpha-%').execute()).map((i) => [i.sku, i.kind]));

  beforeAll(async () => {
    api = await openTestApi();
  });
  afterAll(async () => {
    await api.close();
    for (const folder of folders) rmSync(folder, { recursive: true, force: true });
  });

  it('gives the same result when run twice', async () => {
    const before = await snapshot();
    expect(before.apps).toHaveLength(3);
    expect(before.search).toHaveLength(6);
    const report = await importCatalogue(api.services.catalogueImport, { folder: resolve(FIXTURES, 'catalogue'), gamesFolder: GAMES });
    expect(report).toEqual({ categories: 2, tags: 2, apps: 3, keptConsoleListings: [] });
    expect(await snapshot()).toEqual(before);
  });

  it('rejects a folder with a broken entry, naming file and field, and writes nothing', async () => {
    const folder = temp(copyFixture());
    writeFileSync(join(folder, 'apps', 'broken.yaml'), brokenEntry);
    writeFileSync(join(folder, 'apps', 'garbled.yaml'), 'slug: [unclosed');
    writeFileSync(
      join(folder, 'apps', 'orphan.json'),
      JSON.stringify({ ...JSON.parse(JSON.stringify(validEntry('orphan'))), categories: ['nowhere'], thumbnail: 'missing.png' }),
    );
    const before = await snapshot();
    const error = await importCatalogue(api.services.catalogueImport, { folder, gamesFolder: GAMES }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ContentError);
    const problems = (error as ContentError).problems;
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^apps\/broken\.yaml: slug: /),
        expect.stringMatching(/^apps\/broken\.yaml: type: /),
        expect.stringMatching(/^apps\/broken\.yaml: width: /),
        expect.stringMatching(/^apps\/broken\.yaml: released_at: /),
        expect.stringMatching(/^apps\/broken\.yaml: i18n\.en\.title: /),
        expect.stringMatching(/^apps\/garbled\.yaml: \(file\): cannot be read: /),
        'apps/orphan.json: categories: unknown category "nowhere"',
        'apps/orphan.json: thumbnail: file missing.png exists neither in games/orphan/ nor next to the entry',
      ]),
    );
    expect((error as Error).message).toContain('content is invalid:\n  - ');
    expect(await snapshot()).toEqual(before);

    // The same entry with the schema problems fixed still names the reference problems.
    writeFileSync(
      join(folder, 'apps', 'broken.yaml'),
      brokenEntry
        .replace('"broken entry"', 'alpha')
        .replace('movie', 'game')
        .replace('width: 50', 'width: 480')
        .replace('"yesterday"', '"2026-01-01"')
        .replace('    summary:', '    title: Fixed\n    summary:'),
    );
    rmSync(join(folder, 'apps', 'garbled.yaml'));
    rmSync(join(folder, 'apps', 'orphan.json'));
    const second = (await importCatalogue(api.services.catalogueImport, { folder, gamesFolder: GAMES }).catch((e: unknown) => e)) as ContentError;
    expect(second.problems).toEqual([
      'apps/broken.yaml: categories: unknown category "nowhere"',
      'apps/broken.yaml: tags: unknown tag "unheard"',
      'apps/broken.yaml: thumbnail: must be a relative path without ".."',
      'apps: slug: "alpha" is used by more than one entry',
    ]);
  });

  it('adds apps that refer to categories and tags already imported, and copies their images', async () => {
    const folder = temp(mkdtempSync(join(tmpdir(), 'playport-catalogue-')));
    const uploadDir = temp(mkdtempSync(join(tmpdir(), 'playport-uploads-')));
    mkdirSync(join(folder, 'apps', 'images'), { recursive: true });
    writeFileSync(join(folder, 'apps', 'images', 'delta.svg'), SVG);
    writeFileSync(
      join(folder, 'apps', 'delta.json'),
      JSON.stringify({ ...validEntry('delta'), thumbnail: 'images/delta.svg', screenshots: ['images/delta.svg'] }),
    );
    const report = await importCatalogue(api.services.catalogueImport, { folder, gamesFolder: GAMES, uploads: new DiskStorage(uploadDir, '/uploads/') });
    expect(report).toEqual({ categories: 0, tags: 0, apps: 1, keptConsoleListings: [] });
    const files = readdirSync(join(uploadDir, 'catalogue'));
    expect(files).toHaveLength(1);
    expect(readFileSync(join(uploadDir, 'catalogue', files[0]!), 'utf8')).toBe(SVG);
    const delta = await db().selectFrom('apps').selectAll().where('slug', '=', 'delta').executeTakeFirstOrThrow();
    expect(delta.thumbnail).toBe(`/uploads/catalogue/${files[0]}`);
    expect(JSON.parse(delta.screenshots)).toEqual([`/uploads/catalogue/${files[0]}`]);
    expect(delta.entry_url).toBe('https://games.example.com/delta/');
    // The earlier apps are still there, and the new one is found by its category and by search.
    const list = await api.app.inject({ method: 'GET', url: '/serve/api/app/list/?category=puzzle&sort=name' });
    expect(list.json().data.items.map((i: { slug: string }) => i.slug)).toEqual(['alpha', 'beta', 'delta']);
    const search = await api.app.inject({ method: 'GET', url: `/serve/api/app/list/?q=${encodeURIComponent('德尔')}` });
    expect(search.json().data.items.map((i: { slug: string }) => i.slug)).toEqual(['delta']);
    // Again: same files, same rows.
    const before = await snapshot();
    await importCatalogue(api.services.catalogueImport, { folder, gamesFolder: GAMES, uploads: new DiskStorage(uploadDir, '/uploads/') });
    expect(readdirSync(join(uploadDir, 'catalogue'))).toEqual(files);
    expect(await snapshot()).toEqual(before);
  });

  it('refuses images outside the game folder when there is nowhere to copy them', async () => {
    const folder = temp(mkdtempSync(join(tmpdir(), 'playport-catalogue-')));
    mkdirSync(join(folder, 'apps'));
    writeFileSync(join(folder, 'apps', 'pic.svg'), SVG);
    writeFileSync(join(folder, 'apps', 'epsilon.yaml'), JSON.stringify({ ...validEntry('epsilon'), thumbnail: 'pic.svg', screenshots: ['notes.txt'] }));
    const error = (await importCatalogue(api.services.catalogueImport, { folder, gamesFolder: GAMES }).catch((e: unknown) => e)) as ContentError;
    expect(error.problems).toEqual([
      'apps/epsilon.yaml: thumbnail: pic.svg is not in games/epsilon/, and this import has no upload folder to copy it to',
      'apps/epsilon.yaml: screenshots.0: must be an image (.svg, .png, .jpg, .jpeg, .webp, .gif, .avif), not ".txt"',
    ]);
  });

  /** Not origins: plain http elsewhere, a path, a script, and values that would end or widen a policy's source list (decision 107). */
  const ZETA_BAD_BACKENDS = [
    'http://api.zeta.example',
    'https://api.zeta.example/v1',
    'javascript:alert(1)',
    'https://x;frame-ancestors',
    'https://*',
    'https://a,b',
    "https://x'",
  ];

  it('keeps the backends a hosted game declares, and refuses a game that breaks the hosting limits, with every problem at once', async () => {
    const games = temp(mkdtempSync(join(tmpdir(), 'playport-games-')));
    const folder = temp(mkdtempSync(join(tmpdir(), 'playport-catalogue-')));
    mkdirSync(join(folder, 'apps'));
    for (const slug of ['zeta', 'Eta_Game', 'theta']) {
      mkdirSync(join(games, slug));
      writeFileSync(join(games, slug, 'index.html'), '<!doctype html>');
      writeFileSync(join(games, slug, 'thumb.svg'), SVG);
    }
    const hosted = (slug: string, extra: object = {}) => JSON.stringify({ ...validEntry(slug), entry: 'index.html', ...extra });
    writeFileSync(join(folder, 'apps', 'zeta.json'), hosted('zeta', { backends: ['https://api.zeta.example', 'http://127.0.0.1:4680'] }));
    await importCatalogue(api.services.catalogueImport, { folder, gamesFolder: games });
    const zeta = await db().selectFrom('apps').select(['entry_url', 'backend_origins']).where('slug', '=', 'zeta').executeTakeFirstOrThrow();
    expect(zeta).toEqual({ entry_url: '/games/zeta/index.html', backend_origins: '["https://api.zeta.example","http://127.0.0.1:4680"]' });
    expect(await api.services.catalogue.hostedGame('zeta.games.localhost')).toEqual({
      slug: 'zeta',
      origin: 'http://zeta.games.localhost:3001',
      backendOrigins: ['https://api.zeta.example', 'http://127.0.0.1:4680'],
      // A house game: served from its folder, not from a developer's build (decision 097).
      build: null,
    });
    expect(await api.services.catalogue.hostedGame('games.localhost')).toBeNull();
    expect(await api.services.catalogue.hostedGame('nope.games.localhost')).toBeNull();
    expect(await api.services.catalogue.hostedGame('zeta.games.localhost.evil.test')).toBeNull();

    writeFileSync(join(folder, 'apps', 'zeta.json'), hosted('zeta', { backends: [...ZETA_BAD_BACKENDS] }));
    writeFileSync(join(folder, 'apps', 'eta.json'), hosted('Eta_Game'));
    writeFileSync(join(folder, 'apps', 'theta.json'), hosted('theta'));
    writeFileSync(
      join(folder, 'apps', 'iota.json'),
      JSON.stringify({ ...validEntry('iota'), thumbnail: 'https://games.example.com/iota.svg', backends: ['https://api.iota.example'] }),
    );
    writeFileSync(join(games, 'theta', 'big.data'), Buffer.alloc(2048));
    for (let i = 0; i < 3; i++) writeFileSync(join(games, 'theta', `part-${i}.bin`), 'x');
    symlinkSync(join(games, 'zeta', 'index.html'), join(games, 'theta', 'elsewhere.html'));
    const limits = { totalBytes: 2000, files: 5, fileBytes: 1024 };
    const problems = await hostedGameProblems(join(games, 'theta'), limits);
    expect(problems).toEqual([
      expect.stringMatching(/^big\.data: is 0\.0 MB, more than the 0\.0 MB one file may have$/),
      'elsewhere.html: is a link; a game ships its files themselves',
      'has 6 files, more than the 5 a game may have',
      expect.stringMatching(/^has 0\.0 MB in all, more than the 0\.0 MB a game may have$/),
    ]);
    const error = (await importCatalogue(api.services.catalogueImport, { folder, gamesFolder: games }).catch((e: unknown) => e)) as ContentError;
    expect(error.problems).toEqual([
      "apps/eta.json: slug: a hosted game's slug names its host: lowercase letters, digits and hyphens, at most 63",
      'apps/iota.json: backends: only games hosted here have their connections limited; an external game declares nothing',
      'apps/theta.json: games/theta/: elsewhere.html: is a link; a game ships its files themselves',
      ...ZETA_BAD_BACKENDS.map(
        (value, i) =>
          `apps/zeta.json: backends.${i}: ${JSON.stringify(value)} is not an origin such as https://api.example.com (no path, no wildcard; http only for localhost or 127.0.0.1)`,
      ),
    ]);
  });

  it('reads each item’s kind, permanent when left out, and refuses a kind it does not know (decision 091)', async () => {
    expect(await kinds()).toEqual({ 'alpha-gold-tiles': 'permanent', 'alpha-night-theme': 'permanent', 'alpha-hints': 'consumable' });
    const folder = temp(copyFixture());
    const file = join(folder, 'apps', 'alpha.yaml');
    writeFileSync(file, readFileSync(file, 'utf8').replace('kind: consumable', 'kind: permanent'));
    await importCatalogue(api.services.catalogueImport, { folder, gamesFolder: GAMES });
    expect((await kinds())['alpha-hints']).toBe('permanent');
    writeFileSync(file, readFileSync(file, 'utf8').replace('kind: permanent', 'kind: edible'));
    const error = (await importCatalogue(api.services.catalogueImport, { folder, gamesFolder: GAMES }).catch((e: unknown) => e)) as ContentError;
    expect(error).toBeInstanceOf(ContentError);
    expect(error.problems.join('\n')).toMatch(/alpha\.yaml: items\.2\.kind/);
    // Put back for the other tests of this file.
    writeFileSync(file, readFileSync(file, 'utf8').replace('kind: edible', 'kind: consumable'));
    await importCatalogue(api.services.catalogueImport, { folder, gamesFolder: GAMES });
    expect((await kinds())['alpha-hints']).toBe('consumable');
  });

  it('changes texts and re-indexes search when an app is imported again', async () => {
    const folder = copyFixture();
    temp(folder);
    const file = join(folder, 'apps', 'beta.yaml');
    writeFileSync(file, readFileSync(file, 'utf8').replaceAll('Beta Snake', 'Beta Serpent'));
    await importCatalogue(api.services.catalogueImport, { folder, gamesFolder: GAMES });
    const find = async (q: string) =>
      (await api.app.inject({ method: 'GET', url: `/serve/api/app/list/?q=${q}` })).json().data.items.map((i: { slug: string }) => i.slug);
    expect(await find('serpent')).toEqual(['beta']);
    expect(await find('snake')).toEqual([]);
  });
});

describe('content command', () => {
  const work = mkdtempSync(join(tmpdir(), 'playport-content-'));
  afterAll(() => rmSync(work, { recursive: true, force: true }));
  const run = (folder: string) => {
    const { DATABASE_SCHEMA: _schema, ...env } = process.env;
    return spawnSync(process.execPath, ['scripts/content.ts', 'import', folder], {
      encoding: 'utf8',
      env: { ...env, DATABASE_URL: `file:${join(work, 'content.sqlite')}`, UPLOAD_DIR: join(work, 'uploads'), LOG_LEVEL: 'silent' },
    });
  };

  // Two runs of a separate Node process: a generous timeout for a busy machine.
  it('imports a folder, and reports a broken entry by file and field with exit code 1', () => {
    const folder = join(work, 'catalogue');
    mkdirSync(join(folder, 'apps'), { recursive: true });
    cpSync(resolve(FIXTURES, 'catalogue/categories.yaml'), join(folder, 'categories.yaml'));
    cpSync(resolve(FIXTURES, 'catalogue/tags.yaml'), join(folder, 'tags.yaml'));
    writeFileSync(join(folder, 'apps', 'thumb.svg'), SVG);
    writeFileSync(join(folder, 'apps', 'delta.yaml'), JSON.stringify({ ...validEntry('delta'), thumbnail: 'thumb.svg' }));
    const ok = run(folder);
    expect(ok.stderr).toBe('');
    expect(ok.stdout).toMatch(/imported into sqlite .*: 2 categories, 2 tags, 1 apps/);
    expect(ok.status).toBe(0);
    expect(readdirSync(join(work, 'uploads', 'catalogue'))).toHaveLength(1);

    writeFileSync(join(folder, 'apps', 'broken.yaml'), brokenEntry);
    const failed = run(folder);
    expect(failed.status).toBe(1);
    expect(failed.stderr).toContain('content is invalid:');
    expect(failed.stderr).toContain('  - apps/broken.yaml: i18n.en.title: ');
    expect(failed.stderr).toContain('  - apps/broken.yaml: type: ');
    expect(failed.stderr).not.toMatch(/\n\s+at /);
  }, 90_000);
});

/** A valid entry of an external game in the fixture's puzzle category. */
function validEntry(slug: string) {
  return {
    slug,
    type: 'game',
    categories: ['puzzle'],
    tags: ['classic'],
    width: 480,
    height: 640,
    released_at: '2026-02-01',
    entry: `https://games.example.com/${slug}/`,
    thumbnail: 'thumb.svg',
    i18n: {
      en: { title: `${slug} game`, summary: 'A summary.', description: 'A description.' },
      'zh-CN': { title: '德尔塔' },
    },
  };
}
