import { z } from 'zod';

/** Slugs of static pages: lower-case letters, digits and hyphens. */
export const PAGE_SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** The pages the site has at fixed addresses (/about, …); every other page is at /page/<slug>. */
export const FIXED_PAGE_SLUGS: readonly string[] = ['about', 'terms', 'cookie-policy', 'privacy-policy'];

/** Where readers find a static page. */
export function pagePath(slug: string): string {
  return FIXED_PAGE_SLUGS.includes(slug) ? `/${slug}` : `/page/${slug}`;
}

const PageSlugSchema = z.string().min(1).max(64).regex(PAGE_SLUG_PATTERN, 'errors:field.invalidFormat');

/** GET /page/info/ query. */
export const PageInfoQuerySchema = z.object({ slug: PageSlugSchema });
export type PageInfoQuery = z.output<typeof PageInfoQuerySchema>;

/** A static page (about, terms, privacy and cookie policies) in one locale; the body is sanitised HTML. */
export const PageInfoSchema = z.object({
  slug: z.string(),
  /** The locale the texts are in: the requested one, or English when that has no translation. */
  locale: z.string(),
  title: z.string(),
  description: z.string().nullable(),
  bodyHtml: z.string(),
  updatedAt: z.string(),
});
export type PageInfo = z.infer<typeof PageInfoSchema>;
