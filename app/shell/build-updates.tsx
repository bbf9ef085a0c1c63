import { useEffect, useRef } from 'react';
import { createPath, useNavigation } from 'react-router';
import { updateServiceWorker } from '../features/install/service-worker-registration.ts';

/** How often the build manifest is polled, and the shortest gap between checks on tab focus. */
export const BUILD_POLL_MS = 60 * 60 * 1000;
export const BUILD_FOCUS_CHECK_GAP_MS = 5 * 60 * 1000;
/** Spec section 9: at most one forced reload per 10 s, so a broken deployment cannot loop. */
export const RELOAD_GUARD_MS = 10_000;
const RELOAD_KEY = 'playport:last-reload';

/** Reloads (or loads `href`) unless the page already did so within RELOAD_GUARD_MS. */
export function reloadGuarded(href?: string): boolean {
  try {
    const last = Number(sessionStorage.getItem(RELOAD_KEY) ?? 0);
    if (Date.now() - last < RELOAD_GUARD_MS) return false;
    sessionStorage.setItem(RELOAD_KEY, String(Date.now()));
  } catch {
    // Without storage there is no guard; reloading is still the right answer to a stale build.
  }
  if (href) window.location.assign(href);
  else window.location.reload();
  return true;
}

/**
 * Spec section 4, updates: polls builds/latest.json; once its id differs from this page's build,
 * the next navigation is a full page load of its target. A chunk that fails to load (the build
 * it belongs to is gone) reloads the current route.
 */
export function BuildUpdates({ buildId }: { buildId: string }) {
  const stale = useRef(false);
  const navigation = useNavigation();

  useEffect(() => {
    let lastCheck = Date.now();
    const check = async () => {
      lastCheck = Date.now();
      try {
        const response = await fetch(`/builds/latest.json?t=${Date.now()}`, { cache: 'no-store' });
        if (!response.ok) return;
        const { id } = (await response.json()) as { id?: unknown };
        if (typeof id === 'string' && id !== buildId && !stale.current) {
          stale.current = true;
          updateServiceWorker();
        }
      } catch {
        // Offline or restarting: the next poll asks again.
      }
    };
    const timer = setInterval(check, BUILD_POLL_MS);
    const onVisible = () => {
      if (document.visibilityState === 'visible' && Date.now() - lastCheck >= BUILD_FOCUS_CHECK_GAP_MS) void check();
    };
    const onPreloadError = (event: Event) => {
      event.preventDefault();
      reloadGuarded();
    };
    document.addEventListener('visibilitychange', onVisible);
    window.addEventListener('vite:preloadError', onPreloadError);
    return () => {
      clearInterval(timer);
      document.removeEventListener('visibilitychange', onVisible);
      window.removeEventListener('vite:preloadError', onPreloadError);
    };
  }, [buildId]);

  useEffect(() => {
    if (stale.current && navigation.state === 'loading' && navigation.location) reloadGuarded(createPath(navigation.location));
  }, [navigation.state, navigation.location]);

  return null;
}
