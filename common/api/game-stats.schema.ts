import { z } from 'zod';
import { MAX_LOADING_MS, MAX_PLAY_MS, MAX_TO_GAMEPLAY_MS } from '../game-stats.ts';
import { AppIdSchema } from './catalogue.schema.ts';

export { MAX_LOADING_MS, MAX_PLAY_MS, MAX_TO_GAMEPLAY_MS, PLAY_MS_GRACE } from '../game-stats.ts';

/*
 * Play statistics of a game (SDK 1.1 `game` events; decision 093): what the play page reports for
 * one visit of the play page (a "play session"), and the per-day figures a developer's statistics
 * are built from. Durations are whole milliseconds.
 */

export const GameSessionParamsSchema = z.object({ app_id: AppIdSchema });

const duration = (max: number, description: string) => z.number().int().min(0).max(max).meta({ description });

/** POST /tracking/game-sessions/{app_id}: the whole of a play session so far (reports repeat; the latest counts). */
export const GameSessionReportSchema = z.object({
  session_id: z
    .string()
    .regex(/^[A-Za-z0-9_-]{16,64}$/, 'errors:validation')
    .meta({ description: 'Random id the play page made for this visit: 16–64 letters, digits, _ or -' }),
  loading_ms: duration(MAX_LOADING_MS, 'Loading time: loadingStart to loadingStop, or the frame address to the loaded message; at most 10 minutes')
    .nullable()
    .default(null),
  to_gameplay_ms: duration(MAX_TO_GAMEPLAY_MS, 'From the play page giving the frame its address to the first gameplayStart; at most 1 hour')
    .nullable()
    .default(null),
  play_ms: duration(MAX_PLAY_MS, 'Play time so far (between gameplayStart and gameplayStop, page visible, no ad break); at most 24 hours').default(0),
});
export type GameSessionReport = z.output<typeof GameSessionReportSchema>;

export const GameSessionSchema = z.object({
  sessionId: z.string(),
  appId: z.number(),
  day: z.string().meta({ description: 'UTC day the session started, YYYY-MM-DD' }),
  loadingMs: z.number().nullable(),
  toGameplayMs: z.number().nullable(),
  playMs: z.number(),
  startedAt: z.string(),
  updatedAt: z.string(),
});
export type GameSession = z.infer<typeof GameSessionSchema>;
export const GameSessionListSchema = z.object({ items: z.array(GameSessionSchema) });

/** One game's figures for one UTC day. */
export interface GameDayStats {
  appId: number;
  day: string;
  sessions: number;
  medianLoadingMs: number | null;
  medianToGameplayMs: number | null;
  totalPlayMs: number;
  averagePlayMs: number;
}
