import { onIdle } from '../../lib/idle.ts';
import { PERSONAL_CACHES } from './cache-names.ts';

/**
 * A first visit's worker installs by downloading the site's files (about 1 MB), a few hundred
 * milliseconds of CPU: not while the page and, on a play page, the game are still starting
 * (their load event, then the guest's sign-in), which would have to share the phone's cores with it.
 */
const SETTLE_MS = 4000;

/**
 * Registers the service worker (decision 065) once the page has loaded, settled and the browser
 * is idle, so it never competes with the page's start (decision 106). Production builds only; in
 * development only when asked (localStorage "playport:sw" = "on").
 */
export function registerServiceWorker(): void {
  if (!('serviceWorker' in navigator) || (!import.meta.env.PROD && !askedInDevelopment())) return;
  if (document.readyState === 'complete') whenSettled();
  else window.addEventListener('load', whenSettled, { once: true });
}

const whenSettled = () => setTimeout(() => onIdle(register, 5000), SETTLE_MS);

function register(): void {
  void navigator.serviceWorker.register('/sw.js', { scope: '/', updateViaCache: 'none' }).catch(() => undefined);
}

function askedInDevelopment(): boolean {
  try {
    return localStorage.getItem('playport:sw') === 'on';
  } catch {
    return false;
  }
}

/** A newer build is out: fetch its worker now, so it takes over with the next (full) navigation. */
export function updateServiceWorker(): void {
  if ('serviceWorker' in navigator) void navigator.serviceWorker.getRegistration().then((registration) => registration?.update().catch(() => undefined));
}

/**
 * Another session on this device (sign-out, another account): the pages kept for offline use
 * showed the previous visitor's nickname and library, so they go. Games and images stay.
 */
export function forgetPersonalPages(): void {
  if (typeof caches === 'undefined') return;
  for (const name of PERSONAL_CACHES) void caches.delete(name).catch(() => undefined);
}
