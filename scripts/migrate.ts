// `npm run migrate`: brings the database named by DATABASE_URL (and DATABASE_SCHEMA) to the latest
// version and exits. Deployments run it once before starting or replacing instances; instances
// also migrate at start, one at a time under a lock, so running it is optional (decision 076).
import { loadConfigOrExit } from '../server/config.ts';
import { connectDatabase } from '../server/db/connect.ts';
import { migrateToLatest } from '../server/db/migrate.ts';

const config = loadConfigOrExit();
const database = await connectDatabase(config.databaseUrl, {
  poolSize: 2,
  schema: config.databaseSchema,
  timeoutSeconds: config.databaseConnectTimeoutSeconds,
  print: (line) => console.error(line),
});
if (!database) process.exit(1);
try {
  const results = await migrateToLatest(database.db, database.kind);
  console.log(
    results.length ? `applied to ${database.description}: ${results.map((r) => r.migrationName).join(', ')}` : `${database.description} is up to date`,
  );
} finally {
  await database.close();
}
