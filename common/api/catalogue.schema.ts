import { z } from 'zod';
import { SLUG_PATTERN } from '../constants.ts';

export const AppTypeSchema = z.enum(['game', 'app']);
export const AppSortSchema = z.enum(['popular', 'newest', 'name']);

export const SlugSchema = z.string().min(1).max(64).regex(SLUG_PATTERN, 'errors:field.invalidFormat');

/** GET /app/list/ query. */
export const AppListQuerySchema = z.object({
  type: AppTypeSchema.optional(),
  category: SlugSchema.optional(),
  tag: SlugSchema.optional(),
  q: z.string().trim().min(1).max(100).optional(),
  sort: AppSortSchema.default('popular'),
  featured: z.enum(['1', 'true']).transform(() => true).optional(),
  limit: z.coerce.number().int().min(1).max(60).default(24),
  cursor: z.string().max(200).optional(),
});
export type AppListQuery = z.output<typeof AppListQuerySchema>;

export const AppSummarySchema = z.object({
  id: z.number(),
  slug: z.string(),
  type: AppTypeSchema,
  title: z.string(),
  summary: z.string(),
  thumbnail: z.string(),
  width: z.number(),
  height: z.number(),
  orientation: z.enum(['portrait', 'landscape', 'any']),
  featured: z.boolean(),
  playCount: z.number(),
  releasedAt: z.string(),
});
export type AppSummary = z.infer<typeof AppSummarySchema>;

export const AppListSchema = z.object({
  items: z.array(AppSummarySchema),
  nextCursor: z.string().nullable(),
});
export type AppList = z.infer<typeof AppListSchema>;
