import { sameOriginPath } from '#common/same-origin-path.ts';
import { useTranslation } from '../i18n/translation.tsx';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { localePath } from '#common/locales.ts';
import { displayName } from '../features/accounts/display-name.ts';
import { LoginList } from '../features/accounts/login-list.tsx';
import { RETURN_QUERY } from '../features/accounts/require-member.ts';
import { useSession } from '../features/accounts/use-session.ts';
import { loaderT } from '../i18n/loader-t.ts';
import { useLocale } from '../i18n/use-locale.ts';
import { pageTitle } from '../lib/meta.ts';
import { toast } from '../shell/toast-store.ts';
import { cn } from '../ui/cn.ts';
import { focusRing } from '../ui/focus.ts';
import type { Route } from './+types/login';

export function loader({ request }: Route.LoaderArgs) {
  const { t } = loaderT(request);
  // `?mode=create` is where "Create account" links lead: the page is named for that.
  const create = new URL(request.url).searchParams.get('mode') === 'create';
  return { title: t(create ? 'pages.createAccount' : 'pages.login') };
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) => [pageTitle(matches, loaderData?.title ?? ''), { name: 'robots', content: 'noindex' }];

/**
 * Sign-in (auth layout): the login list, then back to the page that sent the visitor here
 * (`?redirect=`, this site's paths only) or to my area. `?mode=create` opens account creation.
 */
export default function Page({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('accounts');
  const locale = useLocale();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const { userInfo, isMember } = useSession();
  const returnTo = params.get(RETURN_QUERY);
  const destination = sameOriginPath(returnTo, localePath(locale, '/user'));
  const intro = returnTo
    ? t('login.returnNotice')
    : userInfo && isMember
      ? t('login.signedInAs', { name: displayName(userInfo, t) })
      : userInfo
        ? t('login.guestNotice', { name: displayName(userInfo, t) })
        : t('login.intro');
  return (
    <div>
      <h1 className="text-2xl font-semibold tracking-tight">{loaderData.title}</h1>
      <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400" data-testid="login-intro">
        {intro}
      </p>
      <div className="mt-6">
        <LoginList
          initialMode={params.get('mode') === 'create' ? 'create' : 'sign-in'}
          onDone={(how, signedIn) => {
            const name = displayName(signedIn, t);
            toast.add({ title: how === 'create' ? t('login.created', { name }) : t('login.signedIn', { name }), color: 'success' });
            void navigate(destination, { replace: true });
          }}
        />
      </div>
      <p className="mt-6 text-center text-sm">
        <Link
          to={localePath(locale, '/login/forgot')}
          className={cn('rounded text-green-700 underline-offset-2 hover:underline dark:text-green-400', focusRing)}
        >
          {t('recovery.forgotLink')}
        </Link>
      </p>
      <p className="mt-3 text-center text-sm">
        <Link to={localePath(locale, '/')} className={cn('rounded text-green-700 underline-offset-2 hover:underline dark:text-green-400', focusRing)}>
          {t('login.backHome')}
        </Link>
      </p>
    </div>
  );
}
