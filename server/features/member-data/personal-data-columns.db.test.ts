import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentedOwners } from '#server/testing/documented-owners.ts';
import { openTestDatabase, type TestDatabase } from '#server/testing/test-database.ts';
import { ERASURE_RULES, PERSONAL_DATA_COLUMNS } from './personal-data-columns.ts';

/** Every column of every table with personal data has a rule (decision 144): a new one fails here until it gets one. */
describe('the rules of personal data, column by column', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(() => database.drop());

  it('cover exactly the tables docs/architecture.md says hold personal data', () => {
    const personal = [...documentedOwners(readFileSync('docs/architecture.md', 'utf8'))].filter(([, row]) => row.personal === 'yes').map(([table]) => table);
    expect(Object.keys(PERSONAL_DATA_COLUMNS).sort()).toEqual(personal.sort());
  });

  it('name every column of those tables in the migrated schema, and no other', async () => {
    const tables = await database.db.introspection.getTables();
    const missing: string[] = [];
    const unknown: string[] = [];
    for (const [table, rule] of Object.entries(PERSONAL_DATA_COLUMNS)) {
      // On PostgreSQL each test database is a schema of its own (others may exist at once): this one's.
      const found = tables.find((t) => t.name === table && (database.kind !== 'postgres' || t.schema === database.env.DATABASE_SCHEMA));
      const columns = found?.columns.map((column) => column.name) ?? [];
      missing.push(...columns.filter((column) => !(column in rule.columns)).map((column) => `${table}.${column}`));
      unknown.push(
        ...Object.keys(rule.columns)
          .filter((column) => !columns.includes(column))
          .map((column) => `${table}.${column}`),
      );
    }
    expect(missing, 'columns without a rule').toEqual([]);
    expect(unknown, 'rules for columns that do not exist').toEqual([]);
  });

  it('give a reason wherever a column about the member stays out of the archive', () => {
    const unexplained = Object.entries(PERSONAL_DATA_COLUMNS)
      .filter(([, rule]) => Object.values(rule.columns).includes('not-archived') && !rule.why)
      .map(([table]) => table);
    expect(unexplained).toEqual([]);
  });

  it('say what an erasure does to every table, and to every column of a table whose rows stay (decision 147)', () => {
    expect(Object.keys(ERASURE_RULES).sort()).toEqual(Object.keys(PERSONAL_DATA_COLUMNS).sort());
    const unruled: string[] = [];
    for (const [table, erasure] of Object.entries(ERASURE_RULES)) {
      const columns = Object.keys(PERSONAL_DATA_COLUMNS[table]?.columns ?? {});
      if (erasure.rows === 'deleted' && (!erasure.by || !columns.includes(erasure.by))) unruled.push(`${table} (deleted by what?)`);
      if (erasure.rows === 'kept') {
        unruled.push(...columns.filter((column) => !(column in (erasure.columns ?? {}))).map((column) => `${table}.${column}`));
        unruled.push(
          ...Object.keys(erasure.columns ?? {})
            .filter((column) => !columns.includes(column))
            .map((column) => `${table}.${column} (no such column)`),
        );
      }
      if (erasure.rows !== 'deleted' && !erasure.why) unruled.push(`${table} (why?)`);
    }
    expect(unruled, 'erasure rules missing or wrong').toEqual([]);
  });
});
