// Times a studio's balances and statements on the data of scripts/earnings-data.ts (docs/performance.md, decision 149):
// `DATABASE_URL=postgres://postgres@127.0.0.1:5432/test DATABASE_SCHEMA=earnings_bench node scripts/earnings-bench.ts <studio id> [--runs 20]`
// Each call after one warm-up, `runs` times in a row: the median and the 95th percentile in milliseconds.
import { parseArgs } from 'node:util';
import { loadConfig } from '../server/config.ts';
import { openDatabase } from '../server/db/client.ts';
import { EarningsService } from '../server/features/earnings/earnings.service.ts';
import { LedgerRepository } from '../server/features/earnings/ledger.repository.ts';
import { StatementsRepository } from '../server/features/earnings/statements.repository.ts';
import { monthOf, previousMonth } from '../server/features/earnings/statement-months.ts';
import { systemClock } from '../server/lib/clock.ts';

const { values, positionals } = parseArgs({ options: { runs: { type: 'string', default: '20' } }, allowPositionals: true });
const studioId = Number(positionals[0]);
if (!Number.isInteger(studioId) || studioId <= 0) {
  console.error('earnings-bench: give the studio id scripts/earnings-data.ts printed');
  process.exit(2);
}
const runs = Number(values.runs);
const config = loadConfig();
const database = await openDatabase(config.databaseUrl, { poolSize: 10, schema: config.databaseSchema });
const db = database.db;
const earnings = new EarningsService({
  repository: new StatementsRepository(db),
  ledger: new LedgerRepository(db),
  config: config.earnings,
  clock: systemClock,
  studio: { requireDeveloper: async () => studioId },
});
const caller = { userId: studioId, tokenId: 0 };
const open = monthOf(new Date().toISOString());
const closed = previousMonth(open);

async function time(label: string, call: () => Promise<unknown>) {
  await call();
  const ms: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    const started = performance.now();
    await call();
    ms.push(performance.now() - started);
  }
  ms.sort((a, b) => a - b);
  const at = (q: number) => ms[Math.min(ms.length - 1, Math.ceil(q * ms.length) - 1)]!;
  console.log(`| ${label} | ${at(0.5).toFixed(1)} | ${at(0.95).toFixed(1)} |`);
}

try {
  console.log(`${runs} runs each after a warm-up; studio ${studioId}; closed month ${closed}, open month ${open}`);
  console.log('| call | median ms | p95 ms |\n|---|---:|---:|');
  await time('balances()', () => earnings.balances(studioId));
  await time(`statement(USD, ${closed}), closed`, () => earnings.statement(studioId, 'USD', closed));
  await time(`statement(USD, ${open}), open`, () => earnings.statement(studioId, 'USD', open));
  await time('months()', () => earnings.months(studioId));
  await time('the Earnings page (overview)', () => earnings.overview(caller));
  await time(`CSV of ${closed}`, () => earnings.statementCsv(studioId, 'USD', closed));
  await time('closeMonths() with nothing to close', () => earnings.closeMonths(new Date().toISOString()));
} finally {
  await database.close();
}
