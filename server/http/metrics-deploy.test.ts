import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { createMetrics } from './metrics.ts';
import { declaredMetrics, parseMetrics } from '../testing/metrics-text.ts';

/** PromQL's words that are not metrics: aggregation modifiers and set operators. */
const KEYWORDS = new Set(['by', 'without', 'on', 'ignoring', 'group_left', 'group_right', 'bool', 'and', 'or', 'unless', 'offset']);

/** The metric names a PromQL expression reads (functions, label matchers, ranges and grouping labels left out). */
function metricsIn(expr: string): string[] {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '""')
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ');
  return [...bare.matchAll(/(?<![\w:$.])([a-zA-Z_:][\w:]*)(?![\w:]|\s*\()/g)].map(([, name = '']) => name).filter((name) => !KEYWORDS.has(name));
}

interface Rules {
  groups: Array<{ rules: Array<{ alert?: string; expr: string }> }>;
}
interface Dashboard {
  panels: Array<{ title: string; targets?: Array<{ expr: string }> }>;
  templating: { list: Array<{ query?: string }> };
}

function alertExpressions(): string[] {
  const rules = parse(readFileSync('deploy/prometheus/alerts.yml', 'utf8')) as Rules;
  return rules.groups.flatMap((group) => group.rules.map((rule) => rule.expr));
}

function dashboardExpressions(): string[] {
  const dashboard = JSON.parse(readFileSync('deploy/grafana/playport.json', 'utf8')) as Dashboard;
  const variables = dashboard.templating.list.flatMap((variable) => /^label_values\((\w+),/.exec(variable.query ?? '')?.[1] ?? []);
  return [...dashboard.panels.flatMap((panel) => (panel.targets ?? []).map((target) => target.expr)), ...variables];
}

/** Every series name the portal's registry answers with (a histogram's _bucket, _sum and _count included). */
async function exposedNames(): Promise<Set<string>> {
  const metrics = createMetrics({
    outboxes: { webhooks: async () => ({ depth: 0, oldestAgeSeconds: 0 }), mail: async () => ({ depth: 2, oldestAgeSeconds: 30 }) },
    pingDatabase: async () => undefined,
    pageCache: () => ({ hits: 1, misses: 1 }),
    database: {
      onQuery: (listener) => listener({ statement: 'select', seconds: 0.001, failed: false }),
      poolUse: () => ({ inUse: 1, idle: 2, waiting: 0, max: 10 }),
    },
    pingRedis: async () => undefined,
    uploadsInProgress: async () => 1,
  });
  metrics.observe({ server: 'portal', method: 'GET', route: '/healthz', status: 200, seconds: 0.002 });
  const text = await metrics.registry.metrics();
  return new Set([...declaredMetrics(text), ...parseMetrics(text).map((sample) => sample.name)]);
}

describe('the alert rules and the dashboard under deploy/', () => {
  it('read only metrics the portal exposes', async () => {
    const names = await exposedNames();
    const alerts = alertExpressions();
    const panels = dashboardExpressions();
    expect(alerts.length).toBeGreaterThanOrEqual(4);
    expect(panels.length).toBeGreaterThanOrEqual(8);
    const used = new Set([...alerts, ...panels].flatMap(metricsIn));
    for (const name of [
      'http_requests_total',
      'http_request_duration_seconds_bucket',
      'outbox_oldest_age_seconds',
      'database_up',
      'database_query_duration_seconds_bucket',
      'database_pool_connections',
      'redis_up',
      'build_uploads_in_progress',
      'page_cache_lookups_total',
      'nodejs_eventloop_lag_p99_seconds',
    ])
      expect(used).toContain(name);
    expect([...used].filter((name) => !names.has(name))).toEqual([]);
  });

  it('alert on 5xx answers, latency, a stuck outbox and the database', () => {
    const rules = parse(readFileSync('deploy/prometheus/alerts.yml', 'utf8')) as Rules;
    const alerts = rules.groups.flatMap((group) => group.rules);
    expect(alerts.find((rule) => rule.expr.includes('status=~"5.."'))).toBeDefined();
    expect(alerts.find((rule) => rule.expr.includes('histogram_quantile(0.99'))).toBeDefined();
    expect(alerts.find((rule) => rule.expr.includes('outbox_oldest_age_seconds'))).toBeDefined();
    expect(alerts.find((rule) => rule.expr.includes('database_up'))).toBeDefined();
  });

  it('reads the metric names out of an expression and notices an unknown one', async () => {
    expect(
      metricsIn('histogram_quantile(0.99, sum by (instance, le) (rate(http_request_duration_seconds_bucket{method="GET", route!~"a(b)"}[5m]))) > 2'),
    ).toEqual(['http_request_duration_seconds_bucket']);
    expect(metricsIn('sum(rate(a_total{x="1"}[$__rate_interval])) / on (job) group_left b_total or vector(0)')).toEqual(['a_total', 'b_total']);
    const names = await exposedNames();
    expect(metricsIn('rate(http_requests_totl[5m])').filter((name) => !names.has(name))).toEqual(['http_requests_totl']);
  });
});
