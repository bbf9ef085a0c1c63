import type { ArticleInfo, ArticleList, ColumnInfo } from '#common/api/articles.schema.ts';
import type { Locale } from '#common/locales.ts';

/** Loader data of a column page. */
export interface ColumnPageData {
  kind: 'column';
  locale: Locale;
  column: ColumnInfo;
  /** The top-level column whose sections are offered as tabs (the column itself, or a sub-column's parent). */
  section: ColumnInfo;
  list: ArticleList;
  /** Set when the list starts after a cursor (the link "load more" follows without scripts). */
  cursor: string | null;
  canonicalPath: string;
  /** Title of the column's feed link, in the page's locale. */
  feedTitle: string;
  /** The listed articles' dates as the server wrote them (lib/format-date.ts `dateLabels`). */
  dateLabels: Record<string, string>;
}

/** Loader data of an article page. */
export interface ArticlePageData {
  kind: 'article';
  locale: Locale;
  article: ArticleInfo;
  canonicalPath: string;
  /** Title of the feed link of the article's column, in the page's locale. */
  feedTitle: string;
  /** The dates of the article and its related articles as the server wrote them (lib/format-date.ts `dateLabels`). */
  dateLabels: Record<string, string>;
}
