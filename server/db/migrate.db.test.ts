import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../testing/test-database.ts';
import { migrateDownAll, migrateToLatest } from './migrate.ts';
import { saveTotals } from './migrations/0010-save-totals.ts';
import { socialChallenges } from './migrations/0033-social-challenges.ts';

/** Tables of this database only: on PostgreSQL other schemas (parallel runs) are left out. */
async function ownTables(database: Awaited<ReturnType<typeof openTestDatabase>>): Promise<string[]> {
  const tables = await database.db.introspection.getTables();
  if (database.kind !== 'postgres') return tables.map((t) => t.name);
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(database.db);
  return tables.filter((t) => t.schema === rows[0]?.schema).map((t) => t.name);
}

describe('migrations', () => {
  let database: Awaited<ReturnType<typeof openTestDatabase>>;
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(() => database.drop());

  it('create every table, are recorded, and run again as a no-op', async () => {
    const tables = await ownTables(database);
    for (const table of ['users', 'access_tokens', 'apps', 'app_translations', 'articles', 'pages', 'redirects', 'played_games']) {
      expect(tables).toContain(table);
    }
    const again = await migrateToLatest(database.db, database.kind);
    expect(again).toEqual([]);
  });

  it('go down and up again cleanly', async () => {
    await migrateDownAll(database.db, database.kind);
    const after = await ownTables(database);
    expect(after).not.toContain('users');
    const results = await migrateToLatest(database.db, database.kind);
    expect(results[0]?.migrationName).toBe('0001-foundation');
    expect(results.map((r) => r.migrationName)).toContain('0002-catalogue-search');
    expect(results.every((r) => r.status === 'Success')).toBe(true);
  });

  it('enforce the constraints the services rely on', async () => {
    const now = new Date().toISOString();
    const { id } = await database.db.insertInto('users').values({ is_guest: 1, created_at: now, updated_at: now }).returning('id').executeTakeFirstOrThrow();
    await database.db.insertInto('access_tokens').values({ user_id: id, token_hash: 'h', name: 'x', created_at: now }).execute();
    await expect(database.db.insertInto('access_tokens').values({ user_id: id, token_hash: 'h', name: 'y', created_at: now }).execute()).rejects.toThrow();
    await expect(database.db.insertInto('access_tokens').values({ user_id: 999_999, token_hash: 'z', name: 'y', created_at: now }).execute()).rejects.toThrow();
    // Deleting a user removes its tokens.
    await database.db.deleteFrom('users').where('id', '=', id).execute();
    const left = await database.db
      .selectFrom('access_tokens')
      .select(sql<number>`count(*)`.as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(left.n)).toBe(0);
  });

  it('count the saves that existed before the per-game totals', async () => {
    const now = new Date().toISOString();
    const user = await database.db.insertInto('users').values({ is_guest: 1, created_at: now, updated_at: now }).returning('id').executeTakeFirstOrThrow();
    const app = {
      type: 'game' as const,
      entry_url: '/g/',
      thumbnail: 't.png',
      screenshots: '[]',
      orientation: 'any' as const,
      width: 1,
      height: 1,
      developer: null,
      featured: 0,
      play_count: 0,
      released_at: now,
      published: 1,
      created_at: now,
      updated_at: now,
    };
    const a = await database.db
      .insertInto('apps')
      .values({ ...app, slug: 'totals-a' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const b = await database.db
      .insertInto('apps')
      .values({ ...app, slug: 'totals-b' })
      .returning('id')
      .executeTakeFirstOrThrow();
    await saveTotals().down(database.db as unknown as Kysely<unknown>);
    const save = (appId: number, key: string, size: number) => ({ user_id: user.id, app_id: appId, key, value: '0', size, updated_at: now });
    await database.db
      .insertInto('game_saves')
      .values([save(a.id, 'one', 100), save(a.id, 'two', 250), save(b.id, 'one', 7)])
      .execute();
    await saveTotals().up(database.db as unknown as Kysely<unknown>);
    const totals = await database.db.selectFrom('game_save_totals').select(['app_id', 'total']).where('user_id', '=', user.id).orderBy('app_id').execute();
    expect(totals.map((t) => [t.app_id, Number(t.total)])).toEqual([
      [a.id, 350],
      [b.id, 7],
    ]);
  });

  it('move the social flows and codes under way into their own table, and leave the passkey challenges', async () => {
    const now = new Date().toISOString();
    const later = new Date(Date.now() + 600_000).toISOString();
    await socialChallenges().down(database.db as unknown as Kysely<unknown>);
    const row = (id: string, purpose: string) => ({
      id,
      purpose,
      challenge: `c-${id}`,
      user_id: null,
      payload: '{"platform":"google"}',
      expires_at: later,
      created_at: now,
    });
    await database.db
      .insertInto('auth_challenges')
      .values([row('oauth-flow:moved', 'oauth-flow'), row('whatsapp-code:+15550001', 'whatsapp-code'), row('passkey-stays', 'registration')])
      .execute();
    await socialChallenges().up(database.db as unknown as Kysely<unknown>);
    const social = await database.db.selectFrom('social_challenges').select(['id', 'purpose', 'challenge', 'payload']).orderBy('id').execute();
    expect(social).toEqual([
      { id: 'oauth-flow:moved', purpose: 'oauth-flow', challenge: 'c-oauth-flow:moved', payload: '{"platform":"google"}' },
      { id: 'whatsapp-code:+15550001', purpose: 'whatsapp-code', challenge: 'c-whatsapp-code:+15550001', payload: '{"platform":"google"}' },
    ]);
    const left = await database.db
      .selectFrom('auth_challenges')
      .select('id')
      .where('id', 'in', ['oauth-flow:moved', 'whatsapp-code:+15550001', 'passkey-stays'])
      .execute();
    expect(left).toEqual([{ id: 'passkey-stays' }]);
  });
});
