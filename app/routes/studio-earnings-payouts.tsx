import { StudioPayouts } from '../features/earnings/studio-payouts.tsx';
import { loaderT } from '../i18n/loader-t.ts';
import { pageTitle } from '../lib/meta.ts';
import type { Route } from './+types/studio-earnings-payouts';

/** /studio/earnings/payouts: where the studio is paid, and its payouts (decision 149). */
export function loader({ request }: Route.LoaderArgs) {
  const { t } = loaderT(request);
  return { title: t('studio:payouts.title') };
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) => [pageTitle(matches, loaderData?.title ?? '')];

export default function Page() {
  return <StudioPayouts />;
}
