// The catalogue entry's JSON Schema (docs/catalogue-entry.schema.json), generated from the zod
// schema the import validates with (AppFile in server/features/catalogue/catalogue.import.ts), so
// the two cannot drift: `npm run typecheck` rewrites it, and in CI a stale committed copy fails the
// step. Editors validate entries with it; the import itself validates with the zod schema.
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { AppFile } from '../server/features/catalogue/catalogue.import.ts';
import { keepGenerated } from './lib/generated-file.ts';

/** The committed schema file. */
export const CATALOGUE_SCHEMA_FILE = join(resolve(import.meta.dirname, '..'), 'docs', 'catalogue-entry.schema.json');

type JsonSchema = Record<string, unknown>;

/** The JSON Schema (draft 2020-12) of a catalogue entry as an author writes it (defaults make fields optional). */
export function catalogueEntrySchema(): JsonSchema {
  const schema = z.toJSONSchema(AppFile, {
    io: 'input',
    // A refinement (a backend's origin) is checked by the import alone; its field stays a string here.
    unrepresentable: 'any',
    override(context) {
      const def = context.zodSchema._zod.def as { type: string; in?: z.ZodType; out?: z.ZodType };
      // A field read with z.coerce.string().pipe(…) (slug, title, release date) accepts what YAML
      // reads as a number or a date (2048) and then holds it to the string's rules: the string's
      // rules apply to strings, and a number is let through as the import lets it through.
      if (def.type === 'pipe' && (def.in?._zod.def as { coerce?: boolean } | undefined)?.coerce) {
        const { $schema: _, ...out } = z.toJSONSchema(def.out!, { io: 'input' }) as JsonSchema;
        Object.assign(context.jsonSchema, out, { type: ['string', 'number'] });
      }
    },
  }) as JsonSchema;
  const { $schema, ...rest } = schema;
  return {
    $schema,
    $id: 'urn:playport:schema:catalogue-entry',
    title: 'Playport catalogue entry',
    description:
      'A game or app of the Playport catalogue: one file content/catalogue/apps/{slug}.yaml (or .json), imported with `npm run content -- import`. Generated from the import\'s zod schema by scripts/catalogue-schema.ts; the import validates with that zod schema, which also checks what JSON Schema cannot say (files exist, categories and tags are known, backends are origins). Fields: docs/game-sdk.md, "The catalogue entry".',
    ...rest,
  };
}

/** Every property path (a.b.c) whose schema has no description. */
export function undescribedProperties(schema: JsonSchema, path = ''): string[] {
  const missing: string[] = [];
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  for (const [name, property] of Object.entries(properties)) {
    const at = path ? `${path}.${name}` : name;
    if (typeof property.description !== 'string' || property.description.trim() === '') missing.push(at);
    missing.push(...undescribedProperties(property, at));
  }
  if (schema.items && typeof schema.items === 'object') missing.push(...undescribedProperties(schema.items as JsonSchema, `${path}[]`));
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const)
    for (const option of (schema[key] ?? []) as JsonSchema[]) missing.push(...undescribedProperties(option, path));
  return missing;
}

if (import.meta.main) {
  const schema = catalogueEntrySchema();
  const missing = undescribedProperties(schema);
  if (missing.length > 0) {
    console.error(`Catalogue entry fields without a description (add .describe() to AppFile): ${missing.join(', ')}`);
    process.exit(1);
  }
  keepGenerated(CATALOGUE_SCHEMA_FILE, `${JSON.stringify(schema, null, 2)}\n`, 'the catalogue entry schema (AppFile)');
  console.log('Catalogue entry schema: every field described; docs/catalogue-entry.schema.json up to date.');
}
