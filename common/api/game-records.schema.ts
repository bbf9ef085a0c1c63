import { z } from 'zod';
import { AppIdSchema } from './catalogue.schema.ts';

/*
 * Leaderboards and achievements of games (SDK 1.1; decision 092). Declared in a game's catalogue
 * entry; scores are integers (a number of points, or a time in milliseconds). Rule messages are
 * translation keys of the `games` namespace.
 */

import { LEADERBOARD_LIMIT_MAX, PERIODS, type Period, RECORD_ID_PATTERN, SCORE_MAX, SCORE_MIN } from '../game-records.ts';

export { LEADERBOARD_LIMIT_MAX, PERIODS, type Period, RECORD_ID_PATTERN, SCORE_MAX, SCORE_MIN };

const RecordIdSchema = z.string().regex(RECORD_ID_PATTERN, 'games:records.id').meta({ description: '1–64 lower-case letters, digits, _ . -' });
const PeriodSchema = z.enum(PERIODS);
const ScoreSchema = z.number().int('games:records.integer').min(SCORE_MIN).max(SCORE_MAX);

export const BoardParamsSchema = z.object({ app_id: AppIdSchema, board: RecordIdSchema });
export const AchievementParamsSchema = z.object({ app_id: AppIdSchema, achievement: RecordIdSchema });
export const RecordsAppParamsSchema = z.object({ app_id: AppIdSchema });

export const BoardQuerySchema = z.object({
  period: PeriodSchema.default('all-time'),
  limit: z.coerce.number().int().min(1).max(LEADERBOARD_LIMIT_MAX).default(10),
});

export const SubmitScoreBodySchema = z.object({ score: ScoreSchema });

export const LeaderboardEntrySchema = z.object({
  rank: z.number().int().meta({ description: '1 + the number of players with a strictly better score: ties share a rank' }),
  nickname: z.string().nullable(),
  isGuest: z.boolean(),
  score: z.number().int(),
  achievedAt: z.string(),
  isCaller: z.boolean(),
});
export type LeaderboardEntry = z.infer<typeof LeaderboardEntrySchema>;

export const BoardInfoSchema = z.object({
  id: z.string(),
  name: z.string().meta({ description: "In the request's language" }),
  order: z.enum(['asc', 'desc']).meta({ description: 'asc: lower is better (times); desc: higher is better' }),
  format: z.enum(['number', 'time']).meta({ description: 'number: points; time: milliseconds' }),
  min: z.number().int(),
  max: z.number().int(),
  periods: z.array(PeriodSchema),
  backendOnly: z.boolean(),
});
export type BoardInfo = z.infer<typeof BoardInfoSchema>;

export const LeaderboardSchema = z.object({
  board: BoardInfoSchema,
  period: PeriodSchema,
  entries: z.array(LeaderboardEntrySchema),
  me: z
    .object({ rank: z.number().int(), score: z.number().int() })
    .nullable()
    .meta({ description: "The caller's own rank and best score in the period; null without a score (and in top lists without a caller)" }),
});
export type Leaderboard = z.infer<typeof LeaderboardSchema>;

export const SubmitScoreSchema = z.object({
  board: z.string(),
  score: z.number().int(),
  periods: z.array(
    z.object({
      period: PeriodSchema,
      best: z.number().int().meta({ description: "The player's best in the period after this score" }),
      improved: z.boolean().meta({ description: 'Whether this score became the best' }),
    }),
  ),
});
export type SubmitScore = z.infer<typeof SubmitScoreSchema>;

export const AchievementSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  icon: z.string().nullable().meta({ description: 'Image path on the portal (served through /_img/ like other game images)' }),
  unlockedAt: z.string().nullable(),
});
export type Achievement = z.infer<typeof AchievementSchema>;

export const UnlockSchema = z.object({ id: z.string(), unlockedAt: z.string(), newlyUnlocked: z.boolean() });
export type Unlock = z.infer<typeof UnlockSchema>;

/** GET /game/records/{app_id}: what the app page shows, the same for everybody. */
export const GameRecordsSchema = z.object({
  boards: z.array(BoardInfoSchema.extend({ tops: z.array(z.object({ period: PeriodSchema, entries: z.array(LeaderboardEntrySchema) })) })),
  achievements: z.array(AchievementSchema.omit({ unlockedAt: true }).extend({ players: z.number().int() })),
});
export type GameRecords = z.infer<typeof GameRecordsSchema>;

/** GET /user/achievements: the caller's unlocked achievements per game (My area). */
export const MyAchievementsSchema = z.array(
  z.object({
    app: z.object({ id: z.number().int(), slug: z.string(), title: z.string(), thumbnail: z.string() }),
    achievements: z.array(AchievementSchema),
  }),
);
export type MyAchievements = z.infer<typeof MyAchievementsSchema>;

/** Bodies of the signed server-to-server calls of a game's backend. */
/** A backend call in test mode names a preview of the game (decision 111); the body is signed, so the label is too. */
// No NUL: PostgreSQL's text cannot hold one, and the label is looked up.
export const BackendPreviewSchema = z
  .string()
  .max(64)
  .refine((label) => !label.includes('\u0000'), 'games:records.previewLabel')
  .optional()
  .meta({
    description:
      "Optional: the label of one of the game's build previews (`b{build}-{signature}`, as in its preview link): the call is then in test mode, on the test boards and test purchases, and works before the game is published",
  });

export const BackendScoreBodySchema = z.object({ uid: z.number().int().positive(), board: RecordIdSchema, score: ScoreSchema, preview: BackendPreviewSchema });
export const BackendUnlockBodySchema = z.object({ uid: z.number().int().positive(), achievement: RecordIdSchema, preview: BackendPreviewSchema });

type Named<T> = { en: T; 'zh-CN'?: Partial<T> | undefined };

/** A board as the catalogue import stores it (apps.leaderboards). */
export interface DeclaredBoard {
  id: string;
  order: 'asc' | 'desc';
  format: 'number' | 'time';
  min: number;
  max: number;
  periods: Period[];
  backendOnly: boolean;
  names: Named<{ name: string }>;
}

/** An achievement as the catalogue import stores it (apps.achievements). */
export interface DeclaredAchievement {
  id: string;
  icon: string | null;
  backendOnly: boolean;
  texts: Named<{ name: string; description: string }>;
}
