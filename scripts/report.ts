// Reports: `npm run report -- acquisition [--since YYYY-MM-DD]` prints sign-ups and paid orders
// per campaign source, medium and campaign (the utm tags accounts and orders were made with).
import { loadConfig } from '../server/config.ts';
import { openDatabase } from '../server/db/client.ts';
import { migrateToLatest } from '../server/db/migrate.ts';
import { AcquisitionRepository, formatAcquisition } from '../server/features/tracking/acquisition.repository.ts';

const [command, ...rest] = process.argv.slice(2);
const sinceIndex = rest.indexOf('--since');
const since = sinceIndex >= 0 ? rest[sinceIndex + 1] : '1970-01-01';
if (command !== 'acquisition' || !since || !/^\d{4}-\d{2}-\d{2}$/.test(since)) {
  process.stderr.write('usage: npm run report -- acquisition [--since YYYY-MM-DD]\n');
  process.exit(2);
}
const config = loadConfig();
const database = await openDatabase(config.databaseUrl, { poolSize: 2, schema: config.databaseSchema });
try {
  await migrateToLatest(database.db, database.kind);
  const rows = await new AcquisitionRepository(database.db).report(`${since}T00:00:00.000Z`);
  process.stdout.write(`Acquisition since ${since} (${database.description})\n${formatAcquisition(rows)}\n`);
} finally {
  await database.close();
}
