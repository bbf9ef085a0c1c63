/**
 * The rules of the Studio's play statistics (decision 103) that the code reading them shares with
 * the rollup kept by triggers on `game_sessions` (migration 0025, which holds a frozen copy:
 * a migration never changes; `game-stats-rules.test.ts` keeps the two equal).
 */

/** Times to gameplay are counted in buckets this wide (the Studio's medians are to 100 ms). */
export const GAMEPLAY_BUCKET_MS = 100;
