import { loaderT } from '../i18n/loader-t.ts';
import { pageTitle } from '../lib/meta.ts';
import { Outlet } from 'react-router';
import type { Route } from './+types/user-profile';

export function loader({ request }: Route.LoaderArgs) {
  const { t } = loaderT(request);
  return { title: t('pages.profile') };
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) => [pageTitle(matches, loaderData?.title ?? '')];

export default function Page({ loaderData }: Route.ComponentProps) {
  return (
    <div>
      <h1 className="text-xl font-semibold">{loaderData.title}</h1>
      <Outlet />
    </div>
  );
}
