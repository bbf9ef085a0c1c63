/** The SDK 1.1 calls the play page's extras answer (use-game-extras.tsx), not the bridge's answerCall. */
export const EXTRA_METHODS: ReadonlySet<string> = new Set(['game.inviteLink', 'game.params', 'settings.get', 'ad.break']);

/** Whether a bridge request is one of the extras' calls. */
export function isExtraMethod(method: string): boolean {
  return EXTRA_METHODS.has(method);
}

/** The player's sound choice on the play page, kept for the next visit (localStorage). */
export const MUTED_KEY = 'playport:muted';

const mutedListeners = new Set<() => void>();

/** The mute choice as a store for useSyncExternalStore (the server renders unmuted). */
export const mutedStore = {
  get(): boolean {
    try {
      return localStorage.getItem(MUTED_KEY) === '1';
    } catch {
      return memory;
    }
  },
  set(muted: boolean): void {
    memory = muted;
    try {
      localStorage.setItem(MUTED_KEY, muted ? '1' : '0');
    } catch {
      // Storage refused: the choice holds for this page.
    }
    for (const listener of mutedListeners) listener();
  },
  subscribe(listener: () => void): () => void {
    mutedListeners.add(listener);
    return () => mutedListeners.delete(listener);
  },
};
let memory = false;
