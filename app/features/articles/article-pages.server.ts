import { redirect } from 'react-router';
import type { ArticleInfo, ArticleList } from '#common/api/articles.schema.ts';
import { ARTICLE_PAGE_SIZE } from '#common/constants.ts';
import { type Locale, localePath } from '#common/locales.ts';
import { articleTarget, isValidArticlePath, isValidPostId } from '#common/route-rules.ts';
import type { PageServices } from '../../context.ts';
import { loaderT } from '../../i18n/loader-t.ts';
import { dateLabels } from '../../lib/format-date.ts';
import { invalidParameter, isNotFoundError, orPageNotFound, pageNotFound } from '../../lib/route-errors.ts';
import type { ArticlePageData, ColumnPageData } from './page-data.ts';

/** Ids beyond this cannot exist (the databases' integer range). */
const MAX_ID = 2_147_483_647;

/**
 * What /article/{...} shows. The catch-all rule decides 404 "Page Not Found" for a path it
 * rejects; a valid path naming no column or article is the ordinary "Page not found"; a column
 * or article reached by another path than its own is redirected there.
 */
export async function loadArticlePath(request: Request, splat: string, services: PageServices): Promise<ColumnPageData | ArticlePageData> {
  const url = new URL(request.url);
  const { locale, t } = loaderT(request);
  const segments = splat.split('/').filter(Boolean);
  const target = articleTarget(segments);
  if (!target) {
    // Three segments whose middle one is valid but whose last is not an id: valid, but nothing lives there.
    if (isValidArticlePath(segments)) pageNotFound(request);
    invalidParameter(request);
  }
  const requested = `/article/${segments.join('/')}`;

  if (target.kind === 'article') {
    const article = await findArticle(request, services, locale, target.id);
    if (article.path !== requested) throw redirect(localePath(locale, article.path), 301);
    return articlePage(locale, article, t('articles:list.feedTitle', { column: article.trail.at(-1)!.title }));
  }

  const column = await orPageNotFound(request, services.articles.columnInfo(locale, target.subColumn ?? target.column));
  if (column.path !== requested) throw redirect(localePath(locale, column.path), 301);
  const section = column.parent ? await orPageNotFound(request, services.articles.columnInfo(locale, column.parent.slug)) : column;

  const cursor = url.searchParams.get('cursor');
  let list: ArticleList;
  try {
    list = await services.articles.list(locale, column.slug, { limit: ARTICLE_PAGE_SIZE, ...(cursor ? { cursor } : {}) });
  } catch (error) {
    if (isNotFoundError(error)) pageNotFound(request);
    // A cursor that does not decode (typed by hand, or from an old link) starts the list over.
    if (cursor) throw redirect(localePath(locale, column.path), 302);
    throw error;
  }
  return {
    kind: 'column',
    locale,
    column,
    section,
    list,
    cursor,
    canonicalPath: column.path,
    feedTitle: t('articles:list.feedTitle', { column: column.title }),
    dateLabels: dateLabels(
      list.items.map((item) => item.publishedAt),
      locale,
    ),
  };
}

/** /article/post/{id}: the article by id alone, whatever its column; its canonical address is the column path. */
export async function loadArticleById(request: Request, id: string | undefined, services: PageServices): Promise<ArticlePageData> {
  if (!isValidPostId(id)) invalidParameter(request);
  const { locale, t } = loaderT(request);
  const article = await findArticle(request, services, locale, Number(id));
  return articlePage(locale, article, t('articles:list.feedTitle', { column: article.trail.at(-1)!.title }));
}

function articlePage(locale: Locale, article: ArticleInfo, feedTitle: string): ArticlePageData {
  const dates = dateLabels([article.publishedAt, ...article.related.map((related) => related.publishedAt)], locale);
  return { kind: 'article', locale, article, canonicalPath: article.path, feedTitle, dateLabels: dates };
}

/** The article, or the page's 404 "Page not found" when there is none (yet). */
async function findArticle(request: Request, services: PageServices, locale: Locale, id: number): Promise<ArticleInfo> {
  if (!Number.isSafeInteger(id) || id < 1 || id > MAX_ID) pageNotFound(request);
  return orPageNotFound(request, services.articles.info(locale, id));
}
