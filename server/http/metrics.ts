import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { ExecutedQuery, PoolUse } from '#server/db/client.ts';
import type { OutboxState } from '#server/lib/outbox-state.ts';

/** What the metrics read when Prometheus scrapes: each outbox's state and whether the database answers. */
export interface MetricsSources {
  outboxes: Record<'webhooks' | 'mail', () => Promise<OutboxState>>;
  /** Resolves when the database answers a trivial query. */
  pingDatabase(): Promise<void>;
  /** The page cache's lookups so far (server/http/page-cache.ts). */
  pageCache?: () => { hits: number; misses: number };
  /** The database's queries as they run, and its connection pool's use (null without a pool). */
  database?: { onQuery(listener: (query: ExecutedQuery) => void): void; poolUse(): PoolUse | null };
  /** Resolves when Redis answers; absent without REDIS_URL. */
  pingRedis?: () => Promise<void>;
  /** Build uploads open now (started, not finished or abandoned). */
  uploadsInProgress?: () => Promise<number>;
}

/** Which of the process's servers answered: the portal, or the games origin (decision 089). */
export type AnsweringServer = 'portal' | 'games';

/** Label values stay a short fixed list: an unusual method is `OTHER`, not whatever a client sent. */
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
/** Seconds: from a cached page to a slow export. */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** Seconds: from a lookup by key on SQLite to a statistics query. */
const QUERY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];

/** 1 when `ping` resolves within the scrape, else 0. */
const upOrDown = (ping: () => Promise<void>) =>
  ping().then(
    () => 1,
    () => 0,
  );

/**
 * A registry of this server's own (tests run many servers in one process, so never the global
 * one): requests by route pattern and status, Node's defaults, the outboxes and the database.
 */
export function createMetrics(sources: MetricsSources): {
  registry: Registry;
  observe(request: { server: AnsweringServer; method: string; route: string | undefined; status: number; seconds: number }): void;
} {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const labelNames = ['server', 'method', 'route', 'status'] as const;
  const requests = new Counter({
    name: 'http_requests_total',
    help: 'Requests answered, by server (portal, games), method, route pattern and status code',
    labelNames,
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from request to answer, by server (portal, games), method, route pattern and status code',
    labelNames,
    buckets: DURATION_BUCKETS,
    registers: [registry],
  });
  const outboxes = Object.entries(sources.outboxes);
  // Read once per scrape (both outbox gauges share it); an outbox that cannot be read has no value
  // rather than a stale one.
  let reading: Promise<Array<{ outbox: string; state: OutboxState | null }>> | null = null;
  const states = () =>
    (reading ??= Promise.all(outboxes.map(async ([outbox, state]) => ({ outbox, state: await state().catch(() => null) }))).finally(() => {
      reading = null;
    }));
  const gauges: Gauge<string>[] = [
    new Gauge({
      name: 'outbox_depth',
      help: 'Rows pending in an outbox (webhooks, mail)',
      labelNames: ['outbox'],
      registers: [],
      async collect() {
        this.reset();
        for (const { outbox, state } of await states()) if (state) this.set({ outbox }, state.depth);
      },
    }),
    new Gauge({
      name: 'outbox_oldest_age_seconds',
      help: 'How long the oldest pending row of an outbox has waited; 0 when none is pending',
      labelNames: ['outbox'],
      registers: [],
      async collect() {
        this.reset();
        for (const { outbox, state } of await states()) if (state) this.set({ outbox }, state.oldestAgeSeconds);
      },
    }),
    new Gauge({
      name: 'database_up',
      help: '1 when the database answered a select 1 at this scrape, else 0',
      registers: [],
      async collect() {
        this.set(await upOrDown(sources.pingDatabase));
      },
    }),
  ];
  const { database, pingRedis, uploadsInProgress } = sources;
  if (database) {
    const queries = new Histogram({
      name: 'database_query_duration_seconds',
      help: 'Time each query took, by statement (select, insert, update, delete, other) and outcome (ok, error)',
      labelNames: ['statement', 'outcome'],
      buckets: QUERY_BUCKETS,
      registers: [registry],
    });
    database.onQuery((query) => queries.observe({ statement: query.statement, outcome: query.failed ? 'error' : 'ok' }, query.seconds));
    gauges.push(
      new Gauge({
        name: 'database_pool_connections',
        help: 'PostgreSQL connections of this instance by state (in_use, idle, waiting for one, max); absent on SQLite',
        labelNames: ['state'],
        registers: [],
        collect() {
          this.reset();
          const use = database.poolUse();
          if (!use) return;
          this.set({ state: 'in_use' }, use.inUse);
          this.set({ state: 'idle' }, use.idle);
          this.set({ state: 'waiting' }, use.waiting);
          this.set({ state: 'max' }, use.max);
        },
      }),
    );
  }
  if (pingRedis) {
    gauges.push(
      new Gauge({
        name: 'redis_up',
        help: '1 when Redis answered a PING at this scrape, else 0 (rate limits then count in the database)',
        registers: [],
        async collect() {
          this.set(await upOrDown(pingRedis));
        },
      }),
    );
  }
  if (uploadsInProgress) {
    gauges.push(
      new Gauge({
        name: 'build_uploads_in_progress',
        help: 'Build uploads started and not yet finished or abandoned, of every studio',
        registers: [],
        async collect() {
          this.reset();
          const open = await uploadsInProgress().catch(() => null);
          if (open !== null) this.set(open);
        },
      }),
    );
  }
  for (const gauge of gauges) registry.registerMetric(gauge);
  const { pageCache } = sources;
  if (pageCache) {
    const lookups = new Counter({
      name: 'page_cache_lookups_total',
      help: 'Page cache lookups by result (hit, miss); the hit ratio is hit over both',
      labelNames: ['result'],
      registers: [],
      collect() {
        const { hits, misses } = pageCache();
        this.reset();
        this.inc({ result: 'hit' }, hits);
        this.inc({ result: 'miss' }, misses);
      },
    });
    registry.registerMetric(lookups);
  }
  return {
    registry,
    observe({ server, method, route, status, seconds }) {
      // The route's pattern (`/serve/api/game/config/:app_id`), never the path a client sent.
      const labels = { server, method: METHODS.has(method) ? method : 'OTHER', route: route ?? 'unmatched', status: String(status) };
      requests.inc(labels);
      duration.observe(labels, seconds);
    },
  };
}

/**
 * Counts every answer of `app` (and of the games origin, when given) and serves GET /metrics to a
 * caller with `Authorization: Bearer <token>`; anyone else finds nothing there. Call it before the
 * routes are registered.
 */
export function serveMetrics(app: FastifyInstance, options: { token: string; sources: MetricsSources; gamesOrigin?: FastifyInstance }): Registry {
  const metrics = createMetrics(options.sources);
  const count = (server: AnsweringServer, counted: FastifyInstance) =>
    counted.addHook('onResponse', async (request, reply) => {
      metrics.observe({ server, method: request.method, route: request.routeOptions.url, status: reply.statusCode, seconds: reply.elapsedTime / 1000 });
    });
  count('portal', app);
  if (options.gamesOrigin) count('games', options.gamesOrigin);
  // Digests of equal length, so the comparison takes the same time whatever was sent.
  const expected = digest(`Bearer ${options.token}`);
  app.get('/metrics', async (request, reply) => {
    if (!timingSafeEqual(digest(request.headers.authorization ?? ''), expected)) return reply.callNotFound();
    const text = await metrics.registry.metrics();
    return reply.header('Cache-Control', 'no-store').type(metrics.registry.contentType).send(text);
  });
  return metrics.registry;
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}
