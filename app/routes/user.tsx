import { MemberCard } from '../features/accounts/member-card.tsx';
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

/** My area: the member card (from the session, server-rendered on a page load), the recently played games and favourites, the achievements unlocked, then the member's orders. */
export default function Page({ loaderData }: Route.ComponentProps) {
  const locale = useLocale();
  return (
    <div className="space-y-8">
      <h1 className="text-2xl font-semibold tracking-tight">{loaderData.title}</h1>
      <MemberCard />
      <MyLibrary locale={locale} />
      <MyAchievements locale={locale} />
      <MyOrders locale={locale} />
    </div>
  );
}
