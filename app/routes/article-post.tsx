import { appContext } from '../context.ts';
import { articleMeta } from '../features/articles/article-meta.ts';
import { loadArticleById } from '../features/articles/article-pages.server.ts';
import { ArticleView } from '../features/articles/article-view.tsx';
import type { Route } from './+types/article-post';

/** /article/post/{id}: an article by id alone; its canonical address is the one under its column. */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  return loadArticleById(request, params.id, context.get(appContext).services);
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) =>
  loaderData ? articleMeta(matches, loaderData.article, loaderData.locale, loaderData.feedTitle) : [];

export default function ArticlePostPage({ loaderData }: Route.ComponentProps) {
  return <ArticleView key={loaderData.article.id} data={loaderData} />;
}
