import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ContentError } from '#server/content/files.ts';
import { BAD_CATALOGUE_ENTRIES, goodCatalogueEntry } from '#server/testing/catalogue-entries.ts';
import { FIXTURES, openTestApi, type TestApi } from '#server/testing/test-api.ts';
import { importCatalogue } from './catalogue.import.ts';

// The committed JSON Schema an editor checks entries with (docs/catalogue-entry.schema.json).
const ajv = new Ajv2020({ allErrors: true, strict: false });
addFormats(ajv);
const schema = JSON.parse(readFileSync(resolve(import.meta.dirname, '../../../docs/catalogue-entry.schema.json'), 'utf8'));
const validate = ajv.compile(schema);

describe('an entry the catalogue entry JSON Schema refuses', () => {
  let api: TestApi;
  const folders: string[] = [];

  /** A catalogue folder with the fixture's categories and tags and this one entry. */
  function folderWith(entry: Record<string, unknown>): string {
    const folder = mkdtempSync(join(tmpdir(), 'playport-entry-schema-'));
    folders.push(folder);
    for (const file of ['categories.yaml', 'tags.yaml']) cpSync(resolve(FIXTURES, 'catalogue', file), join(folder, file));
    mkdirSync(join(folder, 'apps'));
    writeFileSync(join(folder, 'apps', 'entry.json'), JSON.stringify(entry));
    return folder;
  }
  const run = (folder: string) => importCatalogue(api.services.catalogueImport, { folder, gamesFolder: resolve(FIXTURES, 'games') });

  beforeAll(async () => {
    api = await openTestApi();
  });
  afterAll(async () => {
    await api.close();
    for (const folder of folders) rmSync(folder, { recursive: true, force: true });
  });

  it('is imported when the schema accepts it (the entry the refused ones are made from)', async () => {
    const entry = goodCatalogueEntry('star-hop');
    expect(validate(entry)).toBe(true);
    expect(await run(folderWith(entry))).toEqual({ categories: 2, tags: 2, apps: 1, keptConsoleListings: [] });
    const app = await api.services.database.db.selectFrom('apps').select(['slug', 'entry_url']).where('slug', '=', 'star-hop').executeTakeFirst();
    expect(app).toEqual({ slug: 'star-hop', entry_url: 'https://games.example.com/star-hop/' });
  });

  it.each(BAD_CATALOGUE_ENTRIES)('is refused by the import too: an entry %s (%s)', async (_, field, entry) => {
    const value = JSON.parse(JSON.stringify(entry));
    expect(validate(value)).toBe(false);
    const error = await run(folderWith(value)).catch((failure: unknown) => failure);
    expect(error).toBeInstanceOf(ContentError);
    expect((error as ContentError).problems).toEqual(
      expect.arrayContaining([expect.stringMatching(new RegExp(`^apps/entry\\.json: ${field.replaceAll('.', '\\.')}: `))]),
    );
  });
});
