import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import YAML from 'yaml';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { listFiles } from '#server/content/files.ts';
import { AppFile } from '#server/features/catalogue/catalogue.import.ts';
import { BAD_CATALOGUE_ENTRIES, goodCatalogueEntry } from '#server/testing/catalogue-entries.ts';
import { CATALOGUE_SCHEMA_FILE, catalogueEntrySchema, undescribedProperties } from './catalogue-schema.ts';

/** Each field's path as the guide's table names it: array elements as [], the locales (en, zh-CN) as *. */
function fieldPaths(schema: Record<string, unknown>, path = ''): string[] {
  const properties = (schema.properties ?? {}) as Record<string, Record<string, unknown>>;
  const paths = new Set<string>();
  for (const [name, property] of Object.entries(properties)) {
    const locale = name === 'en' || name === 'zh-CN';
    const at = locale ? `${path}.*` : path ? `${path}.${name}` : name;
    if (!locale) paths.add(at);
    for (const inner of fieldPaths(property, at)) paths.add(inner);
    const items = property.items as Record<string, unknown> | undefined;
    if (items) for (const inner of fieldPaths(items, `${at}[]`)) paths.add(inner);
  }
  return [...paths];
}

const committed = JSON.parse(readFileSync(CATALOGUE_SCHEMA_FILE, 'utf8')) as Record<string, unknown>;
const ajv = new Ajv2020({ allErrors: true, strict: false });
addFormats(ajv);
const validate = ajv.compile(committed);

const good = goodCatalogueEntry();

describe('the catalogue entry JSON Schema (docs/catalogue-entry.schema.json)', () => {
  it('is the one generated from the import schema (npm run typecheck regenerates it)', () => {
    expect(committed).toEqual(catalogueEntrySchema());
    expect(committed).toMatchObject({ $id: expect.any(String), title: expect.any(String), description: expect.any(String) });
  });

  it('describes every property, at every depth', () => {
    expect(undescribedProperties(committed)).toEqual([]);
    // A field added to the import schema without .describe() is found, at any depth.
    const added = AppFile.extend({ leaderboards: z.array(z.object({ id: z.string(), sort: z.enum(['asc', 'desc']).describe('Order.') })) });
    expect(undescribedProperties(z.toJSONSchema(added, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>)).toEqual([
      'leaderboards',
      'leaderboards[].id',
    ]);
  });

  it('accepts every entry of the demo catalogue, as the import does', async () => {
    const files = await listFiles(resolve(import.meta.dirname, '../content/catalogue/apps'), ['.yaml', '.yml', '.json']);
    expect(files.length).toBeGreaterThan(5);
    for (const file of files) {
      const entry = YAML.parse(readFileSync(file, 'utf8'));
      expect(AppFile.safeParse(entry).success, file).toBe(true);
      expect(validate(entry), `${file}: ${JSON.stringify(validate.errors)}`).toBe(true);
    }
    expect(validate(good)).toBe(true);
    expect(AppFile.safeParse(good).success).toBe(true);
  });

  it.each(BAD_CATALOGUE_ENTRIES)('rejects an entry %s, and so does the import schema', (_, _field, entry) => {
    const value = JSON.parse(JSON.stringify(entry));
    expect(validate(value)).toBe(false);
    expect(AppFile.safeParse(value).success).toBe(false);
  });

  it('has every field explained in the guide, and editors pointed at it by a path the guide gives', () => {
    const guide = readFileSync(join(import.meta.dirname, '../docs/game-sdk.md'), 'utf8');
    const table = guide.slice(guide.indexOf('## 5. The catalogue entry'), guide.indexOf('## 6.'));
    const paths = fieldPaths(committed);
    expect(paths).toEqual(expect.arrayContaining(['slug', 'items[].sku', 'i18n.*.title']));
    for (const path of paths) expect(table, path).toContain(`\`${path}\``);
    expect(guide).toContain('# yaml-language-server: $schema=../../../docs/catalogue-entry.schema.json');
  });
});
