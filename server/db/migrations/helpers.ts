import { type ColumnDefinitionBuilder, type CreateTableBuilder, type Kysely, sql } from 'kysely';
import type { DatabaseKind } from '../client.ts';

/** An auto-increment integer primary key in either dialect. */
export function withId<T extends string>(kind: DatabaseKind, table: CreateTableBuilder<T, never>) {
  return table.addColumn('id', kind === 'sqlite' ? 'integer' : 'integer', (col: ColumnDefinitionBuilder) =>
    kind === 'sqlite' ? col.primaryKey().autoIncrement() : col.primaryKey().generatedByDefaultAsIdentity(),
  );
}

/** A row trigger written once for both dialects: `when` and `body` are plain SQL that both accept. */
export interface Trigger {
  name: string;
  /** e.g. `after insert on game_sessions`, or `after update of a, b on t`. */
  event: string;
  when: string;
  body: string[];
}

/** SQLite runs the statements in the trigger; PostgreSQL in a plpgsql function of the same name. */
export async function createTriggers(kind: DatabaseKind, db: Kysely<unknown>, triggers: Trigger[]) {
  for (const trigger of triggers) {
    const body = trigger.body.map((statement) => `${statement};`).join('\n');
    if (kind === 'sqlite') {
      await sql.raw(`create trigger ${trigger.name} ${trigger.event} for each row when ${trigger.when} begin\n${body}\nend`).execute(db);
    } else {
      await sql.raw(`create function ${trigger.name}() returns trigger language plpgsql as $$ begin\n${body}\nreturn null; end $$`).execute(db);
      await sql.raw(`create trigger ${trigger.name} ${trigger.event} for each row when (${trigger.when}) execute function ${trigger.name}()`).execute(db);
    }
  }
}

export async function dropTriggers(kind: DatabaseKind, db: Kysely<unknown>, triggers: Trigger[]) {
  for (const trigger of triggers) {
    const table = trigger.event.split(' on ')[1]!;
    await sql.raw(kind === 'sqlite' ? `drop trigger if exists ${trigger.name}` : `drop trigger if exists ${trigger.name} on ${table}`).execute(db);
    if (kind === 'postgres') await sql.raw(`drop function if exists ${trigger.name}()`).execute(db);
  }
}
