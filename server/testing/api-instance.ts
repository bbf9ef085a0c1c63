import type { Clock } from '../lib/clock.ts';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { registerApiStandalone } from '../api.ts';
import { answerFrameworkError } from '../http/errors.ts';
import { requestIdOptions } from '../http/request-id.ts';
import { type Config, loadConfig, trustProxyOption } from '../config.ts';
import type { DatabaseHandle } from '../db/client.ts';
import { createServices, type Services } from '../services.ts';

export interface ApiInstance {
  app: FastifyInstance;
  services: Services;
  config: Config;
  close(): Promise<void>;
}

/**
 * One more API instance on an existing database (as a second server behind a load balancer),
 * optionally with a real logger. Closing it leaves the database open.
 */
export async function openApiInstance(
  database: DatabaseHandle,
  options: { env?: Record<string, string>; logger?: FastifyServerOptions['logger']; clock?: Clock } = {},
): Promise<ApiInstance> {
  const config = loadConfig({ APP_ENV: 'test', LOG_LEVEL: 'silent', ...options.env });
  const services = createServices(database, config, options.clock);
  const app = Fastify({
    logger: options.logger ?? false,
    trustProxy: trustProxyOption(config.trustProxy),
    frameworkErrors: answerFrameworkError,
    ...requestIdOptions,
  });
  await registerApiStandalone(app, { config, services });
  await app.ready();
  return {
    app,
    services,
    config,
    async close() {
      await app.close();
      await services.rateLimiter.close();
    },
  };
}

/** The XSRF cookie and header a browser would send to this app. */
export async function csrfHeadersFor(app: FastifyInstance): Promise<Record<string, string>> {
  const response = await app.inject({ method: 'GET', url: '/serve/api/csrf' });
  const cookie = response.cookies.find((c) => c.name === 'XSRF-TOKEN');
  if (!cookie) throw new Error('no XSRF-TOKEN cookie');
  return { cookie: `XSRF-TOKEN=${cookie.value}`, 'x-xsrf-token': decodeURIComponent(cookie.value) };
}

/**
 * A second API instance on the test's database with connections of its own (`reopen()`), as a
 * second server behind a load balancer has; closing it closes those connections too.
 */
export async function openSecondInstance(database: { reopen(): Promise<DatabaseHandle> }): Promise<ApiInstance> {
  const handle = await database.reopen();
  const instance = await openApiInstance(handle);
  return {
    ...instance,
    async close() {
      await instance.close();
      await handle.close();
    },
  };
}
