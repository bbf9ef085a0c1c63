// Operators command (decision 095): `npm run operators -- grant <member>`, `revoke <member>` or
// `list`. A member is named by e-mail, username or id. Who runs the portal is decided here, on
// the server, and by no API a member can reach.
import { loadConfig } from '../server/config.ts';
import { openDatabase } from '../server/db/client.ts';
import { migrateToLatest } from '../server/db/migrate.ts';
import { createServices } from '../server/services.ts';

const [command, member] = process.argv.slice(2);
if (!(command === 'list' || ((command === 'grant' || command === 'revoke') && member))) {
  console.error('usage: npm run operators -- grant <e-mail, username or id>');
  console.error('       npm run operators -- revoke <e-mail, username or id>');
  console.error('       npm run operators -- list');
  process.exit(2);
}
const config = loadConfig();
const database = await openDatabase(config.databaseUrl, { poolSize: 2, schema: config.databaseSchema });
try {
  await migrateToLatest(database.db, database.kind);
  const services = createServices(database, config);
  if (command === 'list') {
    for (const row of await services.operators.list()) console.log(`${row.userId}\t${row.email ?? row.username ?? ''}\tsince ${row.grantedAt}`);
  } else if (command === 'grant') {
    const userId = await services.operators.grant(member!);
    if (userId === null) {
      console.error(`${member}: no member with that e-mail, username or id in ${database.description}`);
      process.exitCode = 1;
    } else console.log(`Member ${userId} is an operator.`);
  } else if (await services.operators.revoke(member!)) console.log(`${member} is no longer an operator.`);
  else {
    console.error(`${member}: not an operator`);
    process.exitCode = 1;
  }
  await services.contentChanges.close();
  await services.rateLimiter.close();
} finally {
  await database.close();
}
