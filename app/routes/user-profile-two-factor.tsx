import { ProfileSection } from '../features/accounts/profile-pages.tsx';
import { TwoFactorSettings } from '../features/two-factor/two-factor-settings.tsx';
import { loaderT } from '../i18n/loader-t.ts';
import { pageTitle } from '../lib/meta.ts';
import type { Route } from './+types/user-profile-two-factor';

export function loader({ request }: Route.LoaderArgs) {
  const { t } = loaderT(request);
  return { title: t('pages.twoFactor') };
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) => [pageTitle(matches, loaderData?.title ?? '')];

export default function Page({ loaderData }: Route.ComponentProps) {
  return (
    <ProfileSection title={loaderData.title}>
      <TwoFactorSettings />
    </ProfileSection>
  );
}
