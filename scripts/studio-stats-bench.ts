// Times the Studio's statistics calls (decision 101, docs/performance.md) on a database filled by
// scripts/studio-stats-data.ts: `DATABASE_URL=… node scripts/studio-stats-bench.ts <app id>… [--runs 7]`
// calls the statistics (what the page's loader and `GET /studio/games/{id}/stats` run) and the CSV
// export for each game and range, as the game's developer, and prints the median and the slowest
// of the runs after one warm-up call.
// `--writes N` (PostgreSQL) times instead what the rollup's triggers (migrations 0025 and 0026) add to
// the play page's writes: N first plays (a session, its first report and the played history) by
// new accounts of a game made for the purpose, with the triggers and without (replica mode), in
// alternating rounds on one connection; the game and the accounts are removed afterwards.
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { STATS_RANGES } from '../common/api/studio-stats.schema.ts';
import { loadConfig } from '../server/config.ts';
import { openDatabase } from '../server/db/client.ts';
import { createServices } from '../server/services.ts';
import { insertDeveloperGame } from '../server/testing/developer-games.ts';
import { MemberLibraryRepository } from '../server/features/catalogue/member-library.repository.ts';
import { GameSessionsRepository } from '../server/features/tracking/game-sessions.repository.ts';

const { values, positionals } = parseArgs({ options: { runs: { type: 'string', default: '7' }, writes: { type: 'string' } }, allowPositionals: true });
const runs = Number(values.runs);
const config = loadConfig();
const writes = values.writes === undefined ? 0 : Number(values.writes);
const database = await openDatabase(config.databaseUrl, { poolSize: writes > 0 ? 1 : config.databasePoolSize, schema: config.databaseSchema });
const services = createServices(database, config);
const median = (times: number[]) => times.toSorted((a, b) => a - b)[Math.floor(times.length / 2)]!;
const mean = (times: number[]) => times.reduce((sum, time) => sum + time, 0) / times.length;
/** Milliseconds per first play (session insert, first report, played history), with the triggers or without. */
async function timeWrites(count: number, triggers: boolean, appId: number, users: number[]): Promise<number[]> {
  const db = database.db;
  const sessions = new GameSessionsRepository(db);
  const library = new MemberLibraryRepository(db);
  await sql.raw(`set session_replication_role = ${triggers ? 'origin' : 'replica'}`).execute(db);
  const times: number[] = [];
  try {
    for (let index = 0; index < count; index += 1) {
      const now = new Date().toISOString();
      const key = `writes-${triggers ? 't' : 'r'}-${index}-${Date.now()}`;
      const started = performance.now();
      await sessions.insert({
        session_key: key,
        app_id: appId,
        user_id: users[index]!,
        day: now.slice(0, 10),
        loading_ms: 500,
        to_gameplay_ms: null,
        play_ms: 0,
        created_at: now,
        updated_at: now,
      });
      await sessions.update(key, { loadingMs: 500, toGameplayMs: 1200, playMs: 15_000 }, now);
      await library.recordPlay(users[index]!, appId, now);
      times.push(performance.now() - started);
    }
  } finally {
    await sql`set session_replication_role = origin`.execute(db);
  }
  return times;
}

if (writes > 0) {
  const db = database.db;
  const stamp = new Date().toISOString();
  // The game's developer is the first of the accounts removed afterwards.
  const owner = await db.insertInto('users').values({ is_guest: 0, created_at: stamp, updated_at: stamp }).returning('id').executeTakeFirstOrThrow();
  const app = await insertDeveloperGame(db, owner.id, { slug: `writes-${Date.now()}` });
  const users: number[] = [owner.id];
  try {
    const rounds = 4;
    const perRound = Math.ceil(writes / rounds);
    const figures = { triggers: [] as number[], replica: [] as number[] };
    for (let round = 0; round < rounds * 2; round += 1) {
      const triggers = round % 2 === 0;
      const accounts = await db
        .insertInto('users')
        .values(Array.from({ length: perRound }, () => ({ is_guest: 1, created_at: stamp, updated_at: stamp })))
        .returning('id')
        .execute();
      users.push(...accounts.map((row) => row.id));
      (triggers ? figures.triggers : figures.replica).push(
        ...(await timeWrites(
          perRound,
          triggers,
          app.id,
          accounts.map((row) => row.id),
        )),
      );
    }
    console.log('| first play (session, report, played history) | count | median ms | mean ms | p95 ms |');
    console.log('|---|---|---|---|---|');
    for (const [label, times] of [
      ['with the rollup triggers', figures.triggers],
      ['without triggers (replica mode)', figures.replica],
    ] as const) {
      const sorted = times.toSorted((a, b) => a - b);
      console.log(
        `| ${label} | ${times.length} | ${median(times).toFixed(2)} | ${mean(times).toFixed(2)} | ${sorted[Math.floor(sorted.length * 0.95)]!.toFixed(2)} |`,
      );
    }
  } finally {
    await db.deleteFrom('apps').where('id', '=', app.id).execute();
    for (let from = 0; from < users.length; from += 1000)
      await db
        .deleteFrom('users')
        .where('id', 'in', users.slice(from, from + 1000))
        .execute();
    await database.close();
  }
  process.exit(0);
}

try {
  console.log('| game | plays in 90 days | call | days | median ms | slowest ms |');
  console.log('|---|---|---|---|---|---|');
  for (const appId of positionals.map(Number)) {
    const developer = (await database.db.selectFrom('apps').select('developer_user_id').where('id', '=', appId).executeTakeFirstOrThrow()).developer_user_id;
    const caller = { userId: developer!, tokenId: 0 };
    const plays = (await services.studioStats.stats(caller, appId, 90, 'en')).summary.plays;
    for (const call of ['stats', 'csv'] as const) {
      for (const days of STATS_RANGES) {
        const once = () => (call === 'stats' ? services.studioStats.stats(caller, appId, days, 'en') : services.studioStats.csv(caller, appId, days, 'en'));
        await once();
        const times: number[] = [];
        for (let run = 0; run < runs; run += 1) {
          const started = performance.now();
          await once();
          times.push(performance.now() - started);
        }
        console.log(`| ${appId} | ${plays} | ${call} | ${days} | ${median(times).toFixed(0)} | ${Math.max(...times).toFixed(0)} |`);
      }
    }
  }
} finally {
  await services.contentChanges.close();
  await services.rateLimiter.close();
  await database.close();
}
