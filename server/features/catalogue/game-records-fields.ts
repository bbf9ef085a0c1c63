import { z } from 'zod';
import { type DeclaredAchievement, type DeclaredBoard, PERIODS, RECORD_ID_PATTERN, SCORE_MAX, SCORE_MIN } from '#common/api/game-records.schema.ts';

/*
 * The `leaderboards` and `achievements` fields of a catalogue entry (decision 092). Both languages
 * are required: the app page shows them in either.
 */

const both = <S extends z.ZodRawShape>(shape: S) =>
  z.object({ en: z.object(shape).describe('English (required).'), 'zh-CN': z.object(shape).describe('Simplified Chinese (required).') });
const id = z.string().regex(RECORD_ID_PATTERN, 'games:records.id');
const bound = z.number().int().min(SCORE_MIN).max(SCORE_MAX);

export const LeaderboardsField = z
  .array(
    z
      .object({
        id: id.describe("The board's id, which the game passes to Playport.leaderboard: 1–64 lower-case letters, digits, _ . -."),
        order: z.enum(['asc', 'desc']).describe('desc: a higher score is better (points); asc: a lower one is (times).'),
        format: z.enum(['number', 'time']).default('number').describe('How scores are shown: number (points) or time (milliseconds, shown m:ss.mmm).'),
        min: bound.default(0).describe('The lowest score accepted; one below it is refused (score_out_of_bounds).'),
        max: bound.describe('The highest score accepted; one above it is refused (score_out_of_bounds).'),
        periods: z
          .array(z.enum(PERIODS))
          .min(1)
          .default(['all-time'])
          .describe('The periods the board keeps a best score for: daily, weekly (ISO weeks, UTC) and all-time.'),
        backend_only: z.boolean().default(false).describe("true: only the game's backend may submit, with a signed call (docs/sdk/backend-calls.md)."),
        i18n: both({ name: z.string().min(1).max(60).describe("The board's name as the app page shows it.") }).describe("The board's name in each language."),
      })
      .refine((board) => board.min < board.max, { message: 'games:records.maxAboveMin', path: ['max'] }),
  )
  .max(20)
  .default([])
  .describe('Leaderboards the game keeps through Playport.leaderboard (at most 20; decision 092).');

export const AchievementsField = z
  .array(
    z.object({
      id: id.describe("The achievement's id, which the game passes to Playport.achievements.unlock."),
      icon: z.string().min(1).max(200).optional().describe("An image file in the game's folder, shown with the achievement (through the image service)."),
      backend_only: z.boolean().default(false).describe("true: only the game's backend may unlock it, with a signed call (docs/sdk/backend-calls.md)."),
      i18n: both({
        name: z.string().min(1).max(60).describe("The achievement's name."),
        description: z.string().min(1).max(200).describe('What the player did to earn it.'),
      }).describe("The achievement's name and description in each language."),
    }),
  )
  .max(100)
  .default([])
  .describe('Achievements the game unlocks through Playport.achievements (at most 100; decision 092).');

const twice = (values: string[]) => [...new Set(values.filter((value, i) => values.indexOf(value) !== i))];

/** Problems of the two fields that a schema cannot see (ids listed twice). */
export function recordProblems(where: string, boards: z.output<typeof LeaderboardsField>, achievements: z.output<typeof AchievementsField>): string[] {
  return [
    ...twice(boards.map((b) => b.id)).map((d) => `${where}: leaderboards: id "${d}" is listed more than once`),
    ...twice(achievements.map((a) => a.id)).map((d) => `${where}: achievements: id "${d}" is listed more than once`),
  ];
}

/** A board as stored with the app. */
export function declaredBoard(board: z.output<typeof LeaderboardsField>[number]): DeclaredBoard {
  return {
    id: board.id,
    order: board.order,
    format: board.format,
    min: board.min,
    max: board.max,
    periods: [...new Set(board.periods)],
    backendOnly: board.backend_only,
    names: board.i18n,
  };
}

/** An achievement as stored with the app; `icon` is its resolved public path. */
export function declaredAchievement(achievement: z.output<typeof AchievementsField>[number], icon: string | null): DeclaredAchievement {
  return { id: achievement.id, icon, backendOnly: achievement.backend_only, texts: achievement.i18n };
}
