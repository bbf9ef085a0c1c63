import { useSearchParams } from 'react-router';
import { ResetPasswordForm } from '../features/accounts/password-recovery.tsx';
import { loaderT } from '../i18n/loader-t.ts';
import { pageTitle } from '../lib/meta.ts';
import type { Route } from './+types/login-reset';

export function loader({ request }: Route.LoaderArgs) {
  const { t } = loaderT(request);
  return { title: t('pages.resetPassword') };
}

// The address holds the link's key (not `?token=`, which names a session link): never indexed, and no referrer leaves with it.
export const meta: Route.MetaFunction = ({ matches, loaderData }) => [
  pageTitle(matches, loaderData?.title ?? ''),
  { name: 'robots', content: 'noindex' },
  { name: 'referrer', content: 'no-referrer' },
];

/** The page a reset mail's link opens (decision 146). */
export default function Page({ loaderData }: Route.ComponentProps) {
  const [params] = useSearchParams();
  return (
    <div>
      <h1 className="mb-6 text-2xl font-semibold tracking-tight">{loaderData.title}</h1>
      <ResetPasswordForm token={params.get('key') ?? ''} />
    </div>
  );
}
