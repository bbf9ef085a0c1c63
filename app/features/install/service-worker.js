// The portal's service worker (decision 065), bundled by scripts/build-service-worker.ts with
// Workbox's modules; workbox-build injects the precache list in place of self.__WB_MANIFEST.
// Plain JavaScript: it runs in a worker, whose types the app's DOM build does not share.
import { CACHE_NAMES } from './cache-names.ts';
import { tokenFromUrl, urlWithoutToken } from '../accounts/session-token.ts';
import { CacheableResponsePlugin } from 'workbox-cacheable-response';
import { ExpirationPlugin } from 'workbox-expiration';
import { cleanupOutdatedCaches, matchPrecache, precacheAndRoute } from 'workbox-precaching';
import { registerRoute, setCatchHandler } from 'workbox-routing';
import { CacheFirst, NetworkFirst, StaleWhileRevalidate } from 'workbox-strategies';

const DAY = 24 * 60 * 60;
const ok = new CacheableResponsePlugin({ statuses: [200] });

// The shell: the app's scripts and styles, icons, and the offline page of each locale.
precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();

// A navigation carrying a session token goes to the server, which removes the token from the
// address and hands it to the page to offer (decision 050); it is never answered from the cache
// nor kept there. Offline, where the token cannot be checked, it is dropped: the same address
// without it, answered like any other page.
registerRoute(
  ({ request, url }) => request.mode === 'navigate' && tokenFromUrl(url) !== null,
  async ({ request, url }) => {
    try {
      return await fetch(request);
    } catch {
      return Response.redirect(new URL(urlWithoutToken(url), self.location.origin).href, 302);
    }
  },
);

// Pages: the network first (a page is fresh when it can be), the last copy when offline.
// The play page of a game played before is among them, so the game can be played again offline.
// An address holding a one-time secret (a reset link's key, a mail's code, decision 146) is never kept.
registerRoute(
  ({ request, url }) =>
    request.mode === 'navigate' &&
    !url.pathname.startsWith('/serve/') &&
    !url.pathname.startsWith('/oauth/') &&
    !url.pathname.startsWith('/payment/') &&
    !url.searchParams.has('key') &&
    !url.searchParams.has('code'),
  new NetworkFirst({
    cacheName: CACHE_NAMES.pages,
    networkTimeoutSeconds: 4,
    plugins: [ok, new ExpirationPlugin({ maxEntries: 60, maxAgeSeconds: 14 * DAY })],
  }),
);
// The data of client navigations (React Router's .data requests), likewise.
registerRoute(
  ({ url, request }) => request.method === 'GET' && url.origin === self.location.origin && url.pathname.endsWith('.data'),
  new NetworkFirst({
    cacheName: CACHE_NAMES.pageData,
    networkTimeoutSeconds: 4,
    plugins: [ok, new ExpirationPlugin({ maxEntries: 60, maxAgeSeconds: 14 * DAY })],
  }),
);
// My area's game lists, so that My area (where the offline page sends the visitor) lists the
// games played before when offline (decision 117). Personal, like the pages: any other session
// on this device empties the cache (PERSONAL_CACHES). No other API answer is kept.
registerRoute(
  ({ url, request }) => request.method === 'GET' && url.origin === self.location.origin && /^\/serve\/api\/member\/(played|favourite)\/$/.test(url.pathname),
  new NetworkFirst({
    cacheName: CACHE_NAMES.library,
    networkTimeoutSeconds: 4,
    plugins: [ok, new ExpirationPlugin({ maxEntries: 12, maxAgeSeconds: 14 * DAY })],
  }),
);
// Interface texts per locale and build.
registerRoute(
  ({ url }) => url.origin === self.location.origin && url.pathname.endsWith('/messages.json'),
  new StaleWhileRevalidate({ cacheName: CACHE_NAMES.messages, plugins: [ok, new ExpirationPlugin({ maxEntries: 6, maxAgeSeconds: 30 * DAY })] }),
);
// Games and the SDK: a game played once plays again offline (its responses keep their sandbox policy).
registerRoute(
  ({ url }) => url.origin === self.location.origin && (url.pathname.startsWith('/games/') || url.pathname.startsWith('/sdk/')),
  new StaleWhileRevalidate({
    cacheName: CACHE_NAMES.games,
    plugins: [ok, new ExpirationPlugin({ maxEntries: 400, maxAgeSeconds: 30 * DAY, purgeOnQuotaError: true })],
  }),
);
// Images: resized covers and thumbnails, uploads, icons.
registerRoute(
  ({ request, url }) =>
    url.origin === self.location.origin && (request.destination === 'image' || url.pathname.startsWith('/_img/') || url.pathname.startsWith('/uploads/')),
  new CacheFirst({ cacheName: CACHE_NAMES.images, plugins: [ok, new ExpirationPlugin({ maxEntries: 300, maxAgeSeconds: 30 * DAY, purgeOnQuotaError: true })] }),
);

// Offline and never visited: the offline page in the visitor's language.
setCatchHandler(async ({ request, url }) => {
  if (request.mode !== 'navigate') return Response.error();
  const locale = /^\/zh-CN(\/|$)/.test(url.pathname) ? 'zh-CN' : 'en';
  return (await matchPrecache(`/offline/${locale}.html`)) ?? Response.error();
});

// A new build's worker takes over at once; the page's build polling makes its next navigation a full load.
self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (event) => event.waitUntil(Promise.all([self.clients.claim(), forgetTokenAddresses().catch(() => undefined)])));

/** Earlier workers kept pages under addresses that still held a token: those entries go. */
async function forgetTokenAddresses() {
  for (const name of [CACHE_NAMES.pages, CACHE_NAMES.pageData]) {
    if (!(await caches.has(name))) continue;
    const cache = await caches.open(name);
    for (const request of await cache.keys()) if (new URL(request.url).searchParams.has('token')) await cache.delete(request);
  }
}
