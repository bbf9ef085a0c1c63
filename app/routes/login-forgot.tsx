import { ForgotPasswordForm } from '../features/accounts/password-recovery.tsx';
import { loaderT } from '../i18n/loader-t.ts';
import { pageTitle } from '../lib/meta.ts';
import type { Route } from './+types/login-forgot';

export function loader({ request }: Route.LoaderArgs) {
  const { t } = loaderT(request);
  return { title: t('pages.forgotPassword') };
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) => [pageTitle(matches, loaderData?.title ?? ''), { name: 'robots', content: 'noindex' }];

/** "Forgot password" (decision 146): a reset link to a confirmed address. */
export default function Page({ loaderData }: Route.ComponentProps) {
  return (
    <div>
      <h1 className="mb-6 text-2xl font-semibold tracking-tight">{loaderData.title}</h1>
      <ForgotPasswordForm />
    </div>
  );
}
