import { Outlet } from 'react-router';
import { appContext } from '../context.ts';
import { pageSessionContext } from '../features/accounts/page-session.ts';
import { requireMember } from '../features/accounts/require-member.ts';
import { StudioNav } from '../features/studio/studio-nav.tsx';
import { loaderT } from '../i18n/loader-t.ts';
import { pageTitle } from '../lib/meta.ts';
import type { Route } from './+types/studio';

/** The Studio is for members (decision 095): guests and visitors are sent to sign in first. */
export const middleware: Route.MiddlewareFunction[] = [requireMember];

export async function loader({ request, context }: Route.LoaderArgs) {
  const { t } = loaderT(request);
  const { userInfo } = await context.get(pageSessionContext)();
  const profile = await context.get(appContext).services.developers.profile(userInfo!.uid);
  return { title: t('studio:title'), profile };
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) => [pageTitle(matches, loaderData?.title ?? '')];

/** The Studio's frame: its name, its pages, and the page. */
export default function StudioLayout({ loaderData }: Route.ComponentProps) {
  return (
    <div className="space-y-6">
      <div className="space-y-3">
        <p className="text-sm font-medium text-green-700 dark:text-green-400">{loaderData.profile?.studioName ?? loaderData.title}</p>
        <StudioNav />
      </div>
      <Outlet />
    </div>
  );
}
