import { ConsolePayouts } from '../features/earnings/console-payouts.tsx';
import { loaderT } from '../i18n/loader-t.ts';
import { pageTitle } from '../lib/meta.ts';
import type { Route } from './+types/console-payouts';

export function loader({ request }: Route.LoaderArgs) {
  const { t } = loaderT(request);
  return { title: t('console:nav.payouts') };
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) => [pageTitle(matches, loaderData?.title ?? '')];

export default function Page() {
  return <ConsolePayouts />;
}
