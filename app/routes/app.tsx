import { invalidParameter } from '../lib/route-errors.ts';
import { isValidSlug } from '#common/route-rules.ts';
import { loaderT } from '../i18n/loader-t.ts';
import { pageTitle } from '../lib/meta.ts';
import type { Route } from './+types/app';

export function loader({ request, params }: Route.LoaderArgs) {
  if (!isValidSlug(params.slug)) invalidParameter(request);
  const { t } = loaderT(request);
  return { title: t('pages.app') };
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) => [pageTitle(matches, loaderData?.title ?? '')];

export default function Page({ loaderData }: Route.ComponentProps) {
  return <h1 className="text-xl font-semibold">{loaderData.title}</h1>;
}
