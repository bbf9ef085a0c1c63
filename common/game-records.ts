// Leaderboard and achievement limits (decision 092), without zod: the play page checks a game's
// calls with them on its first load (decision 078: no schema module on arrival).

/** Ids of boards and achievements: 1–64 lower-case letters, digits, _ . - */
export const RECORD_ID_PATTERN = /^[a-z0-9][a-z0-9_.-]{0,63}$/;
export const PERIODS = ['daily', 'weekly', 'all-time'] as const;
export type Period = (typeof PERIODS)[number];
/** Scores are stored as 32-bit integers in both databases. */
export const SCORE_MIN = -2_147_483_648;
export const SCORE_MAX = 2_147_483_647;
export const LEADERBOARD_LIMIT_MAX = 50;
