import type { GameConfig } from '#common/api/catalogue.schema.ts';

/** After the frame's load event, how long a game may take to say it is ready before the spinner gives way anyway. */
export const READY_GRACE_MS = 4000;
/** When to say that loading takes longer than usual. */
export const SLOW_MS = 10_000;

/** The share of a large game loaded so far (0 to 1) that a `playport:loading` message reports, or null for any other message. */
export function loadingProgressOf(data: unknown): number | null {
  if (typeof data !== 'object' || data === null) return null;
  const { type, progress } = data as { type?: unknown; progress?: unknown };
  if (type !== 'playport:loading' || typeof progress !== 'number' || !Number.isFinite(progress)) return null;
  return Math.min(1, Math.max(0, progress));
}

/**
 * The name to record for a game that posted its "loaded" message (`{ type, name }`), or null when
 * `data` is not that message. A name that is not a short string gives way to the game's slug.
 */
export function loadedGameName(data: unknown, game: Pick<GameConfig, 'slug'> & { sdk: Pick<GameConfig['sdk'], 'loadedMessage'> }): string | null {
  if (typeof data !== 'object' || data === null) return null;
  const { type, name } = data as { type?: unknown; name?: unknown };
  if (type !== game.sdk.loadedMessage) return null;
  return typeof name === 'string' && name.length <= 100 ? name : game.slug;
}
