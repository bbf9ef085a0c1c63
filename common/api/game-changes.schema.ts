import { z } from 'zod';
import { AppIdSchema } from './catalogue.schema.ts';

/* Changes of a live game sent through review (issue 35, point 13; decision 112). */

/** The fields of the Studio's game form that a change may touch; every one is reviewed once the game is live. */
export const GAME_CHANGE_FIELDS = [
  'i18n',
  'categories',
  'tags',
  'orientation',
  'width',
  'height',
  'backends',
  'thumbnail',
  'cover',
  'screenshots',
  'items',
  'leaderboards',
  'achievements',
] as const;
export type GameChangeField = (typeof GAME_CHANGE_FIELDS)[number];

export const ITEM_CHANGE_KINDS = ['new', 'removed', 'price', 'name', 'kind'] as const;

const ItemStateSchema = z.object({
  price: z.number().int().meta({ description: 'In minor units of its currency' }),
  currency: z.string(),
  kind: z.string(),
  names: z.record(z.string(), z.string().optional()),
});

export const ItemChangeSchema = z.object({
  sku: z.string(),
  what: z.array(z.enum(ITEM_CHANGE_KINDS)),
  before: ItemStateSchema.nullable().meta({ description: 'null for a new item' }),
  after: ItemStateSchema.nullable().meta({ description: 'null for an item no longer sold' }),
});
export type ItemChange = z.infer<typeof ItemChangeSchema>;

export const GameChangeSummarySchema = z.object({
  fields: z.array(z.enum(GAME_CHANGE_FIELDS)).meta({ description: 'The form fields that differ from the live game' }),
  items: z.array(ItemChangeSchema).meta({ description: 'Each item added, removed, repriced, renamed or of another kind' }),
  before: z.record(z.string(), z.unknown()).meta({ description: 'The live values of the changed fields other than items' }),
  after: z.record(z.string(), z.unknown()).meta({ description: 'The proposed values of those fields' }),
});
export type GameChangeSummary = z.infer<typeof GameChangeSummarySchema>;

export const GAME_CHANGE_STATUSES = ['pending', 'approved', 'rejected'] as const;

/** The newest change of a live game, as its studio sees it. */
export const StudioGameReviewSchema = z.object({
  id: z.number().int(),
  status: z.enum(GAME_CHANGE_STATUSES),
  submittedAt: z.string(),
  reviewedAt: z.string().nullable(),
  reason: z.string().nullable().meta({ description: "The operator's reason when rejected" }),
  changes: GameChangeSummarySchema,
});
export type StudioGameReview = z.infer<typeof StudioGameReviewSchema>;

export const QueuedGameChangeSchema = z.object({
  id: z.number().int(),
  appId: z.number().int(),
  slug: z.string(),
  title: z.string(),
  studioName: z.string().nullable(),
  submittedAt: z.string(),
  changes: GameChangeSummarySchema,
});
export type QueuedGameChange = z.infer<typeof QueuedGameChangeSchema>;
export const GameChangeQueueSchema = z.object({ changes: z.array(QueuedGameChangeSchema) });

export const GameChangeParamsSchema = z.object({ change_id: z.coerce.number().int().positive().max(2_147_483_647) });
export const GameChangeReviewedSchema = z.object({ id: z.number().int(), appId: z.number().int(), status: z.enum(GAME_CHANGE_STATUSES) });

export const PriceChangeSchema = z.object({
  sku: z.string(),
  currency: z.string(),
  oldPrice: z.number().int().nullable().meta({ description: 'null for an item that was new' }),
  oldCurrency: z.string().nullable(),
  newPrice: z.number().int(),
  changedAt: z.string().meta({ description: 'When the approved change took effect: orders created from then on pay the new price' }),
});
export type PriceChange = z.infer<typeof PriceChangeSchema>;
export const PriceHistorySchema = z.object({ changes: z.array(PriceChangeSchema) });
export const StudioGameChangeParamsSchema = z.object({ app_id: AppIdSchema });
