import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/*
 * The API calls the play page and the sandbox checkout make on their own are in the docs a studio
 * reads (docs/game-sdk.md and docs/sdk/, decision 123), so a studio reading a network log or the
 * QA panel finds each one explained, with whether its game makes it.
 */

const ROOT = resolve(import.meta.dirname, '../../..');
const CLIENT_SOURCES = [
  ...readdirSync(join(ROOT, 'app/features/games'))
    .filter((name) => /\.tsx?$/.test(name) && !name.includes('.test.'))
    .map((name) => join('app/features/games', name)),
  'app/features/payments/purchase-flow.tsx',
  'app/features/payments/orders.ts',
  'app/features/payments/sandbox-checkout.tsx',
];
// What the page does for an SDK method, documented on that method's page by the method's name.
const SDK_METHOD_CALLS = ['/game/login/', '/game/config/', '/game/inventory/{}', '/game/leaderboards/', '/game/achievements/'];
// Calls that no page makes but a studio meets in the same flow.
const ALSO_DOCUMENTED = ['/payment/sandbox/checkout/{}'];

/** A path with its template expressions as `{}`: `/game/pay/${appId}` → `/game/pay/{}`. */
const shapeOf = (path: string) => path.replace(/\$\{(?:[^{}]|\{[^}]*\})*\}/g, '{}').replace(/\{[A-Za-z_]+\}/g, '{}');

function pageCalls(): string[] {
  const calls = new Set<string>();
  for (const file of CLIENT_SOURCES) {
    for (const match of readFileSync(join(ROOT, file), 'utf8').matchAll(/\bapi\.(?:get|post|put|patch|delete)\(\s*['`]([^'`]+)['`]/g))
      calls.add(shapeOf(match[1]!));
  }
  return [...calls].sort();
}

function studioDocs(): string {
  const sdk = readdirSync(join(ROOT, 'docs/sdk')).filter((name) => name.endsWith('.md'));
  return shapeOf([join(ROOT, 'docs/game-sdk.md'), ...sdk.map((name) => join(ROOT, 'docs/sdk', name))].map((file) => readFileSync(file, 'utf8')).join('\n'));
}

describe("the play page's own API calls in the studio docs (decision 123)", () => {
  it('finds the calls of the play page and the sandbox checkout', () => {
    expect(pageCalls()).toEqual(expect.arrayContaining(['/member/played/', '/payment/sandbox/pay/', '/payment/xsolla/create/', '/game/pay/{}']));
  });

  it('documents each of them, with its path under /serve/api', () => {
    const docs = studioDocs();
    const owed = [...pageCalls().filter((call) => !SDK_METHOD_CALLS.some((prefix) => call.startsWith(prefix))), ...ALSO_DOCUMENTED];
    const missing = owed.filter((call) => !docs.includes(`/serve/api${call}`));
    expect(missing).toEqual([]);
  });

  it('says that a game does not record its play itself', () => {
    const guide = readFileSync(join(ROOT, 'docs/game-sdk.md'), 'utf8');
    const section = guide.slice(guide.indexOf('### What the play page calls by itself'), guide.indexOf('## 2. Load it'));
    expect(section).toMatch(/a game\s+never makes/);
    expect(section).toContain('POST /serve/api/member/played/');
    expect(section).toContain('POST /serve/api/payment/sandbox/pay/');
  });
});
