import { useSearchParams } from 'react-router';
import { NotMeForm } from '../features/accounts/password-recovery.tsx';
import { loaderT } from '../i18n/loader-t.ts';
import { pageTitle } from '../lib/meta.ts';
import type { Route } from './+types/login-not-me';

export function loader({ request }: Route.LoaderArgs) {
  const { t } = loaderT(request);
  return { title: t('pages.notMe') };
}

// The address holds the link's key: never indexed, and no referrer leaves with it.
export const meta: Route.MetaFunction = ({ matches, loaderData }) => [
  pageTitle(matches, loaderData?.title ?? ''),
  { name: 'robots', content: 'noindex' },
  { name: 'referrer', content: 'no-referrer' },
];

/** The page a notice's "this wasn't me" link opens (decision 148): nothing happens until the button is pressed (mail scanners open links). */
export default function Page({ loaderData }: Route.ComponentProps) {
  const [params] = useSearchParams();
  return (
    <div>
      <h1 className="mb-6 text-2xl font-semibold tracking-tight">{loaderData.title}</h1>
      <NotMeForm keyOfLink={params.get('key') ?? ''} />
    </div>
  );
}
