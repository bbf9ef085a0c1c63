import { appContext } from '../context.ts';
import { articleMeta, columnMeta } from '../features/articles/article-meta.ts';
import { loadArticlePath } from '../features/articles/article-pages.server.ts';
import { ArticleView } from '../features/articles/article-view.tsx';
import { ColumnView } from '../features/articles/column-view.tsx';
import type { Route } from './+types/article';

/** /article/{column}[/{sub-column}][/{id}]: a column's list or an article, by the catch-all rule of the spec. */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  return loadArticlePath(request, params['*'] ?? '', context.get(appContext).services);
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) => {
  if (!loaderData) return [];
  if (loaderData.kind === 'article') return articleMeta(matches, loaderData.article, loaderData.locale, loaderData.feedTitle);
  return columnMeta(matches, loaderData.column, loaderData.locale, loaderData.feedTitle);
};

export default function ArticlePage({ loaderData }: Route.ComponentProps) {
  if (loaderData.kind === 'article') return <ArticleView key={loaderData.article.id} data={loaderData} />;
  return <ColumnView key={`${loaderData.column.slug}:${loaderData.cursor ?? ''}`} data={loaderData} />;
}
