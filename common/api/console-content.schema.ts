import { z } from 'zod';
import { ARTICLE_SEGMENT_PATTERN } from '../constants.ts';
import { PAGE_SLUG_PATTERN } from './pages.schema.ts';

/** Console, games (decision 099): the list's filters. */
export const ConsoleGameListQuerySchema = z.object({
  q: z.string().trim().max(100).optional(),
  published: z.enum(['all', 'published', 'unpublished']).default('all'),
  /** The studio's developer (a member id), or `house` for the portal's own games. */
  developer: z.union([z.literal('house'), z.coerce.number().int().positive()]).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(50),
});
export type ConsoleGameListQuery = z.output<typeof ConsoleGameListQuerySchema>;

export const ConsoleGameSchema = z.object({
  id: z.number(),
  slug: z.string(),
  type: z.enum(['game', 'app']),
  title: z.string(),
  published: z.boolean(),
  featured: z.boolean(),
  /** The developer's studio, or null for the portal's own games. */
  studio: z.object({ userId: z.number(), name: z.string() }).nullable(),
  updatedAt: z.string(),
  /** The live build's version, null for a game without builds. */
  liveVersion: z.number().nullable(),
  /** The approved version before the live one, the one a rollback makes live; null when there is none. */
  rollbackVersion: z.number().nullable(),
});
export type ConsoleGame = z.infer<typeof ConsoleGameSchema>;
export const ConsoleGameListSchema = z.object({ items: z.array(ConsoleGameSchema) });

export const ConsoleGameIdParamsSchema = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });
/** Unpublish or republish, feature or unfeature; a reason goes to the audit log. */
export const ConsoleGameChangeSchema = z
  .object({
    published: z.boolean().optional(),
    featured: z.boolean().optional(),
    reason: z.string().trim().max(500).default(''),
  })
  .refine((body) => body.published !== undefined || body.featured !== undefined, { message: 'errors:field.required', path: ['published'] });

const ArticleTextSchema = z.object({
  title: z.string().trim().min(1).max(150),
  summary: z.string().trim().min(1).max(300),
  markdown: z.string().trim().min(1).max(100_000),
  tags: z
    .array(
      z
        .string()
        .regex(/^[\p{L}\p{N}]+(?:-[\p{L}\p{N}]+)*$/u)
        .max(40),
    )
    .max(12)
    .default([]),
  author: z.string().trim().min(1).max(80).nullable().default(null),
});

/** When readers first see an article or a page: a time ahead schedules it. */
const PublishedAtSchema = z.iso.datetime({ offset: true }).transform((value) => new Date(value).toISOString());

/** An article as the Console edits it: both locales' texts (Chinese optional) and when it is published. */
export const ConsoleArticleInputSchema = z.object({
  column: z.string().regex(ARTICLE_SEGMENT_PATTERN),
  slug: z
    .string()
    .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/)
    .max(100),
  cover: z
    .string()
    .regex(/^\/uploads\/articles\/[A-Za-z0-9._-]+$/)
    .nullable()
    .default(null),
  /** When readers see it: a future time schedules it (not listed, not in the sitemap or feeds until then). */
  publishedAt: PublishedAtSchema,
  texts: z.object({ en: ArticleTextSchema, 'zh-CN': ArticleTextSchema.nullable().default(null) }),
});
export type ConsoleArticleInput = z.output<typeof ConsoleArticleInputSchema>;

const ArticleTextOutSchema = z.object({
  title: z.string(),
  summary: z.string(),
  markdown: z.string(),
  tags: z.array(z.string()),
  author: z.string().nullable(),
});
export const ConsoleArticleSchema = z.object({
  id: z.number(),
  column: z.string(),
  slug: z.string(),
  cover: z.string().nullable(),
  publishedAt: z.string(),
  /** `import` (the content folder) or `console` (written here; the import leaves it alone). */
  source: z.enum(['import', 'console']),
  updatedAt: z.string(),
  texts: z.object({ en: ArticleTextOutSchema, 'zh-CN': ArticleTextOutSchema.nullable() }),
  /** Where readers find it once published. */
  path: z.string(),
});
export type ConsoleArticle = z.infer<typeof ConsoleArticleSchema>;

export const ConsoleArticleSummarySchema = z.object({
  id: z.number(),
  title: z.string(),
  column: z.string(),
  publishedAt: z.string(),
  scheduled: z.boolean(),
  source: z.enum(['import', 'console']),
  hasChinese: z.boolean(),
  updatedAt: z.string(),
});
export const ConsoleArticleListQuerySchema = z.object({ q: z.string().trim().max(100).optional() });
export const ConsoleArticleListSchema = z.object({
  items: z.array(ConsoleArticleSummarySchema),
  columns: z.array(z.object({ slug: z.string(), title: z.string() })),
});
export type ConsoleArticleSummary = z.infer<typeof ConsoleArticleSummarySchema>;
export const ConsoleArticleIdParamsSchema = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });

/** Markdown to render exactly as readers will see it. */
export const MarkdownPreviewSchema = z.object({ markdown: z.string().max(100_000) });
export const MarkdownPreviewResultSchema = z.object({ html: z.string() });

export const ArticleMediaUploadSchema = z.object({ file: z.string().describe('the image file (SVG, PNG, JPEG, WebP, GIF or AVIF), at most 5 MB') });
export const ArticleMediaResultSchema = z.object({ url: z.string(), width: z.number(), height: z.number() });

const PageTextSchema = z.object({
  title: z.string().trim().min(1).max(150),
  description: z.string().trim().max(300).nullable().default(null),
  markdown: z.string().trim().min(1).max(100_000),
});
export const ConsolePageParamsSchema = z.object({ slug: z.string().min(1).max(64).regex(PAGE_SLUG_PATTERN) });
export const ConsolePageInputSchema = z.object({
  /** When readers see it, as for articles; null (the default): at once. */
  publishedAt: PublishedAtSchema.nullable().default(null),
  texts: z.object({ en: PageTextSchema, 'zh-CN': PageTextSchema.nullable().default(null) }),
});
export type ConsolePageInput = z.output<typeof ConsolePageInputSchema>;
/** A new page: its slug becomes its address, /page/<slug>. */
export const ConsolePageCreateSchema = ConsolePageInputSchema.extend({ slug: z.string().min(1).max(64).regex(PAGE_SLUG_PATTERN) });
export type ConsolePageCreate = z.output<typeof ConsolePageCreateSchema>;
const PageTextOutSchema = z.object({ title: z.string(), description: z.string().nullable(), markdown: z.string() });
export const ConsolePageSchema = z.object({
  slug: z.string(),
  source: z.enum(['import', 'console']),
  /** When readers first see it; null: since it was saved. */
  publishedAt: z.string().nullable(),
  /** Where readers find it. */
  path: z.string(),
  updatedAt: z.string(),
  texts: z.object({ en: PageTextOutSchema, 'zh-CN': PageTextOutSchema.nullable() }),
});
export type ConsolePage = z.infer<typeof ConsolePageSchema>;
export const ConsolePageListSchema = z.object({
  items: z.array(
    z.object({
      slug: z.string(),
      title: z.string(),
      source: z.enum(['import', 'console']),
      locales: z.array(z.string()),
      updatedAt: z.string(),
      publishedAt: z.string().nullable(),
      scheduled: z.boolean(),
      path: z.string(),
    }),
  ),
});
