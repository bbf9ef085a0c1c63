import { type RefObject, useSyncExternalStore } from 'react';
import type { GameConfig } from '#common/api/catalogue.schema.ts';
import { useBrowserCapability } from '../../lib/use-browser-capability.ts';

const fullscreenEnabled = () => document.fullscreenEnabled;

/** Full screen for the game's stage (not the whole page), with the orientation locked where the device allows it. */
export function useFullscreen(stage: RefObject<HTMLDivElement | null>, orientation: GameConfig['orientation']) {
  // Known only in the browser: the server's answer (no) is what hydration renders, then the real one.
  const supported = useBrowserCapability(fullscreenEnabled);
  const active = useSyncExternalStore(
    (onChange) => {
      document.addEventListener('fullscreenchange', onChange);
      return () => document.removeEventListener('fullscreenchange', onChange);
    },
    () => document.fullscreenElement !== null && document.fullscreenElement === stage.current,
    () => false,
  );
  const toggle = async () => {
    try {
      if (document.fullscreenElement) {
        await document.exitFullscreen();
        return;
      }
      await stage.current?.requestFullscreen({ navigationUI: 'hide' });
      // Only phones in full screen accept a lock, and not all of them: a refusal changes nothing.
      const lock = (screen.orientation as ScreenOrientation & { lock?: (o: string) => Promise<void> }).lock;
      if (orientation !== 'any' && lock) await lock.call(screen.orientation, orientation).catch(() => undefined);
    } catch {
      // Refused (no user gesture, or the browser does not allow it): the game keeps playing as it is.
    }
  };
  return { supported, active, toggle: () => void toggle() };
}
