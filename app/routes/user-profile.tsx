import { Outlet } from 'react-router';
import { appContext } from '../context.ts';
import { pageSessionContext } from '../features/accounts/page-session.ts';
import { ProfileProvider } from '../features/accounts/profile-context.tsx';
import { requireMember } from '../features/accounts/require-member.ts';
import { loaderT } from '../i18n/loader-t.ts';
import { pageTitle } from '../lib/meta.ts';
import type { Route } from './+types/user-profile';

/** The named auth middleware: every page below /user/profile is for signed-in members (decision 026). */
export const middleware: Route.MiddlewareFunction[] = [requireMember];

export async function loader({ request, context }: Route.LoaderArgs) {
  const { t } = loaderT(request);
  const { userInfo } = await context.get(pageSessionContext)();
  // The middleware let only members through, so userInfo is there.
  const profile = await context.get(appContext).services.accounts.profile(userInfo!.uid);
  return { title: t('pages.profile'), profile };
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) => [pageTitle(matches, loaderData?.title ?? '')];

export default function ProfileLayout({ loaderData }: Route.ComponentProps) {
  return (
    <ProfileProvider profile={loaderData.profile}>
      <Outlet />
    </ProfileProvider>
  );
}
