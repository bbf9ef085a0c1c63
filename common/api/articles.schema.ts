import { z } from 'zod';
import { ARTICLE_PAGE_SIZE, ARTICLE_SEGMENT_PATTERN, DIGITS_PATTERN } from '../constants.ts';

const ARTICLE_LIST_MAX_LIMIT = 50;
/** Related articles shown under an article. */
export const RELATED_ARTICLES = 3;

/** A column or sub-column slug: 3 to 20 letters, the same rule as the article catch-all. */
const ColumnSlugSchema = z.string().regex(ARTICLE_SEGMENT_PATTERN, 'errors:field.invalidFormat');

/** Path parameters of the column calls. */
export const ColumnParamsSchema = z.object({ column: ColumnSlugSchema });

/** GET /article/info/{id}: digits only, within the integer range of both databases. */
export const ArticleIdParamsSchema = z.object({
  id: z.string().regex(DIGITS_PATTERN, 'errors:field.invalidFormat').max(10).transform(Number).pipe(z.number().int().min(1).max(2_147_483_647)),
});

/** GET /article/list/{column} query. */
export const ArticleListQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(ARTICLE_LIST_MAX_LIMIT).default(ARTICLE_PAGE_SIZE),
  cursor: z.string().max(200).optional(),
});
export type ArticleListQuery = z.output<typeof ArticleListQuerySchema>;

export const ColumnRefSchema = z.object({ slug: z.string(), title: z.string() });
export type ColumnRef = z.infer<typeof ColumnRefSchema>;

export const ColumnInfoSchema = z.object({
  slug: z.string(),
  title: z.string(),
  description: z.string().nullable(),
  cover: z.string().nullable(),
  /** The parent column of a sub-column; null for a top-level column. */
  parent: ColumnRefSchema.nullable(),
  /** Sub-columns of a top-level column, in their order. */
  children: z.array(ColumnRefSchema),
  /** Page path without locale prefix: /article/news or /article/news/esports. */
  path: z.string(),
});
export type ColumnInfo = z.infer<typeof ColumnInfoSchema>;

export const ArticleSummarySchema = z.object({
  id: z.number(),
  slug: z.string(),
  title: z.string(),
  summary: z.string(),
  /** URL of a 1200×630 image, or null. */
  cover: z.string().nullable(),
  author: z.string().nullable(),
  publishedAt: z.string(),
  readingMinutes: z.number(),
  tags: z.array(z.string()),
  /** The column the article is filed in (a sub-column when it has one). */
  column: ColumnRefSchema,
  /** Canonical page path without locale prefix: /article/{column}[/{sub-column}]/{id}. */
  path: z.string(),
});
export type ArticleSummary = z.infer<typeof ArticleSummarySchema>;

export const ArticleListSchema = z.object({
  items: z.array(ArticleSummarySchema),
  nextCursor: z.string().nullable(),
});
export type ArticleList = z.infer<typeof ArticleListSchema>;

export const ArticleLinkSchema = z.object({ id: z.number(), title: z.string(), path: z.string() });
export type ArticleLink = z.infer<typeof ArticleLinkSchema>;

export const ArticleInfoSchema = ArticleSummarySchema.extend({
  /** Sanitised HTML rendered from Markdown. */
  body: z.string(),
  updatedAt: z.string(),
  /** The locale the texts are in: the request's, or English when the article has no translation. */
  locale: z.string(),
  /** Column, then sub-column when there is one. */
  trail: z.array(ColumnRefSchema),
  related: z.array(ArticleSummarySchema),
  /** The next older article of the same column. */
  previous: ArticleLinkSchema.nullable(),
  /** The next newer (already published) article of the same column. */
  next: ArticleLinkSchema.nullable(),
});
export type ArticleInfo = z.infer<typeof ArticleInfoSchema>;
