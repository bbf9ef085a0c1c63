// Development server: the same Fastify process, with Vite's middleware for hot reload.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { resolve } from 'node:path';
import type { ServerBuild } from 'react-router';
import { createServer as createViteServer } from 'vite';
import { buildPortal } from '../server/app.ts';
import { buildGamesOrigin } from '../server/features/games/games-origin.ts';
import { loadConfig } from '../server/config.ts';
import { DEVELOPMENT_SMTP_URL } from '../server/config/mail.ts';
import { startMailStandIn } from '../server/testing/mail-stand-in.ts';
import { openDatabase } from '../server/db/client.ts';
import { migrateToLatest } from '../server/db/migrate.ts';
import { seedIfEmpty } from '../server/seed.ts';
import { createServices } from '../server/services.ts';
import { buildGames } from './build-games.ts';

// The games' WebAssembly is served from games/ as it is: compiled once here (restart after changing it).
await buildGames();
const config = loadConfig();
const vite = await createViteServer({ server: { middlewareMode: true }, appType: 'custom' });
const database = await openDatabase(config.databaseUrl, { poolSize: config.databasePoolSize, schema: config.databaseSchema });
await migrateToLatest(database.db, database.kind);
const services = createServices(database, config);
// Without SMTP_URL mail goes to the local stand-in (decision 141); its inbox page shows what arrived.
if (config.mail.smtpUrl === DEVELOPMENT_SMTP_URL) {
  const mailStandIn = await startMailStandIn({ smtpPort: Number(new URL(DEVELOPMENT_SMTP_URL).port), inboxPort: 2526 });
  console.log(`Development mail inbox: ${mailStandIn.inboxUrl}`);
}
services.mail.start(2000, (error) => console.error('mail sending failed', error));

const app = await buildPortal({
  config,
  services,
  getBuild: () => vite.ssrLoadModule('virtual:react-router/server-build') as Promise<ServerBuild>,
  buildId: 'development',
  mode: 'development',
  clientDir: resolve('public'),
  serverFactory: (handler) =>
    createServer((req: IncomingMessage, res: ServerResponse) => {
      vite.middlewares(req, res, () => handler(req, res));
    }),
});
if (config.seedDemoContent) await seedIfEmpty(services, app.log);
await app.listen({ host: config.host, port: config.port });
await (await buildGamesOrigin({ config, catalogue: services.catalogue })).listen({ host: config.host, port: config.games.port });
