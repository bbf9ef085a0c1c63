// The pop-up pages of social sign-in (spec section 2): /oauth/{platform}/link opens the
// provider, /oauth/{platform}/callback receives its answer. Both show where the visitor is
// while the flow runs; the flows themselves belong to social sign-in.
import { loaderT } from '../i18n/loader-t.ts';
import { pageTitle } from '../lib/meta.ts';
import type { Route } from './+types/oauth-popup';

export function loader({ request }: Route.LoaderArgs) {
  const { t } = loaderT(request);
  return { title: t('pages.oauth') };
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) => [pageTitle(matches, loaderData?.title ?? '')];

export default function Page({ loaderData }: Route.ComponentProps) {
  return <h1 className="text-xl font-semibold">{loaderData.title}</h1>;
}
