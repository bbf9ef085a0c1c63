import SQLite from 'better-sqlite3';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { AppError } from './app-error.ts';
import { isServiceOutage, outageError } from './service-outage.ts';

/** The error a real call throws. */
async function thrownBy(action: () => unknown): Promise<unknown> {
  try {
    await action();
  } catch (error) {
    return error;
  }
  throw new Error('did not throw');
}

describe('isServiceOutage', () => {
  it('recognises a full SQLite database, and not a constraint broken by the caller', async () => {
    const db = new SQLite(':memory:');
    db.exec('create table t (id integer primary key, v text)');
    db.pragma('max_page_count = 3');
    const full = await thrownBy(() => {
      for (let n = 0; ; n++) db.prepare('insert into t (v) values (?)').run('x'.repeat(4000));
    });
    expect((full as { code: string }).code).toBe('SQLITE_FULL');
    expect(isServiceOutage(full)).toBe(true);
    db.pragma('max_page_count = 1000');
    db.prepare('insert into t (id, v) values (1000, ?)').run('a');
    const duplicate = await thrownBy(() => db.prepare('insert into t (id, v) values (1000, ?)').run('b'));
    expect(isServiceOutage(duplicate)).toBe(false);
    db.close();
  });

  it('recognises a PostgreSQL that refuses connections, also as the cause of another error', async () => {
    const client = new pg.Client({ connectionString: 'postgres://postgres@127.0.0.1:1/none' });
    const refused = await thrownBy(() => client.connect());
    expect(isServiceOutage(refused)).toBe(true);
    expect(isServiceOutage(new Error('query failed', { cause: refused }))).toBe(true);
  });

  it('leaves bugs and deliberate refusals alone', () => {
    expect(isServiceOutage(new TypeError("Cannot read properties of undefined (reading 'id')"))).toBe(false);
    expect(isServiceOutage(new AppError('conflict'))).toBe(false);
    expect(isServiceOutage(new AppError('unavailable'))).toBe(true);
    expect(isServiceOutage(null)).toBe(false);
  });

  it('makes a 503 with Retry-After', () => {
    expect(outageError(new Error('x')).options).toMatchObject({ headers: { 'Retry-After': '5' }, data: { retryAfter: 5 } });
  });
});
