import type { ColumnDefinitionBuilder, CreateTableBuilder } from 'kysely';
import type { DatabaseKind } from '../client.ts';

/** An auto-increment integer primary key in either dialect. */
export function withId<T extends string>(kind: DatabaseKind, table: CreateTableBuilder<T, never>) {
  return table.addColumn('id', kind === 'sqlite' ? 'integer' : 'integer', (col: ColumnDefinitionBuilder) =>
    kind === 'sqlite' ? col.primaryKey().autoIncrement() : col.primaryKey().generatedByDefaultAsIdentity(),
  );
}
