import { readdirSync, readFileSync, statSync } from 'node:fs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentedOwners } from '../testing/documented-owners.ts';
import { openTestDatabase, type TestDatabase } from '../testing/test-database.ts';

/** The TypeScript files under a folder that run in the product: no tests, test support or migrations. */
function productFiles(folder: string): string[] {
  return readdirSync(folder).flatMap((entry) => {
    const path = `${folder}/${entry}`;
    if (statSync(path).isDirectory()) return path === 'server/testing' || path === 'server/db/migrations' ? [] : productFiles(path);
    return entry.endsWith('.ts') && !entry.endsWith('.test.ts') ? [path] : [];
  });
}

const WRITE = /\b(?:insertInto|updateTable|deleteFrom|replaceInto|mergeInto)\(\s*'([a-z_]+)|\b(?:INSERT\s+INTO|UPDATE|DELETE\s+FROM)\s+([a-z_]+)/g;

/** The feature a product file belongs to; `server/lib` for itself; null for `server/db`. */
const unitOf = (file: string) => /^server\/features\/([^/]+)\//.exec(file)?.[1] ?? (file.startsWith('server/lib/') ? 'server/lib' : null);

/**
 * Which feature writes which table, read from the source: Kysely's insert, update, delete and
 * merge, and raw SQL. A file of a feature writes for its feature; `server/lib` for itself; a helper
 * in `server/db` (the save totals, the items of a game) for each feature that imports it.
 */
export function writersOf(files: string[], read: (file: string) => string = (file) => readFileSync(file, 'utf8')): Map<string, Set<string>> {
  const writers = new Map<string, Set<string>>();
  for (const file of files) {
    const tables = new Set([...read(file).matchAll(WRITE)].map((m) => (m[1] ?? m[2])!));
    if (tables.size === 0) continue;
    const module = file.split('/').pop()!;
    const units = unitOf(file)
      ? [unitOf(file)!]
      : files.filter((other) => unitOf(other) && read(other).includes(`/db/${module}'`)).map((other) => unitOf(other)!);
    for (const table of tables) for (const unit of units) writers.set(table, (writers.get(table) ?? new Set()).add(unit));
  }
  return writers;
}

/** Tables of this database only: on PostgreSQL other schemas (parallel runs) are left out; Kysely's own are not ours. */
async function ownTables(database: TestDatabase): Promise<string[]> {
  const tables = await database.db.introspection.getTables();
  const { rows } = database.kind === 'postgres' ? await sql<{ schema: string }>`select current_schema() as schema`.execute(database.db) : { rows: [] };
  return tables.filter((t) => database.kind !== 'postgres' || t.schema === rows[0]?.schema).map((t) => t.name);
}

describe('tables and their owners (docs/architecture.md)', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(() => database.drop());
  const owners = documentedOwners(readFileSync('docs/architecture.md', 'utf8'));

  it('name every table of the migrated schema, and no other', async () => {
    const all = await ownTables(database);
    // SQLite keeps a full-text index (app_search) in shadow tables of its own.
    const shadow = (name: string) => /_(config|content|data|docsize|idx)$/.test(name) && all.includes(name.replace(/_[a-z]+$/, ''));
    const tables = all.filter((name) => !name.startsWith('kysely_') && !shadow(name));
    expect(tables.filter((table) => !owners.has(table)).sort()).toEqual([]);
    expect([...owners.keys()].filter((table) => !tables.includes(table)).sort()).toEqual([]);
  });

  it('give each an owner that is a feature (or server/lib) and say whether it holds personal data', () => {
    const features = new Set([...readdirSync('server/features'), 'server/lib']);
    expect([...owners].filter(([, row]) => !features.has(row.owner) || !['yes', 'no'].includes(row.personal)).map(([table]) => table)).toEqual([]);
  });

  it('are written only by their owner', () => {
    const foreign: Record<string, string[]> = {};
    for (const [table, units] of writersOf(productFiles('server'))) {
      const others = [...units].filter((unit) => unit !== owners.get(table)?.owner).sort();
      if (others.length > 0) foreign[table] = others;
    }
    // Another feature asks the owner's service, which writes (decisions 128, 137, 139, 140).
    expect(foreign, 'tables written by a feature that does not own them').toEqual({});
  });
});

describe('the scan of writes', () => {
  it('sees Kysely writes, raw SQL and a helper in server/db as writes of the features that import it', () => {
    const sources: Record<string, string> = {
      'server/features/planted/planted.repository.ts': "db.insertInto('users'); sql`UPDATE orders SET x = 1`; db.deleteFrom( 'favourites')",
      'server/features/other/other.repository.ts': "import { x } from '#server/db/planted-helper.ts';",
      'server/db/planted-helper.ts': "trx.updateTable('game_save_totals')",
    };
    const writers = writersOf(Object.keys(sources), (file) => sources[file]!);
    expect(Object.fromEntries([...writers].map(([table, units]) => [table, [...units]]))).toEqual({
      users: ['planted'],
      orders: ['planted'],
      favourites: ['planted'],
      game_save_totals: ['other'],
    });
  });
});
