import { useEffect, useState } from 'react';
import { PrefetchPageLinks, useLocation, useMatches } from 'react-router';
import { onIdle } from '../lib/idle.ts';
import { usePrefetch } from './use-prefetch.ts';

/** Spec section 9: a link's payload is prefetched once it has been visible this long. */
export const VIEWPORT_PREFETCH_DELAY_MS = 1000;
/** At most this many pages per page view: a long list must not prefetch the whole catalogue. */
const MAX_PAGES = 12;
/** The portal's own page links (React Router marks them for route discovery); never sign-in or payment pages. */
const PAGE_LINKS = 'a[data-discover][href^="/"]:not([target]):not([download])';
const NOT_PREFETCHED = /^\/(serve|oauth|payment|api)\//;

/** A route whose `handle` has `viewportPrefetch: false` prefetches nothing on sight (the play page). */
export interface ViewportPrefetchHandle {
  viewportPrefetch?: boolean;
}

/**
 * Payload prefetch on sight (spec section 9): a page link that stays in view for about a second
 * gets its route's data and modules prefetched, as hover and focus already do; nothing on 2g or
 * with data saver. The pages go to React Router's own prefetch links, one page per idle moment:
 * adding a page's links loads its route modules and inserts several elements into the head, which
 * for a screenful of links at once blocked a slow phone for over 100 ms (docs/performance.md).
 */
export function ViewportPrefetch() {
  // The play page leaves the network and the main thread to its game: its one link (back to the
  // app's page) still prefetches on hover, focus and touch.
  const pageAllows = !useMatches().some((match) => (match.handle as ViewportPrefetchHandle | undefined)?.viewportPrefetch === false);
  const enabled = usePrefetch() === 'intent' && pageAllows;
  const { pathname, search } = useLocation();
  const current = pathname + search;
  // The pages chosen on the current page view (another view starts with none).
  const [chosenOn, setChosenOn] = useState<{ view: string; pages: string[] }>({ view: current, pages: [] });

  useEffect(() => {
    if (!enabled || typeof IntersectionObserver === 'undefined') return;
    const chosen = new Set<string>();
    const queued: string[] = [];
    let releasing = false;
    let stopped = false;
    const releaseOne = () => {
      if (releasing || stopped || queued.length === 0) return;
      releasing = true;
      onIdle(() => {
        releasing = false;
        // Offline, a prefetch can only fail: what is queued waits for the next link in view.
        if (stopped || !navigator.onLine) return;
        chosen.add(queued.shift()!);
        setChosenOn({ view: current, pages: [...chosen] });
        releaseOne();
      }, 1000);
    };
    const timers = new Map<Element, ReturnType<typeof setTimeout>>();
    const visibility = new IntersectionObserver((entries) => {
      for (const { target, isIntersecting } of entries) {
        clearTimeout(timers.get(target));
        timers.delete(target);
        if (!isIntersecting) continue;
        timers.set(
          target,
          setTimeout(() => {
            // Offline, a prefetch can only fail; the link is watched again on the next page view.
            if (!navigator.onLine) return;
            visibility.unobserve(target);
            const url = new URL((target as HTMLAnchorElement).href);
            const page = url.pathname + url.search;
            if (url.origin !== window.location.origin || page === current || NOT_PREFETCHED.test(url.pathname)) return;
            if (chosen.has(page) || queued.includes(page) || chosen.size + queued.length >= MAX_PAGES) return;
            queued.push(page);
            releaseOne();
          }, VIEWPORT_PREFETCH_DELAY_MS),
        );
      }
    });
    let scheduled = false;
    const observeLinks = () => {
      scheduled = false;
      for (const link of document.querySelectorAll(PAGE_LINKS)) visibility.observe(link);
    };
    // Links rendered later (load more, menus) are watched too; one pass per frame.
    const additions = new MutationObserver(() => {
      if (!scheduled) {
        scheduled = true;
        requestAnimationFrame(observeLinks);
      }
    });
    observeLinks();
    additions.observe(document.body, { childList: true, subtree: true });
    return () => {
      stopped = true;
      additions.disconnect();
      visibility.disconnect();
      for (const timer of timers.values()) clearTimeout(timer);
    };
  }, [enabled, current]);

  return chosenOn.view === current ? chosenOn.pages.map((page) => <PrefetchPageLinks key={page} page={page} />) : null;
}
