import { z } from 'zod';
import { StudioGameReviewSchema } from '#common/api/game-changes.schema.ts';
import { backendOriginOf } from '#server/lib/backend-origins.ts';
import type { CatalogueEntrySchema } from '../catalogue/catalogue.service.ts';

/**
 * The Studio's schemas are the content import's own fields (decision 096): what the two accept
 * cannot drift apart. They are built from the entry schema the catalogue passes in at start-up.
 */
export function studioGameSchemas({ entry, hostedSlug }: { entry: CatalogueEntrySchema; hostedSlug: RegExp }) {
  const fields = entry.pick({
    categories: true,
    tags: true,
    orientation: true,
    width: true,
    height: true,
    backends: true,
    items: true,
    leaderboards: true,
    achievements: true,
    i18n: true,
  });
  const image = z.string().min(1).max(300);
  // The import's rule with a translated message naming the refused value (decision 107).
  const backendOrigin = z
    .string()
    .max(300)
    .check((ctx) => {
      if (backendOriginOf(ctx.value) === null)
        ctx.issues.push({ code: 'custom', input: ctx.value, message: 'studio:games.errors.backendOrigin', params: { value: ctx.value } });
    })
    .overwrite((value) => backendOriginOf(value) ?? value);
  const metadata = fields.extend({
    backends: z
      .array(backendOrigin)
      .max(10)
      .default([])
      .describe(entry.shape.backends.description ?? ''),
    thumbnail: image.nullable().describe('An image uploaded with POST /studio/games/{id}/images/ (the tile), or null.'),
    cover: image.nullable().describe('An uploaded image (the wide cover on the game page), or null.'),
    screenshots: z.array(image).max(12).default([]).describe('Up to 12 uploaded images.'),
  });
  const title = entry.shape.i18n.shape.en.shape.title;
  const create = z.object({
    slug: entry.shape.slug
      .refine((slug) => hostedSlug.test(slug), 'studio:games.errors.slug')
      .describe('The address of the game (/play/{slug}) and its host on the games origin: lower-case letters, digits and hyphens, at most 63, unique.'),
    i18n: z.object({ en: z.object({ title }), 'zh-CN': z.object({ title }).optional() }).describe('Its name in English and, optionally, in Chinese.'),
  });
  const game = metadata.extend({
    id: z.number(),
    slug: z.string(),
    published: z.boolean(),
    entryUrl: z.string(),
    updatedAt: z.string(),
    review: StudioGameReviewSchema.nullable().describe(
      "A published game's newest change (decision 112): pending (the fields above are then its values, not yet what players see), or approved or rejected with the reason; null for a draft.",
    ),
    missing: z
      .array(z.enum(['summary', 'description', 'categories', 'thumbnail']))
      .describe('What the game still lacks before a build of it can be submitted.'),
  });
  return { metadata, create, game };
}

export type StudioGameSchemas = ReturnType<typeof studioGameSchemas>;
export type StudioGameMetadata = z.output<StudioGameSchemas['metadata']>;
export type StudioGameCreate = z.output<StudioGameSchemas['create']>;
export type StudioGame = z.output<StudioGameSchemas['game']>;
