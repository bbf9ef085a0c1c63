import { loadConfig } from '../../server/config.ts';
import { openDatabase } from '../../server/db/client.ts';

/**
 * The configured PostgreSQL database of a data-generating script (`scripts/*-data.ts`,
 * docs/performance.md) and the configuration it was read from; any other database stops the script, naming it.
 */
export async function openGeneratedDataDatabase(script: string) {
  const config = loadConfig();
  if (!config.databaseUrl.startsWith('postgres')) {
    console.error(`${script}: PostgreSQL only (DATABASE_URL=postgres://…)`);
    process.exit(2);
  }
  return { config, database: await openDatabase(config.databaseUrl, { poolSize: 1, schema: config.databaseSchema }) };
}

/** Runs one step of the generation and prints how long it took. */
export async function timedStep(label: string, run: () => Promise<unknown>): Promise<void> {
  const started = performance.now();
  await run();
  console.log(`${label}: ${((performance.now() - started) / 1000).toFixed(1)} s`);
}
