import { useState, useSyncExternalStore } from 'react';
import type { GameConfig } from '#common/api/catalogue.schema.ts';

/** Whether a media query matches; false on the server and during hydration. */
function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (onChange) => {
      const list = window.matchMedia(query);
      list.addEventListener('change', onChange);
      return () => list.removeEventListener('change', onChange);
    },
    () => window.matchMedia(query).matches,
    () => false,
  );
}

/** On a touch device held the other way than the game wants, a hint to turn it; dismissed for the visit. */
export function useOrientationHint(want: GameConfig['orientation']) {
  const touch = useMediaQuery('(pointer: coarse)');
  const portrait = useMediaQuery('(orientation: portrait)');
  const [dismissed, setDismissed] = useState(false);
  const mismatch = want !== 'any' && touch && portrait !== (want === 'portrait');
  return mismatch && !dismissed ? { want, dismiss: () => setDismissed(true) } : null;
}
