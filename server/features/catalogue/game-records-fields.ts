import { z } from 'zod';
import { type DeclaredAchievement, type DeclaredBoard, PERIODS, RECORD_ID_PATTERN, SCORE_MAX, SCORE_MIN } from '#common/api/game-records.schema.ts';

/*
 * The `leaderboards` and `achievements` fields of a catalogue entry (decision 092). Both languages
 * are required: the app page shows them in either.
 */

const both = <S extends z.ZodRawShape>(shape: S) => z.object({ en: z.object(shape), 'zh-CN': z.object(shape) });
const id = z.string().regex(RECORD_ID_PATTERN, 'must be 1–64 lower-case letters, digits, _ . -');
const bound = z.number().int().min(SCORE_MIN).max(SCORE_MAX);

export const LeaderboardsField = z
  .array(
    z
      .object({
        id,
        order: z.enum(['asc', 'desc']),
        format: z.enum(['number', 'time']).default('number'),
        min: bound.default(0),
        max: bound,
        periods: z.array(z.enum(PERIODS)).min(1).default(['all-time']),
        backend_only: z.boolean().default(false),
        i18n: both({ name: z.string().min(1).max(60) }),
      })
      .refine((board) => board.min < board.max, { message: 'min must be below max', path: ['max'] }),
  )
  .max(20)
  .default([]);

export const AchievementsField = z
  .array(
    z.object({
      id,
      icon: z.string().min(1).max(200).optional(),
      backend_only: z.boolean().default(false),
      i18n: both({ name: z.string().min(1).max(60), description: z.string().min(1).max(200) }),
    }),
  )
  .max(100)
  .default([]);

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
