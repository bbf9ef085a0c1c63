// Times the Studio's statistics calls (decision 101, docs/performance.md) on a database filled by
// scripts/studio-stats-data.ts: `DATABASE_URL=… node scripts/studio-stats-bench.ts <app id>… [--runs 7]`
// calls the statistics (what the page's loader and `GET /studio/games/{id}/stats` run) and the CSV
// export for each game and range, as the game's developer, and prints the median and the slowest
// of the runs after one warm-up call.
import { parseArgs } from 'node:util';
import { STATS_RANGES } from '../common/api/studio-stats.schema.ts';
import { loadConfig } from '../server/config.ts';
import { openDatabase } from '../server/db/client.ts';
import { createServices } from '../server/services.ts';

const { values, positionals } = parseArgs({ options: { runs: { type: 'string', default: '7' } }, allowPositionals: true });
const runs = Number(values.runs);
const config = loadConfig();
const database = await openDatabase(config.databaseUrl, { poolSize: config.databasePoolSize, schema: config.databaseSchema });
const services = createServices(database, config);
const median = (times: number[]) => times.toSorted((a, b) => a - b)[Math.floor(times.length / 2)]!;
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
