// The import rules between layers that oxlint's per-file patterns cannot say once for every
// feature (decisions 055 and 083). Run by `npm run lint`; exits 1 and names each broken rule.
// Imports are read with a real parser (Babel's, with TypeScript syntax), so every form counts:
// static imports and re-exports, side-effect imports, dynamic `import()`, `require()`,
// `import x = require()` and type queries such as `typeof import('…')`.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { parse } from '@babel/parser';
export interface Violation {
  file: string;
  specifier: string;
  rule: string;
}

/** One import of a file: what it names and whether only types cross (erased from the output). */
interface ImportEdge {
  specifier: string;
  typeOnly: boolean;
}

const ALIASES: Record<string, string> = { '#app/': 'app/', '#server/': 'server/', '#common/': 'common/' };

/** The repository-relative path an import specifier points at, or null for packages. */
function target(file: string, specifier: string): string | null {
  for (const [alias, folder] of Object.entries(ALIASES)) if (specifier.startsWith(alias)) return folder + specifier.slice(alias.length);
  if (!specifier.startsWith('.')) return null;
  return relative('.', resolve(dirname(file), specifier))
    .split(sep)
    .join('/');
}

/**
 * Every import of a source text. Only `import type` / `export type … from` and type positions are
 * type-only: under verbatimModuleSyntax `import { type A } from 'x'` still loads 'x' at run time.
 */
export function importsOf(file: string, source: string): ImportEdge[] {
  const program = parse(source, { sourceType: 'module', plugins: file.endsWith('x') ? ['typescript', 'jsx'] : ['typescript'], errorRecovery: true }).program;
  const edges: ImportEdge[] = [];
  const literal = (node: AstNode | undefined) => (node?.type === 'StringLiteral' ? (node.value as string) : null);
  const add = (node: AstNode | undefined, typeOnly: boolean) => {
    const specifier = literal(node);
    if (specifier) edges.push({ specifier, typeOnly });
  };
  const visit = (node: AstNode): void => {
    switch (node.type) {
      case 'ImportDeclaration':
        add(node.source, node.importKind === 'type' || node.importKind === 'typeof');
        break;
      case 'ExportNamedDeclaration':
      case 'ExportAllDeclaration':
        add(node.source, node.exportKind === 'type');
        break;
      case 'TSImportEqualsDeclaration':
        if (node.moduleReference?.type === 'TSExternalModuleReference') add(node.moduleReference.expression, node.importKind === 'type');
        break;
      case 'TSImportType':
        // `import('x').Name` and `typeof import('x')` in a type position.
        add(node.argument?.type === 'TSLiteralType' ? node.argument.literal : node.argument, true);
        break;
      case 'ImportExpression':
        add(node.source, false);
        break;
      case 'CallExpression':
        if (node.callee?.type === 'Import' || (node.callee?.type === 'Identifier' && node.callee.name === 'require')) add(node.arguments?.[0], false);
        break;
    }
    for (const [key, value] of Object.entries(node)) {
      if (key === 'loc' || key === 'leadingComments' || key === 'trailingComments' || key === 'innerComments') continue;
      if (Array.isArray(value)) for (const child of value) if (isNode(child)) visit(child);
      if (isNode(value)) visit(value);
    }
  };
  visit(program as unknown as AstNode);
  return edges;
}

/** Babel's nodes, read loosely: the walk needs their type and a few named children. */
type AstNode = { type: string } & Record<string, any>;
const isNode = (value: unknown): value is AstNode => typeof value === 'object' && value !== null && typeof (value as AstNode).type === 'string';

const featureOf = (path: string, side: 'app' | 'server') => new RegExp(`^${side}/features/([^/]+)/`).exec(path)?.[1] ?? null;
const isTest = (path: string) => /\.(test|db\.test|spec)\.tsx?$/.test(path) || path.startsWith('tests/') || path.includes('/testing/');

/** The layer rules one file's imports break. `source` is the file's text. */
export function checkFile(file: string, source: string): Violation[] {
  const found: Violation[] = [];
  const imports = importsOf(file, source);
  for (const { specifier, typeOnly } of imports) {
    const to = target(file, specifier);
    if (!to) continue;
    const add = (rule: string) => found.push({ file, specifier, rule });
    // The direction is app → server → common, for every import form and for types too.
    if (file.startsWith('common/') && (to.startsWith('app/') || to.startsWith('server/'))) {
      add('common/ is shared by the browser and the server and imports nothing from app/ or server/, not even types');
    }
    if (file.startsWith('server/') && !isTest(file) && to.startsWith('app/')) {
      add('server code imports nothing from app/, not even types: what both sides need lives in server/ (types the pages use) or common/');
    }
    // app/context.ts names the loaders' context, the server's to define (decision 133); everything else reaches the server through it.
    if (file.startsWith('app/') && !isTest(file) && to.startsWith('server/') && (file !== 'app/context.ts' || !typeOnly)) {
      add(
        'app/ imports nothing from server/: types the pages share with the server live in common/api, the services reach loaders typed by app/context.ts (its import type is the one crossing)',
      );
    }
    for (const side of ['server', 'app'] as const) {
      const from = featureOf(file, side);
      const into = featureOf(to, side);
      if (!from || !into || from === into || isTest(file)) continue;
      const name = to.split('/').pop()!;
      const isPublic = side === 'server' ? /\.(service|schema)\.ts$/.test(name) : !/(\.server\.tsx?|-store\.ts|\.repository\.ts)$/.test(name);
      if (!isPublic || (side === 'server' && !typeOnly)) {
        add(
          side === 'server'
            ? `features do not import each other's internals: ${from} may use only types of ${into}'s service`
            : `features do not import each other's internals: ${from} may not use ${into}'s ${name}`,
        );
      }
    }
    if (/^server\/(lib|db)\/|\.(service|repository)\.ts$/.test(file) && to.startsWith('server/http/') && !isTest(file)) {
      add('services, repositories and server/lib know nothing of HTTP: throw AppError (server/lib/app-error.ts), take a Caller (server/lib/caller.ts)');
    }
    if (/^app\/(ui|lib|i18n)\//.test(file) && /^app\/(features|shell|routes)\//.test(to)) {
      add('app/ui, app/lib and app/i18n are shared infrastructure and never import features, the shell or routes');
    }
    if (isRepository(file) && to.endsWith('.service.ts')) {
      add('a repository fetches and never calls a service, not even for a type: the service calls the repository and decides');
    }
    if (to.startsWith('server/db/migrations/') && !file.startsWith('server/db/') && !isTest(file)) {
      add('a migration is a frozen record of a change: code keeps its rules in the feature that owns them (a migration may hold a frozen copy)');
    }
    if (to === 'server/db/unit-of-work.ts' && !typeOnly && !mayQuery(file)) {
      add('only repositories open or read a unit of work (decision 127): above them, import only its type and pass it on');
    }
  }
  for (const { specifier } of imports) {
    if (/^kysely(\/|$)/.test(specifier) && !mayQuery(file)) {
      found.push({
        file,
        specifier,
        rule: 'Kysely (and its sql) is imported only by repositories, server/db and test support (decision 127): services pass a UnitOfWork',
      });
    }
  }
  if (file.endsWith('.service.ts') && !isTest(file)) {
    for (const line of sqlTemplateLines(file, source)) {
      found.push({ file, specifier: `sql (line ${line})`, rule: 'a service writes no SQL: the query belongs in a repository (decision 127)' });
    }
    for (const line of awaitsOutsideTheUnit(file, source)) {
      found.push({
        file,
        specifier: `await (line ${line})`,
        rule: 'in a unit of work a service awaits only calls that take the unit: a network call, a mail or a webhook waits until the transaction has committed (decision 143)',
      });
    }
  }
  return found;
}

const isRepository = (path: string) => path.endsWith('.repository.ts');

/**
 * Files that may hold a Kysely handle or write SQL: repositories, server/db (the client, the
 * migrations, the unit of work) and test support. The rate-limits adapter's factory hands the
 * database handle to its repository (the limiter's insurance while Redis is away).
 */
const mayQuery = (path: string) =>
  isRepository(path) || path.startsWith('server/db/') || isTest(path) || path === 'server/adapters/rate-limits/create-rate-limiter.ts';

/** The lines of a source with a `sql` tagged template or a `sql.raw()`/`sql.ref()`-style call. */
function sqlTemplateLines(file: string, source: string): number[] {
  const program = parse(source, { sourceType: 'module', plugins: file.endsWith('x') ? ['typescript', 'jsx'] : ['typescript'], errorRecovery: true }).program;
  const lines: number[] = [];
  const isSql = (node: AstNode | undefined) =>
    node?.type === 'Identifier' ? node.name === 'sql' : node?.type === 'MemberExpression' && node.object?.type === 'Identifier' && node.object.name === 'sql';
  const visit = (node: AstNode): void => {
    if (
      (node.type === 'TaggedTemplateExpression' && isSql(node.tag)) ||
      (node.type === 'CallExpression' && node.callee?.type === 'MemberExpression' && isSql(node.callee))
    )
      lines.push(node.loc?.start.line ?? 0);
    for (const [key, value] of Object.entries(node)) {
      if (key === 'loc' || key === 'leadingComments' || key === 'trailingComments' || key === 'innerComments') continue;
      if (Array.isArray(value)) for (const child of value) if (isNode(child)) visit(child);
      if (isNode(value)) visit(value);
    }
  };
  visit(program as unknown as AstNode);
  return lines;
}

/**
 * The lines where a service, inside a unit of work (`….transaction(async (unit) => …)`), awaits
 * something that does not take the unit. The transaction holds its locks (on SQLite the one
 * writer's) for as long as the callback runs: what it awaits must be a repository call or another
 * service's call in the same unit, never an outside system, whose slowness would stall every writer
 * and whose effect a rollback could not take back.
 */
function awaitsOutsideTheUnit(file: string, source: string): number[] {
  const program = parse(source, { sourceType: 'module', plugins: ['typescript'], errorRecovery: true }).program;
  const lines: number[] = [];
  const walk = (node: AstNode, visit: (node: AstNode) => void): void => {
    visit(node);
    for (const [key, value] of Object.entries(node)) {
      if (key === 'loc' || key === 'leadingComments' || key === 'trailingComments' || key === 'innerComments') continue;
      if (Array.isArray(value)) for (const child of value) if (isNode(child)) walk(child, visit);
      if (isNode(value)) walk(value, visit);
    }
  };
  const mentions = (node: AstNode, name: string) => {
    let found = false;
    walk(node, (inner) => {
      if (inner.type === 'Identifier' && inner.name === name) found = true;
    });
    return found;
  };
  walk(program as unknown as AstNode, (node) => {
    if (node.type !== 'CallExpression' || node.callee?.type !== 'MemberExpression' || node.callee.property?.name !== 'transaction') return;
    const work = node.arguments?.[0];
    if (work?.type !== 'ArrowFunctionExpression' && work?.type !== 'FunctionExpression') return;
    const unit = work.params?.[0]?.type === 'Identifier' ? (work.params[0].name as string) : null;
    if (!unit) return;
    walk(work.body, (inner) => {
      if (inner.type === 'AwaitExpression' && !mentions(inner.argument, unit)) lines.push(inner.loc?.start.line ?? 0);
    });
  });
  return lines;
}

/** The TypeScript files under `folder` of `root`, as paths relative to `root`. */
function sourceFiles(root: string, folder: string): string[] {
  return readdirSync(join(root, folder)).flatMap((entry) => {
    const path = `${folder}/${entry}`;
    if (entry === 'node_modules' || entry.startsWith('.') || entry === '+types') return [];
    if (statSync(join(root, path)).isDirectory()) return sourceFiles(root, path);
    return /\.tsx?$/.test(entry) ? [path] : [];
  });
}

/** Every broken rule under the given folders of `root` (the repository by default). */
export function checkTree(root = '.', folders = ['app', 'server', 'common']): Violation[] {
  return folders.flatMap((folder) => sourceFiles(root, folder)).flatMap((file) => checkFile(file, readFileSync(join(root, file), 'utf8')));
}

if (import.meta.main) {
  const violations = checkTree();
  for (const v of violations) console.error(`${v.file}: '${v.specifier}': ${v.rule}`);
  if (violations.length > 0) {
    console.error(`${violations.length} layer rule${violations.length === 1 ? '' : 's'} broken (see docs/decisions/055-layer-rules.md and 083).`);
    process.exit(1);
  }
}
