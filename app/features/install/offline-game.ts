import { type Locale, localePath } from '#common/locales.ts';
import { api } from '../../lib/api-client.ts';
import { requestMyAreaLists } from '../catalogue/use-member-library.ts';
import { CACHE_NAMES } from './cache-names.ts';

/**
 * Games played offline (decision 065). A sandboxed frame has an opaque origin, and the browser
 * lets no service worker answer for it, nor shares its HTTP cache across visits; so the play page,
 * which the worker does control, keeps the game's files in the worker's cache after a game has
 * loaded, and when the device is offline rebuilds the game as one document from that cache: its
 * styles and scripts inline, its own address as the base. The frame keeps its sandbox.
 */

/** The same-origin styles and scripts a game document loads. */
function gameFiles(doc: Document): Array<{ element: Element; url: string }> {
  const files: Array<{ element: Element; url: string }> = [];
  for (const element of doc.querySelectorAll('link[rel="stylesheet"][href], script[src]')) {
    const url = new URL(element.getAttribute('href') ?? element.getAttribute('src')!, doc.baseURI);
    if (url.origin === window.location.origin) files.push({ element, url: url.href });
  }
  return files;
}

async function parsedGame(url: string): Promise<Document | null> {
  const response = await fetch(url);
  if (!response.ok) return null;
  const doc = new DOMParser().parseFromString(await response.text(), 'text/html');
  const base = doc.createElement('base');
  base.href = new URL(url, window.location.href).href;
  doc.head.prepend(base);
  return doc;
}

/** Whether a service worker answers this page's requests (it keeps what they fetch). */
export function workerControlsPage(): boolean {
  return typeof navigator !== 'undefined' && 'serviceWorker' in navigator && navigator.serviceWorker.controller !== null;
}

/** The most a game's copy for offline play may take on the device (docs/game-sdk.md, "Hosting"). */
export const OFFLINE_COPY_CEILING_BYTES = 5 * 1024 * 1024;

/**
 * Fetches the game's document and files through the worker, which keeps them. A game larger than
 * the ceiling is not kept: its files are dropped from the worker's caches again. Failures are
 * ignored: it is a copy.
 */
export async function keepGameForOffline(url: string): Promise<void> {
  if (!workerControlsPage()) return;
  try {
    const doc = await parsedGame(url);
    if (!doc) return;
    const files = gameFiles(doc).map(({ url: file }) => file);
    const sizes = await Promise.all(files.map((file) => fetch(file).then(async (response) => (await response.arrayBuffer()).byteLength)));
    if (sizes.reduce((sum, size) => sum + size, 0) <= OFFLINE_COPY_CEILING_BYTES) return;
    for (const name of await caches.keys()) {
      const cache = await caches.open(name);
      await Promise.all([url, ...files].map((file) => cache.delete(new URL(file, window.location.href).href, { ignoreSearch: false })));
    }
  } catch {
    // The next visit online tries again.
  }
}

/**
 * The game as one document from the worker's cache, or null when it was not kept. Its scripts
 * carry this page's nonce: a srcdoc document lives under the page's content security policy.
 */
export async function offlineGameDocument(url: string): Promise<string | null> {
  if (!workerControlsPage()) return null;
  try {
    const doc = await parsedGame(url);
    if (!doc) return null;
    for (const { element, url: file } of gameFiles(doc)) {
      const response = await fetch(file);
      if (!response.ok) return null;
      const inline = doc.createElement(element.localName === 'link' ? 'style' : 'script');
      inline.textContent = await response.text();
      const media = element.getAttribute('media');
      if (media) inline.setAttribute('media', media);
      element.replaceWith(inline);
    }
    const nonce = document.querySelector<HTMLScriptElement>('script[nonce]')?.nonce ?? '';
    for (const script of doc.querySelectorAll('script')) script.setAttribute('nonce', nonce);
    return `<!doctype html>\n${doc.documentElement.outerHTML}`;
  } catch {
    return null;
  }
}

/**
 * My area as the offline page's link to it finds it (decision 117): once a game is kept, My
 * area's page and game lists are fetched through the worker, which keeps them with the visitor's
 * other personal copies, so that offline My area lists the game although it was never opened on
 * this device. After this page's calls in flight: one of them records the play. Needs a session.
 */
export async function keepMyAreaForOffline(locale: Locale): Promise<void> {
  if (!workerControlsPage()) return;
  try {
    await api.settled();
    await (await caches.open(CACHE_NAMES.pages)).add(localePath(locale, '/user'));
    await requestMyAreaLists(locale);
  } catch {
    // The next game played online tries again.
  }
}
