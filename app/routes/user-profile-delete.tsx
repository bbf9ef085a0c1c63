import { AccountDeletionPanel } from '../features/accounts/account-deletion-panel.tsx';
import { ProfileSection } from '../features/accounts/profile-pages.tsx';
import { loaderT } from '../i18n/loader-t.ts';
import { pageTitle } from '../lib/meta.ts';
import type { Route } from './+types/user-profile-delete';

export function loader({ request }: Route.LoaderArgs) {
  const { t } = loaderT(request);
  return { title: t('pages.deleteAccount') };
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) => [pageTitle(matches, loaderData?.title ?? '')];

export default function Page({ loaderData }: Route.ComponentProps) {
  return (
    <ProfileSection title={loaderData.title}>
      <AccountDeletionPanel />
    </ProfileSection>
  );
}
