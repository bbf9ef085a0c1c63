import { ProfileSection } from '../features/accounts/profile-pages.tsx';
import { SessionList } from '../features/accounts/session-list.tsx';
import { loaderT } from '../i18n/loader-t.ts';
import { pageTitle } from '../lib/meta.ts';
import type { Route } from './+types/user-profile-sessions';

export function loader({ request }: Route.LoaderArgs) {
  const { t } = loaderT(request);
  return { title: t('pages.sessions') };
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) => [pageTitle(matches, loaderData?.title ?? '')];

export default function Page({ loaderData }: Route.ComponentProps) {
  return (
    <ProfileSection title={loaderData.title}>
      <SessionList />
    </ProfileSection>
  );
}
