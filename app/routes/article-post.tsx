import { invalidParameter } from '../lib/route-errors.ts';
import { isValidPostId } from '#common/route-rules.ts';
import { loaderT } from '../i18n/loader-t.ts';
import { pageTitle } from '../lib/meta.ts';
import type { Route } from './+types/article-post';

export function loader({ request, params }: Route.LoaderArgs) {
  if (!isValidPostId(params.id)) invalidParameter(request);
  const { t } = loaderT(request);
  return { title: t('pages.article') };
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) => [pageTitle(matches, loaderData?.title ?? '')];

export default function Page({ loaderData }: Route.ComponentProps) {
  return <h1 className="text-xl font-semibold">{loaderData.title}</h1>;
}
