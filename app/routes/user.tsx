import { AccountRestoredNotice } from '../features/accounts/account-deletion-panel.tsx';
import { MemberCard } from '../features/accounts/member-card.tsx';
import { useSession } from '../features/accounts/use-session.ts';
import { MyLibrary } from '../features/catalogue/my-library.tsx';
import { MyAchievements } from '../features/games/my-achievements.tsx';
import { MyOrders } from '../features/payments/my-orders.tsx';
import { loaderT } from '../i18n/loader-t.ts';
import { useLocale } from '../i18n/use-locale.ts';
import { pageTitle } from '../lib/meta.ts';
import type { Route } from './+types/user';

export function loader({ request }: Route.LoaderArgs) {
  const { t } = loaderT(request);
  return { title: t('pages.myArea') };
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) => [pageTitle(matches, loaderData?.title ?? '')];

/** My area: a note when a sign-in just restored an account being deleted (decision 147), the member card (from the session, server-rendered on a page load), the recently played games and favourites, the achievements unlocked, then the member's orders. */
export default function Page({ loaderData }: Route.ComponentProps) {
  const locale = useLocale();
  const { userInfo } = useSession();
  return (
    <div className="space-y-8">
      <h1 className="text-2xl font-semibold tracking-tight">{loaderData.title}</h1>
      {userInfo && !userInfo.isGuest ? <AccountRestoredNotice key={userInfo.uid} /> : null}
      <MemberCard />
      <MyLibrary locale={locale} />
      <MyAchievements locale={locale} />
      <MyOrders locale={locale} />
    </div>
  );
}
