// Builds the service worker after the app (decision 065): the offline page of each locale, the
// worker bundled with Workbox's modules (Vite, as a single script), and the precache list injected
// by workbox-build (the app's scripts and styles, icons, offline pages, both locales' texts). Output: build/client/sw.js and build/client/offline/{locale}.html.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'vite';
import { injectManifest } from 'workbox-build';
import { MESSAGES } from '../common/i18n/resources.ts';
import { LOCALES } from '../common/locales.ts';

const client = resolve(process.env.BUILD_DIR ?? 'build', 'client');
const productName = process.env.PRODUCT_NAME || 'Playport';

mkdirSync(resolve(client, 'offline'), { recursive: true });
for (const { code } of LOCALES) {
  const t = MESSAGES[code].shell.offline;
  const home = code === 'en' ? '/' : `/${code}`;
  const myArea = code === 'en' ? '/user' : `/${code}/user`;
  writeFileSync(
    resolve(client, 'offline', `${code}.html`),
    `<!doctype html><html lang="${code}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="color-scheme" content="light dark">` +
      `<title>${t.title} | ${productName}</title><link rel="icon" href="/favicon.svg" type="image/svg+xml">` +
      '<style>body{font-family:system-ui,sans-serif;margin:0;min-height:100dvh;display:grid;place-items:center;background:#fafafa;color:#18181b}@media (prefers-color-scheme:dark){body{background:#09090b;color:#f4f4f5}p{color:#a1a1aa}}main{max-width:28rem;padding:2rem;text-align:center}h1{font-size:1.5rem}p{color:#52525b;line-height:1.5}a{display:inline-block;margin:1rem .25rem 0;padding:.6rem 1.1rem;border:1px solid #15803d;border-radius:.6rem;background:#15803d;color:#fff;text-decoration:none;font-weight:600}a+a{background:transparent;color:#15803d}@media (prefers-color-scheme:dark){a+a{color:#4ade80;border-color:#4ade80}}</style>' +
      `</head><body><main data-testid="offline-page"><img src="/favicon.svg" alt="" width="48" height="48"><h1>${t.title}</h1><p>${t.body}</p><a href="${home}">${t.retry}</a><a href="${myArea}">${t.myArea}</a></main></body></html>\n`,
  );
}

await build({
  configFile: false,
  logLevel: 'warn',
  define: { 'process.env.NODE_ENV': JSON.stringify('production') },
  build: {
    outDir: client,
    emptyOutDir: false,
    copyPublicDir: false,
    minify: true,
    lib: { entry: resolve('app/features/install/service-worker.js'), formats: ['iife'], name: 'serviceWorker', fileName: () => 'sw.js' },
  },
});

// Both locales' interface texts, at the address the pages ask for (versioned by the build).
interface BuiltRoute {
  parentId?: string;
  module: string;
  imports?: string[];
  css?: string[];
}
const { assets } = (await import(pathToFileURL(resolve(process.env.BUILD_DIR ?? 'build', 'server', 'index.js')).href)) as {
  assets: { version: string; entry: BuiltRoute; routes: Record<string, BuiltRoute> };
};

/**
 * The Studio's and the Console's own files (their pages, charts, the upload client) are for
 * developers and operators, not for every visitor who installs the app: they are left out of the
 * precache. A file counts as theirs when only their pages reach it, by static or dynamic import.
 * Their pages are the routes of their layouts' files and every route below them, whatever its id.
 */
const STAFF_LAYOUT = /^routes\/(studio|console)/;
const REFERENCE = /(?:\.\/|assets\/)([\w.-]+\.(?:js|css))/g;
const assetsDir = resolve(client, 'assets');
const references = new Map<string, string[]>(
  readdirSync(assetsDir)
    .filter((name) => name.endsWith('.js'))
    .map((name) => [name, [...readFileSync(resolve(assetsDir, name), 'utf8').matchAll(REFERENCE)].map((match) => match[1]!)]),
);
function reachable(roots: BuiltRoute[]): Set<string> {
  const seen = new Set<string>();
  const queue = roots.flatMap((route) => [route.module, ...(route.imports ?? []), ...(route.css ?? [])].map((path) => path.split('/').pop()!));
  for (let name = queue.pop(); name !== undefined; name = queue.pop()) {
    if (seen.has(name)) continue;
    seen.add(name);
    queue.push(...(references.get(name) ?? []));
  }
  return seen;
}
const routes = Object.entries(assets.routes);
const isStaffRoute = (id: string | undefined): boolean => id !== undefined && (STAFF_LAYOUT.test(id) || isStaffRoute(assets.routes[id]?.parentId));
const forEveryone = reachable([assets.entry, ...routes.filter(([id]) => !isStaffRoute(id)).map(([, route]) => route)]);
const staffOnly = [...reachable(routes.filter(([id]) => isStaffRoute(id)).map(([, route]) => route))].filter((name) => !forEveryone.has(name));
const messages = LOCALES.map(({ code }) => ({ url: `/${code}/messages.json?v=${encodeURIComponent(assets.version)}`, revision: null }));

const { count, size, warnings } = await injectManifest({
  additionalManifestEntries: messages,
  swSrc: resolve(client, 'sw.js'),
  swDest: resolve(client, 'sw.js'),
  globDirectory: client,
  globPatterns: ['assets/**/*.{js,css}', 'offline/*.html', 'icons/*.png', 'favicon.svg'],
  globIgnores: staffOnly.map((name) => `assets/${name}`),
  // Hashed file names need no revision.
  dontCacheBustURLsMatching: /^assets\//,
  maximumFileSizeToCacheInBytes: 2 * 1024 * 1024,
});
for (const warning of warnings) console.warn(warning);
console.log(`service worker: ${count} files precached (${Math.round(size / 1024)} KB); ${staffOnly.length} Studio and Console files left out`);
