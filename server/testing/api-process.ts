// The API alone in its own process, on an existing database, for tests that kill a server
// mid-request or drive it as a studio's tools do; started by `startApiProcess` (api-process-start.ts).
import Fastify from 'fastify';
import { registerApiStandalone } from '../api.ts';
import { loadConfig } from '../config.ts';
import { openDatabase } from '../db/client.ts';
import { answerFrameworkError } from '../http/errors.ts';
import { requestIdOptions } from '../http/request-id.ts';
import { createServices } from '../services.ts';

const config = loadConfig(process.env);
const database = await openDatabase(config.databaseUrl, { schema: config.databaseSchema, poolSize: 2 });
const services = createServices(database, config);
const app = Fastify({ logger: false, frameworkErrors: answerFrameworkError, ...requestIdOptions });
await registerApiStandalone(app, { config, services });
await app.listen({ port: config.port, host: '127.0.0.1' });
process.stdout.write(`listening on ${config.port}\n`);
