import { Outlet } from 'react-router';
import { appContext } from '../context.ts';
import { pageSessionContext } from '../features/accounts/page-session.ts';
import { requireMember } from '../features/accounts/require-member.ts';
import { ConsoleNav } from '../features/console/console-nav.tsx';
import { loaderT } from '../i18n/loader-t.ts';
import { pageTitle } from '../lib/meta.ts';
import { pageNotFound } from '../lib/route-errors.ts';
import type { Route } from './+types/console';

/** The Console is for operators only (decision 095); to anyone else it does not exist (404). */
export const middleware: Route.MiddlewareFunction[] = [requireMember];

export async function loader({ request, context }: Route.LoaderArgs) {
  const { t } = loaderT(request);
  const { userInfo } = await context.get(pageSessionContext)();
  if (!(await context.get(appContext).services.operators.isOperator(userInfo?.uid ?? null))) pageNotFound(request);
  return { title: t('console:title') };
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) => [pageTitle(matches, loaderData?.title ?? '')];

/** The Console's frame: its name, its pages, and the page. */
export default function ConsoleLayout({ loaderData }: Route.ComponentProps) {
  return (
    <div className="space-y-6">
      <div className="space-y-3">
        <p className="text-sm font-medium text-green-700 dark:text-green-400">{loaderData.title}</p>
        <ConsoleNav />
      </div>
      <Outlet />
    </div>
  );
}
