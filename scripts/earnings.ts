// Studios' earnings command (decision 149): `npm run earnings -- reconcile <report.csv> [--from YYYY-MM-DD --to YYYY-MM-DD]`
// compares Xsolla's transaction report with the ledger and prints every difference (docs/payments.md,
// "Reconciliation"). Exits 1 when there is any, 0 when none, 2 for a wrong command line or an unreadable file.
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { loadConfig } from '../server/config.ts';
import { openDatabase } from '../server/db/client.ts';
import { migrateToLatest } from '../server/db/migrate.ts';
import { createServices } from '../server/services.ts';
import type { ReconciliationDifference } from '../common/api/earnings-console.schema.ts';

const USAGE = 'usage: npm run earnings -- reconcile <report.csv> [--from YYYY-MM-DD] [--to YYYY-MM-DD]';
const DAY = /^\d{4}-\d{2}-\d{2}$/;

function usage(message?: string): never {
  if (message) console.error(message);
  console.error(USAGE);
  process.exit(2);
}

let parsed;
try {
  parsed = parseArgs({ allowPositionals: true, options: { from: { type: 'string' }, to: { type: 'string' } } });
} catch (error) {
  usage((error as Error).message);
}
const [command, file] = parsed.positionals;
const { from, to } = parsed.values;
if (command !== 'reconcile' || !file || parsed.positionals.length !== 2) usage();
for (const day of [from, to]) if (day !== undefined && !(DAY.test(day) && Number.isFinite(Date.parse(day)))) usage(`${day}: not a day as YYYY-MM-DD`);

let report: string;
try {
  report = readFileSync(file, 'utf8');
} catch (error) {
  usage(`${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
}

const side = (s: ReconciliationDifference['report']) =>
  s === null ? '—' : `${s.currency ?? '?'} amount ${s.amount ?? '—'} fee ${s.fee ?? '—'} refunded ${s.refunded ?? '—'}`;

const config = loadConfig();
const database = await openDatabase(config.databaseUrl, { poolSize: 2, schema: config.databaseSchema });
try {
  await migrateToLatest(database.db, database.kind);
  const services = createServices(database, config);
  const result = await services.reconciliation.reconcile(report, { from, to });
  console.log(
    `${result.period.from ?? '…'} to ${result.period.to ?? '…'}: ${result.rows} report rows, ${result.ledgerPayments} ledger payments, ${result.matched} rows agree, ${result.differences.length} differences (amounts in minor units)`,
  );
  for (const d of result.differences)
    console.log(
      [
        d.kind,
        d.line === null ? 'ledger' : `line ${d.line}`,
        d.orderId ?? '—',
        d.transactionId ?? '—',
        `report: ${side(d.report)}`,
        `ledger: ${side(d.ledger)}`,
        d.note ?? '',
      ]
        .join('\t')
        .trimEnd(),
    );
  if (result.differences.length > 0) process.exitCode = 1;
  await services.contentChanges.close();
  await services.rateLimiter.close();
} finally {
  await database.close();
}
