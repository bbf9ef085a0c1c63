import { z } from 'zod';

/* Developers' Studio keys for build pipelines (issue 27, point 2; decision 102). */

export const STUDIO_KEY_NAME_MAX = 60;
/** How many keys a developer may hold at once. */
export const STUDIO_KEYS_MAX = 10;

export const StudioKeyBodySchema = z.object({
  name: z.string().trim().min(1, 'studio:keys.errors.nameRequired').max(STUDIO_KEY_NAME_MAX),
});

export const StudioKeyParamsSchema = z.object({ key_id: z.coerce.number().int().positive().max(2_147_483_647) });

export const StudioKeySchema = z.object({
  id: z.number().int(),
  name: z.string(),
  /** The key's visible start, `pk_{id}_`: enough to tell keys apart, never the secret. */
  prefix: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
});
export type StudioKey = z.infer<typeof StudioKeySchema>;

export const StudioKeyListSchema = z.object({ keys: z.array(StudioKeySchema), max: z.number().int() });

export const NewStudioKeySchema = StudioKeySchema.extend({
  key: z.string().meta({ description: 'The whole key, `pk_{id}_{40 letters and digits}`: answered this once only, stored hashed' }),
});

export const StudioGameSlugParamsSchema = z.object({ slug: z.string().min(1).max(100) });
export const StudioKeyGameSchema = z.object({ id: z.number().int(), slug: z.string(), title: z.string(), published: z.boolean() });
