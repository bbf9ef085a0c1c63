import { ArticleEditor } from '../features/console/article-editor.tsx';
import { invalidParameter } from '../lib/route-errors.ts';
import type { Route } from './+types/console-article-edit';

/** /console/articles/new and /console/articles/:articleId: the article editor (decision 099). */
export function loader({ request, params }: Route.LoaderArgs) {
  if (params.articleId !== 'new' && !/^\d{1,9}$/.test(params.articleId)) invalidParameter(request);
  return { articleId: params.articleId === 'new' ? null : Number(params.articleId) };
}

export default function Page({ loaderData }: Route.ComponentProps) {
  // A new key per article: the editor starts afresh instead of carrying one article's state into another.
  return <ArticleEditor key={loaderData.articleId ?? 'new'} articleId={loaderData.articleId} />;
}
