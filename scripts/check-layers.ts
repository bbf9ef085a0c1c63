// The import rules between layers that oxlint's per-file patterns cannot say once for every
// feature (decision 055). Run by `npm run lint`; exits 1 and names each broken rule.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

export interface Violation {
  file: string;
  specifier: string;
  rule: string;
}

const IMPORT = /^\s*(import|export)\s+(type\s+)?[^'";]*?from\s+['"]([^'"]+)['"]|^\s*import\s+['"]([^'"]+)['"]/gm;
const ALIASES: Record<string, string> = { '#app/': 'app/', '#server/': 'server/', '#common/': 'common/' };

/** The repository-relative path an import specifier points at, or null for packages. */
function target(file: string, specifier: string): string | null {
  for (const [alias, folder] of Object.entries(ALIASES)) if (specifier.startsWith(alias)) return folder + specifier.slice(alias.length);
  if (!specifier.startsWith('.')) return null;
  return relative('.', resolve(dirname(file), specifier)).split(sep).join('/');
}

const featureOf = (path: string, side: 'app' | 'server') => new RegExp(`^${side}/features/([^/]+)/`).exec(path)?.[1] ?? null;
const isTest = (path: string) => /\.(test|db\.test|spec)\.tsx?$/.test(path) || path.startsWith('tests/') || path.includes('/testing/');

/** The layer rules one file's imports break. `source` is the file's text. */
export function checkFile(file: string, source: string): Violation[] {
  const found: Violation[] = [];
  for (const match of source.matchAll(IMPORT)) {
    const typeOnly = Boolean(match[2]);
    const specifier = match[3] ?? match[4]!;
    const to = target(file, specifier);
    if (!to) continue;
    const add = (rule: string) => found.push({ file, specifier, rule });
    if (file.startsWith('server/') && !isTest(file) && to.startsWith('app/') && !typeOnly) {
      add('server code imports only types from app/');
    }
    if (file.startsWith('app/') && to.startsWith('server/') && !typeOnly && !/\.server\.tsx?$/.test(file)) {
      add('app/ reaches server modules only from *.server.ts files (or with import type)');
    }
    for (const side of ['server', 'app'] as const) {
      const from = featureOf(file, side);
      const into = featureOf(to, side);
      if (!from || !into || from === into || isTest(file)) continue;
      const name = to.split('/').pop()!;
      const isPublic = side === 'server' ? /\.(service|schema)\.ts$/.test(name) : !/(\.server\.tsx?|-store\.ts|\.repository\.ts)$/.test(name);
      if (!isPublic || (side === 'server' && !typeOnly)) {
        add(side === 'server' ? `features do not import each other's internals: ${from} may use only types of ${into}'s service` : `features do not import each other's internals: ${from} may not use ${into}'s ${name}`);
      }
    }
    if (/^server\/(lib|db)\/|\.(service|repository)\.ts$/.test(file) && to.startsWith('server/http/') && !isTest(file)) {
      add('services, repositories and server/lib know nothing of HTTP: throw AppError (server/lib/app-error.ts), take a Caller (server/lib/caller.ts)');
    }
    if (/^app\/(ui|lib|i18n)\//.test(file) && /^app\/(features|shell|routes)\//.test(to)) {
      add('app/ui, app/lib and app/i18n are shared infrastructure and never import features, the shell or routes');
    }
  }
  return found;
}

function sourceFiles(folder: string): string[] {
  return readdirSync(folder).flatMap((entry) => {
    const path = join(folder, entry);
    if (entry === 'node_modules' || entry.startsWith('.') || entry === '+types') return [];
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry) ? [path.split(sep).join('/')] : [];
  });
}

if (import.meta.main) {
  const violations = ['app', 'server', 'common'].flatMap((folder) => sourceFiles(folder)).flatMap((file) => checkFile(file, readFileSync(file, 'utf8')));
  for (const v of violations) console.error(`${v.file}: '${v.specifier}': ${v.rule}`);
  if (violations.length > 0) {
    console.error(`${violations.length} layer rule${violations.length === 1 ? '' : 's'} broken (see docs/decisions/055-layer-rules.md).`);
    process.exit(1);
  }
}
