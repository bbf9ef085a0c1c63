import { z } from 'zod';

/** A studio profile as the member enters it: checked in the browser and by the API alike. */
export const DeveloperProfileBodySchema = z.object({
  studioName: z.string().trim().min(1, 'studio:games.errors.studioName').max(80, 'studio:games.errors.studioName').describe('The studio name players see.'),
  contactEmail: z.email('studio:games.errors.contactEmail').max(254, 'studio:games.errors.contactEmail').describe('Where the portal reaches the studio.'),
});

export const DeveloperProfileSchema = z.object({ studioName: z.string(), contactEmail: z.string(), createdAt: z.string() });

export const DeveloperProfileAnswerSchema = z.object({ profile: DeveloperProfileSchema.nullable().describe('null until the member creates one.') });

export const StudioGameParamsSchema = z.object({ id: z.coerce.number().int().min(1).max(999_999_999) });

/** The most a Studio image may weigh, as in the content import. */
export const STUDIO_IMAGE_MAX_BYTES = 5 * 1024 * 1024;
export const STUDIO_IMAGE_FIELD = 'image';

export const StudioImageUploadSchema = z.object({
  [STUDIO_IMAGE_FIELD]: z.string().describe('The file: PNG, JPEG, WebP, GIF or AVIF, recognised from its bytes, at most 5 MB, at most 10000 px a side.'),
});

export const StudioImageSchema = z.object({ url: z.string().describe('Its address, to put in thumbnail, cover, screenshots or an achievement icon.') });

export const StudioGameSummarySchema = z.object({
  id: z.number(),
  slug: z.string(),
  title: z.string(),
  thumbnail: z.string().nullable(),
  published: z.boolean(),
  updatedAt: z.string(),
});

export const StudioGameListSchema = z.object({ games: z.array(StudioGameSummarySchema) });

export type StudioGameSummary = z.output<typeof StudioGameSummarySchema>;
