// Generated play data for measuring the Studio's statistics (docs/performance.md, decision 101):
// `DATABASE_URL=postgres://postgres@127.0.0.1:5432/playport_stats node scripts/studio-stats-data.ts [--plays 10000000]`
// inserts games, accounts, play sessions spread over the last 365 UTC days (a few games much more
// played than the rest), the played history derived from them, and orders with some refunds, all
// with generate_series in a handful of statements, and the daily rollup of migration 0025 and the
// accounts' first games of migration 0026 counted from them. PostgreSQL only; run it on a scratch database.
// It prints the id and developer token of the busiest game for the measurements.
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { migrateToLatest } from '../server/db/migrate.ts';
import { rebuildGameStats } from '../server/db/migrations/0025-game-stats-rollup.ts';
import { rebuildFirstGames } from '../server/db/migrations/0026-first-games.ts';
import { randomAlphanumeric, sha256Hex } from '../server/lib/random.ts';
import { openGeneratedDataDatabase, timedStep } from './lib/generated-data.ts';

const { values } = parseArgs({
  options: { plays: { type: 'string', default: '10000000' }, games: { type: 'string', default: '200' }, accounts: { type: 'string', default: '1000000' } },
});
const plays = Number(values.plays);
const games = Number(values.games);
const accounts = Number(values.accounts);
const { database } = await openGeneratedDataDatabase('studio-stats-data');
const db = database.db;
const step = timedStep;
try {
  await migrateToLatest(db, database.kind);
  const now = new Date();
  const today = now.toISOString().slice(0, 10);
  const stamp = now.toISOString();
  const first =
    (
      await db
        .selectFrom('apps')
        .select((eb) => eb.fn.max('id').as('id'))
        .executeTakeFirst()
    )?.id ?? 0;
  const firstUser =
    (
      await db
        .selectFrom('users')
        .select((eb) => eb.fn.max('id').as('id'))
        .executeTakeFirst()
    )?.id ?? 0;
  const tag = randomBytes(3).toString('hex');

  await step(`${accounts} accounts`, () =>
    sql`insert into users (nickname, is_guest, created_at, updated_at)
      select null, case when i % 4 = 0 then 0 else 1 end,
        to_char((${sql.lit(today)}::date - 400 + (i % 400)) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.000"Z"'), ${stamp}
      from generate_series(1, ${sql.lit(accounts)}) as i`.execute(db),
  );
  const [owner] = (await sql<{ id: number }>`select max(id) as id from users`.execute(db)).rows;
  await sql`update users set is_guest = 0, username = ${`stats-owner-${tag}`}, username_normalized = ${`stats-owner-${tag}`} where id = ${owner!.id}`.execute(
    db,
  );

  await step(`${games} games`, () =>
    sql`insert into apps (slug, type, entry_url, thumbnail, screenshots, orientation, width, height, developer, featured, play_count, released_at, published, developer_user_id, created_at, updated_at)
      select 'stats-' || ${tag} || '-' || i, 'game', 'https://example.test/' || i || '/index.html', '', '[]', 'any', 800, 600, null, 0, 0, ${stamp}, 1, ${owner!.id}, ${stamp}, ${stamp}
      from generate_series(1, ${sql.lit(games)}) as i`.execute(db),
  );
  await sql`insert into app_items (app_id, sku, price_minor, currency, names, kind, active, created_at, updated_at)
    select a.id, 'coins-' || s, 99 * s, case when s = 3 then 'EUR' else 'USD' end, '{"en":"Coins"}', 'consumable', 1, ${stamp}, ${stamp}
    from apps a cross join generate_series(1, 3) as s where a.id > ${sql.lit(first)}`.execute(db);

  // Sessions in time order, as they arrive: game k among G is chosen with probability about
  // (sqrt(k+1) - sqrt(k)) / sqrt(G), so the busiest game has about 7 % of all plays at G = 200.
  // Loading is many times faster without maintaining the indexes row by row: they are dropped for the
  // load and built again afterwards with migrations 0015's and 0022's definitions, whatever happens meanwhile;
  // the foreign keys are not checked row by row either (the ids come from the rows made above).
  await sql`set session_replication_role = replica`.execute(db);
  await sql`set maintenance_work_mem = '512MB'`.execute(db);
  await sql`drop index game_sessions_app_day_figures`.execute(db);
  await sql`drop index game_sessions_user_app_day`.execute(db);
  await sql`alter table game_sessions drop constraint game_sessions_session_key_key`.execute(db);
  try {
    await loadPlays();
  } finally {
    await step('indexes of game_sessions', async () => {
      await sql`alter table game_sessions add constraint game_sessions_session_key_key unique (session_key)`.execute(db);
      await sql`create index game_sessions_app_day_figures on game_sessions (app_id, day, user_id, play_ms, to_gameplay_ms)`.execute(db);
      await sql`create index game_sessions_user_app_day on game_sessions (user_id, app_id, day)`.execute(db);
    });
    await sql`set session_replication_role = origin`.execute(db);
  }
  async function loadPlays() {
    const chunk = 1_000_000;
    for (let from = 0; from < plays; from += chunk) {
      const to = Math.min(plays, from + chunk);
      await step(`plays ${from + 1}…${to}`, () =>
        sql`insert into game_sessions (session_key, app_id, user_id, day, loading_ms, to_gameplay_ms, play_ms, reports, created_at, updated_at)
        select 'gen-' || ${tag} || '-' || i, ${sql.lit(first)} + 1 + floor(${sql.lit(games)} * r.g * r.g)::int, ${sql.lit(firstUser)} + 1 + floor(${sql.lit(accounts)} * r.u)::int,
          to_char(t, 'YYYY-MM-DD'), 500 + floor(r.l * 4000)::int, case when r.l < 0.9 then 1000 + floor(r.l * 9000)::int end,
          floor(r.p * r.p * 1800000)::int, 1 + floor(r.p * 10)::int,
          to_char(t, 'YYYY-MM-DD"T"HH24:MI:SS.000"Z"'), to_char(t, 'YYYY-MM-DD"T"HH24:MI:SS.000"Z"')
        from generate_series(${sql.lit(from + 1)}, ${sql.lit(to)}) as i
        cross join lateral (select random() + 0 * i as g, random() as u, random() as l, random() as p) as r
        cross join lateral (select ${sql.lit(today)}::date - 364 + ((i - 1)::float8 / ${sql.lit(plays)} * 365) * interval '1 day' as t) as d`.execute(db),
      );
    }
  }
  // Likewise the played history's secondary indexes (migrations 0001 and 0022); rows in the order of
  // its primary key, so that index grows at its end.
  // Loaded in replica mode too: the first-game triggers (migration 0026) would update an account per row.
  await sql`drop index played_games_recent_idx`.execute(db);
  await sql`drop index played_games_app_first`.execute(db);
  await sql`set session_replication_role = replica`.execute(db);
  try {
    await step('played history', () =>
      sql`insert into played_games (user_id, app_id, play_count, first_played_at, last_played_at)
        select user_id, app_id, count(*), min(created_at), max(created_at) from game_sessions where session_key like ${`gen-${tag}-%`}
        group by user_id, app_id
        order by user_id, app_id
        on conflict do nothing`.execute(db),
    );
  } finally {
    await step('indexes of played_games', async () => {
      await sql`create index played_games_recent_idx on played_games (user_id, last_played_at)`.execute(db);
      await sql`create index played_games_app_first on played_games (app_id, first_played_at)`.execute(db);
    });
    await sql`set session_replication_role = origin`.execute(db);
  }
  await step('orders (1 in 50 plays) and refunds (1 in 20 orders)', async () => {
    await sql`insert into orders (public_id, user_id, app_id, item_id, sku, amount_minor, currency, status, provider, idempotency_key, campaign, created_at, updated_at, paid_at)
      select 'gen-' || ${tag} || '-' || s.id, s.user_id, s.app_id, i.id, i.sku, i.price_minor, i.currency,
        case when (s.id / 50) % 20 = 0 then 'refunded' else 'paid' end, 'sandbox', 'gen-' || s.id, null, s.created_at, s.created_at, s.created_at
      from game_sessions s join app_items i on i.app_id = s.app_id and i.sku = 'coins-' || (1 + s.id % 3)
      where s.session_key like ${`gen-${tag}-%`} and s.id % 50 = 0`.execute(db);
    await sql`insert into order_events (order_id, type, event_key, from_status, to_status, payload, created_at)
      select id, 'paid', 'paid', 'pending', 'paid', null, paid_at from orders where public_id like ${`gen-${tag}-%`}`.execute(db);
    await sql`insert into order_events (order_id, type, event_key, from_status, to_status, payload, created_at)
      select id, 'refunded', 'refund', 'paid', 'refunded', null,
        to_char(paid_at::timestamptz + interval '2 days', 'YYYY-MM-DD"T"HH24:MI:SS.000"Z"')
      from orders where public_id like ${`gen-${tag}-%`} and status = 'refunded'`.execute(db);
  });
  // The triggers of the daily rollup (migration 0025) do not fire in replica mode: count the sessions
  // in at once, also in replica mode (the rebuild sets the counts itself; a trigger per row took minutes).
  await sql`set session_replication_role = replica`.execute(db);
  try {
    await step('daily rollup', () => rebuildGameStats(db));
    await step('first games', () => rebuildFirstGames(db));
  } finally {
    await sql`set session_replication_role = origin`.execute(db);
  }
  await step('analyze', () => sql`analyze`.execute(db));

  // A developer token for the owner of every generated game, to call the API as they would.
  const secret = randomAlphanumeric(40);
  const token = await db
    .insertInto('access_tokens')
    .values({ user_id: owner!.id, token_hash: sha256Hex(secret), name: 'stats-bench', last_used_at: null, expires_at: null, created_at: stamp })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('developer_profiles')
    .values({ user_id: owner!.id, studio_name: 'Stats bench', contact_email: 'bench@example.test', created_at: stamp, updated_at: stamp })
    .onConflict((oc) => oc.column('user_id').doNothing())
    .execute();
  const busiest = await sql<{
    app_id: number;
    n: number;
  }>`select app_id, count(*) as n from game_sessions where app_id > ${sql.lit(first)} group by app_id order by n desc limit 1`.execute(db);
  const quiet = await sql<{
    app_id: number;
    n: number;
  }>`select app_id, count(*) as n from game_sessions where app_id > ${sql.lit(first)} group by app_id order by n limit 1`.execute(db);
  console.log(JSON.stringify({ busiest: busiest.rows[0], quietest: quiet.rows[0], developer: owner!.id, token: `${token.id}|${secret}` }));
} finally {
  await database.close();
}
