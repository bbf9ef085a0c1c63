import { useLocation, useSearchParams } from 'react-router';
import { NotMeForm, ResetPasswordForm } from '../features/accounts/password-recovery.tsx';
import { loaderT } from '../i18n/loader-t.ts';
import { pageTitle } from '../lib/meta.ts';
import type { Route } from './+types/login-link';

/** /login/not-me: a notice's "this wasn't me" link (decision 148); /login/reset: a reset link (decision 146). */
const isNotMe = (pathname: string) => pathname.endsWith('/not-me');

export function loader({ request }: Route.LoaderArgs) {
  const { t } = loaderT(request);
  return { title: t(isNotMe(new URL(request.url).pathname) ? 'pages.notMe' : 'pages.resetPassword') };
}

// The address holds the link's key (not `?token=`, which names a session link): never indexed, and no referrer leaves with it.
export const meta: Route.MetaFunction = ({ matches, loaderData }) => [
  pageTitle(matches, loaderData?.title ?? ''),
  { name: 'robots', content: 'noindex' },
  { name: 'referrer', content: 'no-referrer' },
];

/** The pages the links of mails open; nothing changes until the visitor presses a button (mail scanners open links). */
export default function Page({ loaderData }: Route.ComponentProps) {
  const [params] = useSearchParams();
  const key = params.get('key') ?? '';
  return (
    <div>
      <h1 className="mb-6 text-2xl font-semibold tracking-tight">{loaderData.title}</h1>
      {isNotMe(useLocation().pathname) ? <NotMeForm keyOfLink={key} /> : <ResetPasswordForm token={key} />}
    </div>
  );
}
