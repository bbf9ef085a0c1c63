import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkFile, checkTree } from './check-layers.ts';

const rules = (file: string, source: string) => checkFile(file, source).map((v) => v.rule);
/** A service's unit of work around `body`. */
const inUnit = (body: string) => `this.repository.transaction(async (unit) => {\n${body}\n});`;

describe('layer rules', () => {
  it('refuses a deliberate cross-feature import of a repository, on the server and in the app', () => {
    expect(rules('server/features/articles/articles.service.ts', "import { CatalogueRepository } from '../catalogue/catalogue.repository.ts';")).toEqual([
      "features do not import each other's internals: articles may use only types of catalogue's service",
    ]);
    expect(rules('server/features/articles/articles.service.ts', "import { x } from '#server/features/accounts/users.repository.ts';")).toHaveLength(1);
    expect(rules('app/features/catalogue/app-tile.tsx', "import { session } from '../accounts/session-store.ts';")).toEqual([
      "features do not import each other's internals: catalogue may not use accounts's session-store.ts",
    ]);
  });

  it("lets a feature use the types of another feature's service, and tests set up what they need", () => {
    expect(rules('server/features/articles/articles.service.ts', "import type { CatalogueService } from '../catalogue/catalogue.service.ts';")).toEqual([]);
    expect(rules('server/features/articles/articles.db.test.ts', "import { importCatalogue } from '#server/features/catalogue/catalogue.import.ts';")).toEqual(
      [],
    );
    expect(rules('app/features/catalogue/favourite-button.tsx', "import { useSession } from '../accounts/use-session.ts';")).toEqual([]);
  });

  it('keeps server modules out of the browser and app modules out of the server', () => {
    expect(rules('app/routes/home.tsx', "import { openDatabase } from '#server/db/client.ts';")).toHaveLength(1);
    expect(rules('app/features/articles/article-pages.server.ts', "import { openDatabase } from '#server/db/client.ts';")).toHaveLength(1);
    expect(
      rules('app/features/accounts/page-session.ts', "import type { AccountsService } from '#server/features/accounts/accounts.service.ts';"),
    ).toHaveLength(1);
    expect(rules('app/features/studio/game-list.tsx', "import type { StudioGameSummary } from '#server/features/studio/studio.schema.ts';")).toHaveLength(1);
    expect(
      rules('app/features/articles/article-pages.server.ts', "import type { PageServices } from '../../../server/services/page-services.ts';"),
    ).toHaveLength(1);
    expect(rules('app/context.ts', "import { createServices } from '#server/services.ts';")).toHaveLength(1);
    expect(rules('server/app.ts', "import { appContext } from '#app/context.ts';")).toHaveLength(1);
    expect(rules('server/app.ts', "import type { AppLoadContext } from '#app/context.ts';")).toHaveLength(1);
    expect(rules('app/context.ts', "import type { AppLoadContext } from '#server/page-context.ts';")).toEqual([]);
  });

  it("keeps the app's shared infrastructure free of features", () => {
    expect(rules('app/lib/api-client.ts', "import { session } from '../features/accounts/session.ts';")).toHaveLength(1);
    expect(rules('app/ui/button.tsx', "import { Logo } from '../shell/logo.tsx';")).toHaveLength(1);
  });

  it('keeps Kysely and SQL in repositories, server/db and test support; a repository calls no service', () => {
    expect(rules('server/features/payments/payments.service.ts', "import type { Kysely } from 'kysely';")).toHaveLength(1);
    expect(rules('server/features/webhooks/webhooks.routes.ts', "import { sql } from 'kysely';")).toHaveLength(1);
    expect(rules('server/features/payments/payments.service.ts', 'const q = sql`select 1`;\nconst r = sql.raw("x");')).toHaveLength(2);
    expect(rules('server/features/payments/payments.service.ts', inUnit('await this.repository.save(order, unit);\nawait this.webhooks.send(order);'))).toEqual(
      [
        'in a unit of work a service awaits only calls that take the unit: a network call, a mail or a webhook waits until the transaction has committed (decision 143)',
      ],
    );
    expect(rules('server/features/payments/payments.service.ts', inUnit('await this.audit.record({ unit, action: "refund" });'))).toEqual([]);
    expect(rules('server/features/payments/payments.repository.ts', "import type { AccountsService } from '../accounts/accounts.service.ts';")).toHaveLength(1);
    expect(rules('server/features/payments/payments.service.ts', "import { executorOf } from '#server/db/unit-of-work.ts';")).toHaveLength(1);
    expect(rules('server/features/payments/payments.repository.ts', "import { sql } from 'kysely';\nconst q = sql`select 1`;")).toEqual([]);
    expect(rules('server/db/migrations/0099-planted.ts', "import { sql } from 'kysely';")).toEqual([]);
    expect(rules('server/testing/planted.ts', "import type { Kysely } from 'kysely';")).toEqual([]);
    expect(rules('server/features/payments/payments.service.ts', "import type { UnitOfWork } from '#server/db/unit-of-work.ts';")).toEqual([]);
    expect(rules('server/features/studio/studio-stats.repository.ts', "import { X } from '#server/db/migrations/0025-game-stats-rollup.ts';")).toHaveLength(1);
    expect(rules('server/db/migrate.ts', "import { saveTotals } from './migrations/0010-save-totals.ts';")).toEqual([]);
  });

  it('keeps HTTP out of services, repositories and server/lib; routes may use it', () => {
    expect(rules('server/features/catalogue/catalogue.service.ts', "import { AppError } from '#server/http/errors.ts';")).toHaveLength(1);
    expect(rules('server/features/accounts/access-tokens.service.ts', "import type { ApiRouter } from '#server/http/api-router.ts';")).toHaveLength(1);
    expect(rules('server/lib/rate-limiter.ts', "import { statusOf } from '../http/errors.ts';")).toHaveLength(1);
    expect(rules('server/features/catalogue/catalogue.service.ts', "import { AppError } from '#server/lib/app-error.ts';")).toEqual([]);
    expect(rules('server/features/catalogue/catalogue.routes.ts', "import type { ApiRouter } from '#server/http/api-router.ts';")).toEqual([]);
  });
});

/**
 * The lint as `npm run lint` runs it (oxlint with the repository's configuration, then this
 * check) over a scratch tree of planted files: which of them each net refuses.
 */
function lintPlanted(files: Record<string, string>): { oxlint: Set<string>; layers: Set<string> } {
  const root = mkdtempSync(join(tmpdir(), 'playport-layers-'));
  try {
    const config = JSON.parse(readFileSync('.oxlintrc.json', 'utf8')) as Record<string, unknown>;
    delete config.$schema;
    writeFileSync(join(root, '.oxlintrc.json'), JSON.stringify(config));
    for (const [file, source] of Object.entries(files)) {
      mkdirSync(join(root, dirname(file)), { recursive: true });
      writeFileSync(join(root, file), source);
    }
    const oxlint = spawnSync(resolve('node_modules/.bin/oxlint'), ['-c', '.oxlintrc.json', '--format', 'unix', ...Object.keys(files)], {
      cwd: root,
      encoding: 'utf8',
    });
    const refusedByOxlint = new Set(
      Object.keys(files).filter((file) => oxlint.stdout.split('\n').some((line) => line.startsWith(`${file}:`) && line.includes('no-restricted-imports'))),
    );
    const folders = [...new Set(Object.keys(files).map((file) => file.split('/')[0]!))];
    return { oxlint: refusedByOxlint, layers: new Set(checkTree(root, folders).map((v) => v.file)) };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

describe('the lint fails on a planted violation of each layer rule, in every import form', () => {
  // [what is planted, where, the source]; the file names keep what the rules look at (folder, suffix).
  const planted: [rule: string, file: string, source: string][] = [
    ['common → server, value', 'common/planted-1.ts', "import { AppError } from '#server/lib/app-error.ts';\nexport const x = AppError;\n"],
    ['common → app, value', 'common/planted-2.ts', "import { readCookie } from '#app/lib/cookies.ts';\nexport const x = readCookie;\n"],
    ['common → server, relative path', 'common/api/planted-3.ts', "import { AppError } from '../../server/lib/app-error.ts';\nexport const x = AppError;\n"],
    ['common → server, type only', 'common/planted-4.ts', "import type { Config } from '#server/config.ts';\nexport type X = Config;\n"],
    ['common → server, dynamic import()', 'common/planted-5.ts', "export const load = () => import('#server/config.ts');\n"],
    ['common → server, re-export', 'common/planted-6.ts', "export { AppError } from '#server/lib/app-error.ts';\n"],
    ['server → app, type only', 'server/planted-7.ts', "import type { AppLoadContext } from '#app/context.ts';\nexport type X = AppLoadContext;\n"],
    ['server → app, type query', 'server/planted-8.ts', "export type X = typeof import('#app/context.ts');\n"],
    ['server → app, dynamic import()', 'server/planted-9.ts', "export const load = () => import('../app/context.ts');\n"],
    [
      'server → app, require()',
      'server/planted-10.ts',
      "import { createRequire } from 'node:module';\nconst require = createRequire(import.meta.url);\nexport const context = require('#app/context.ts');\n",
    ],
    [
      'app → server value, in a page module',
      'app/routes/planted-11.tsx',
      "import { openDatabase } from '#server/db/client.ts';\nexport const x = openDatabase;\n",
    ],
    [
      'app → server value, in a *.server.ts module',
      'app/features/social/planted-12.server.ts',
      "import { statusOf } from '#server/http/errors.ts';\nexport const x = statusOf;\n",
    ],
    ['app → server, side effect only', 'app/features/social/planted-13.server.ts', "import '#server/http/errors.ts';\n"],
    ['app → server, dynamic import()', 'app/routes/planted-14.tsx', "export const load = () => import('#server/db/client.ts');\n"],
    [
      "feature → another feature's repository",
      'server/features/articles/planted-15.service.ts',
      "import { CatalogueRepository } from '../catalogue/catalogue.repository.ts';\nexport const x = CatalogueRepository;\n",
    ],
    [
      "feature → another feature's repository, dynamic import()",
      'server/features/articles/planted-16.service.ts',
      "export const load = () => import('../catalogue/catalogue.repository.ts');\n",
    ],
    [
      "browser feature → another feature's store",
      'app/features/catalogue/planted-17.tsx',
      "import { session } from '../accounts/session-store.ts';\nexport const x = session;\n",
    ],
    ['service → HTTP', 'server/features/catalogue/planted-18.service.ts', "import { statusOf } from '#server/http/errors.ts';\nexport const x = statusOf;\n"],
    [
      'server infrastructure → feature',
      'server/lib/planted-19.ts',
      "import { AccountsService } from '#server/features/accounts/accounts.service.ts';\nexport const x = AccountsService;\n",
    ],
    [
      'app infrastructure → feature',
      'app/lib/planted-20.ts',
      "import { useSession } from '../features/accounts/use-session.ts';\nexport const x = useSession;\n",
    ],
    [
      'app → server, type only, outside app/context.ts',
      'app/features/studio/planted-27.tsx',
      "import type { StudioGame } from '#server/features/studio/studio.schema.ts';\nexport type X = StudioGame;\n",
    ],
    [
      'Kysely in a service, type only',
      'server/features/payments/planted-21.service.ts',
      "import type { Kysely } from 'kysely';\nexport type X = Kysely<object>;\n",
    ],
    ["Kysely's sql in server infrastructure", 'server/lib/planted-22.ts', "import { sql } from 'kysely';\nexport const x = sql;\n"],
    [
      'repository → service, type only',
      'server/features/payments/planted-23.repository.ts',
      "import type { PaymentsService } from './payments.service.ts';\nexport type X = PaymentsService;\n",
    ],
    [
      'SQL template in a service',
      'server/features/catalogue/planted-24.service.ts',
      'declare const sql: (s: TemplateStringsArray) => string;\nexport const q = sql`select 1`;\n',
    ],
    [
      'a repository imports from a migration',
      'server/features/studio/planted-26.repository.ts',
      "import { GAMEPLAY_BUCKET_MS } from '#server/db/migrations/0025-game-stats-rollup.ts';\nexport const x = GAMEPLAY_BUCKET_MS;\n",
    ],
    [
      'a service awaits an outside call inside its unit of work',
      'server/features/payments/planted-27.service.ts',
      'export class X {\n  declare repository: { transaction<T>(work: (unit: object) => Promise<T>): Promise<T>; save(unit: object): Promise<void> };\n  run() {\n    return this.repository.transaction(async (unit) => {\n      await this.repository.save(unit);\n      await fetch("http://127.0.0.1/hook");\n    });\n  }\n}\n',
    ],
    [
      'a service opens a unit of work',
      'server/features/studio/planted-25.service.ts',
      "import { inUnitOfWork } from '#server/db/unit-of-work.ts';\nexport const x = inUnitOfWork;\n",
    ],
  ];
  const clean: Record<string, string> = {
    'common/clean-1.ts': "import { isLocale } from './locales.ts';\nexport const x = isLocale;\n",
    'app/context.ts': "import type { AppLoadContext } from '#server/page-context.ts';\nexport type { AppLoadContext };\n",
    'server/features/articles/clean-3.service.ts':
      "import type { CatalogueService } from '../catalogue/catalogue.service.ts';\nexport type X = CatalogueService;\n",
    'server/features/payments/clean-4.repository.ts': "import { sql, type Kysely } from 'kysely';\nexport const x = sql;\nexport type X = Kysely<object>;\n",
    'server/features/payments/clean-6.service.ts':
      'export class X {\n  declare repository: { transaction<T>(work: (unit: object) => Promise<T>): Promise<T>; save(unit: object): Promise<void> };\n  run() {\n    return this.repository.transaction(async (unit) => {\n      await this.repository.save(unit);\n    }).then(() => fetch("http://127.0.0.1/hook"));\n  }\n}\n',
    'server/features/payments/clean-5.service.ts': "import type { UnitOfWork } from '#server/db/unit-of-work.ts';\nexport type X = UnitOfWork;\n",
  };

  // One oxlint process over all of them: seconds on a busy machine.
  it('each is refused by oxlint or the layer check, and clean files pass both', { timeout: 60_000 }, () => {
    const { oxlint, layers } = lintPlanted({ ...Object.fromEntries(planted.map(([, file, source]) => [file, source])), ...clean });
    expect(planted.filter(([, file]) => !oxlint.has(file) && !layers.has(file)).map(([rule]) => rule)).toEqual([]);
    expect(Object.keys(clean).filter((file) => oxlint.has(file) || layers.has(file))).toEqual([]);
    // oxlint, the first net, sees static imports wherever they point with any depth of path.
    expect(oxlint.has('common/planted-1.ts') && oxlint.has('common/planted-2.ts') && oxlint.has('app/routes/planted-11.tsx')).toBe(true);
  });

  it('the layer check alone, which sees every import form, refuses each but the one oxlint holds (server infrastructure → feature)', () => {
    const passed = planted.filter(([, file, source]) => checkFile(file, source).length === 0).map(([rule]) => rule);
    expect(passed).toEqual(['server infrastructure → feature']);
  });
});
