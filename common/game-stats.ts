// Bounds of the play statistics (decision 093), without zod: the play page measures with them on its first load.

/** Longest plausible loading time (from the frame's address to the game's "loaded"). */
export const MAX_LOADING_MS = 10 * 60_000;
/** Longest plausible wait from opening the play page to the first gameplay. */
export const MAX_TO_GAMEPLAY_MS = 60 * 60_000;
/** Longest play time one play session may report. */
export const MAX_PLAY_MS = 24 * 60 * 60_000;
/** Play time a session's first report may carry beyond the time the server has known the session. */
export const PLAY_MS_GRACE = 2 * 60_000;
