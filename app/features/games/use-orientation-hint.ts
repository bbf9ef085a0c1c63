import { useCallback, useState } from 'react';
import { useBrowserStore } from '../../lib/use-browser-store.ts';
import type { GameConfig } from '#common/api/catalogue.schema.ts';

/** Whether a media query matches; false on the server and during hydration. */
function useMediaQuery(query: string): boolean {
  const subscribe = useCallback(
    (onChange: () => void) => {
      const list = window.matchMedia(query);
      list.addEventListener('change', onChange);
      return () => list.removeEventListener('change', onChange);
    },
    [query],
  );
  const matches = useCallback(() => window.matchMedia(query).matches, [query]);
  return useBrowserStore(subscribe, matches, false);
}

/** On a touch device held the other way than the game wants, a hint to turn it; dismissed for the visit. */
export function useOrientationHint(want: GameConfig['orientation']) {
  const touch = useMediaQuery('(pointer: coarse)');
  const portrait = useMediaQuery('(orientation: portrait)');
  const [dismissed, setDismissed] = useState(false);
  const mismatch = want !== 'any' && touch && portrait !== (want === 'portrait');
  return mismatch && !dismissed ? { want, dismiss: () => setDismissed(true) } : null;
}
