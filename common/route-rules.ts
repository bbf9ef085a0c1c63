import { ARTICLE_SEGMENT_PATTERN, DIGITS_PATTERN, SLUG_PATTERN } from './constants.ts';
import { stripLocale } from './locales.ts';

/** Slugs of /app, /play and /categories: letters, digits, hyphen and underscore (spec section 5). */
export function isValidSlug(value: string | undefined): boolean {
  return typeof value === 'string' && SLUG_PATTERN.test(value);
}

/** /article/post/{id}: digits only. */
export function isValidPostId(value: string | undefined): boolean {
  return typeof value === 'string' && DIGITS_PATTERN.test(value);
}

/**
 * The article catch-all rule of spec section 2: with 1 segment the first is checked; with 2 the
 * second unless it is numeric, then the first; with 3 the middle one. Any other count has none.
 */
export function articleSegmentToValidate(segments: string[]): string | null {
  switch (segments.length) {
    case 1:
      return segments[0]!;
    case 2:
      return DIGITS_PATTERN.test(segments[1]!) ? segments[0]! : segments[1]!;
    case 3:
      return segments[1]!;
    default:
      return null;
  }
}

/** Whether an /article/{...} path is valid: the chosen segment must be 3 to 20 letters. */
export function isValidArticlePath(segments: string[]): boolean {
  const segment = articleSegmentToValidate(segments);
  return segment !== null && ARTICLE_SEGMENT_PATTERN.test(segment);
}

/** What a valid /article/{...} path shows. Ids are digits; columns and sub-columns are letters. */
export type ArticleTarget =
  { kind: 'column'; column: string; subColumn: string | null } | { kind: 'article'; column: string; subColumn: string | null; id: number };

export function articleTarget(segments: string[]): ArticleTarget | null {
  if (!isValidArticlePath(segments)) return null;
  const [a, b, c] = segments as [string, string?, string?];
  if (segments.length === 1) return { kind: 'column', column: a, subColumn: null };
  if (segments.length === 2) {
    return DIGITS_PATTERN.test(b!) ? { kind: 'article', column: a, subColumn: null, id: Number(b) } : { kind: 'column', column: a, subColumn: b! };
  }
  // Three segments: only column/sub-column/id is meaningful.
  return DIGITS_PATTERN.test(c!) ? { kind: 'article', column: a, subColumn: b!, id: Number(c) } : null;
}

/** Pages whose server render depends on who asks: My area and the profile pages, the login page, the Studio and the Console. */
const PERSONAL_PAGE = /^\/(user|login|studio|console)(\/|$)/;

/**
 * Whether a page is rendered for the visitor's session (decision 066). Every other page is the
 * same for everybody: rendered without reading the session, so it can be cached for all, and the
 * browser fills in who is signed in after it hydrates.
 */
export function isPersonalPage(pathname: string): boolean {
  return PERSONAL_PAGE.test(stripLocale(pathname));
}
