/**
 * Every message between the game's frame and the play page, for whoever observes it: the QA mode's
 * log (docs/game-sdk.md, "QA mode"). The play page reports each message the frame sends and each
 * one it posts to the frame; with no observer (the play page) a report costs one size check.
 */

/** One message: from the game's frame to the page, or from the page to the frame. */
export interface GameTraffic {
  direction: 'from-game' | 'to-game';
  message: unknown;
  /** When it passed (ms since the epoch). */
  at: number;
}

type Observer = (traffic: GameTraffic) => void;
const observers = new Set<Observer>();

/** Calls `observer` with every message from now on; returns the function that stops it. */
export function observeGameTraffic(observer: Observer): () => void {
  observers.add(observer);
  return () => observers.delete(observer);
}

/** Reports a message to the observers (none outside the QA mode). */
export function reportGameTraffic(direction: GameTraffic['direction'], message: unknown): void {
  if (observers.size === 0) return;
  const traffic = { direction, message, at: Date.now() };
  for (const observer of observers) observer(traffic);
}
