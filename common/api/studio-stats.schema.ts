import { z } from 'zod';
import { AppIdSchema } from './catalogue.schema.ts';

/*
 * A developer's statistics of one game (issue 27, point 4; decision 101): per UTC day, plays,
 * players, play time, time to gameplay, new players the game brought to the portal, and sales per
 * item. Durations are whole milliseconds, amounts integer minor units of their currency.
 */

/** The ranges the Studio offers: the last 7, 30 or 90 UTC days, today included. */
export const STATS_RANGES = [7, 30, 90] as const;
export type StatsRange = (typeof STATS_RANGES)[number];

export const StudioStatsParamsSchema = z.object({ id: AppIdSchema.meta({ description: "The game's id" }) });

export const StudioStatsQuerySchema = z.object({
  days: z
    .enum(['7', '30', '90'])
    .default('30')
    .transform((days) => Number(days) as StatsRange)
    .meta({ description: 'The last 7, 30 or 90 UTC days, today included (30 when absent)' }),
});

const count = z.number().int().min(0);
const ms = z.number().int().min(0).nullable();

export const StatsDaySchema = z.object({
  day: z.string().meta({ description: 'UTC day, YYYY-MM-DD' }),
  plays: count.meta({ description: 'Visits of the play page (play sessions) that started that day' }),
  players: count.meta({ description: 'Distinct accounts among those plays' }),
  averagePlayMs: ms.meta({ description: 'Play time per play; null without plays' }),
  medianToGameplayMs: ms.meta({
    description:
      "Median time from opening the play page to the game's first gameplayStart, to 100 ms (each time counted at the start of its 100 ms); null when no play reported one",
  }),
  newPlayers: count.meta({ description: 'Accounts whose first game ever played on the portal was this one, first played that day' }),
  newMembers: count.meta({ description: 'Of those new players, the accounts that are now registered members (not guests)' }),
});
export type StatsDay = z.infer<typeof StatsDaySchema>;

export const StatsSaleSchema = z.object({
  day: z.string().meta({ description: 'UTC day, YYYY-MM-DD: of the payment for orders, of the refund for refunds' }),
  sku: z.string(),
  itemName: z.string().meta({ description: "The item's name in the request's language (English, else the SKU)" }),
  currency: z.string(),
  orders: count.meta({ description: 'Orders paid that day' }),
  revenueMinor: count.meta({ description: 'What those orders paid, in minor units' }),
  refunds: count.meta({ description: 'Orders refunded that day' }),
  refundedMinor: count.meta({ description: 'What those refunds gave back, in minor units' }),
});
export type StatsSale = z.infer<typeof StatsSaleSchema>;

export const StatsMoneySchema = z.object({ currency: z.string(), orders: count, revenueMinor: count, refunds: count, refundedMinor: count });
export type StatsMoney = z.infer<typeof StatsMoneySchema>;

export const StudioStatsSchema = z.object({
  appId: z.number().int(),
  title: z.string(),
  days: z.number().int(),
  from: z.string().meta({ description: 'First UTC day of the range, YYYY-MM-DD' }),
  to: z.string().meta({ description: 'Last UTC day of the range (today), YYYY-MM-DD' }),
  summary: z.object({
    plays: count,
    players: count.meta({ description: 'Distinct accounts over the whole range (not the sum of the days)' }),
    averagePlayMs: ms,
    medianToGameplayMs: ms,
    newPlayers: count,
    newMembers: count,
    money: z.array(StatsMoneySchema).meta({ description: 'Sales and refunds over the range, one row per currency' }),
  }),
  daily: z.array(StatsDaySchema).meta({ description: 'Every day of the range, oldest first, days without plays included' }),
  sales: z.array(StatsSaleSchema).meta({ description: 'Per day and item: only days with a payment or a refund, oldest first' }),
});
export type StudioStats = z.infer<typeof StudioStatsSchema>;
