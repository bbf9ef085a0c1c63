import { EmailSettings } from '../features/accounts/email-settings.tsx';
import { ProfileSection } from '../features/accounts/profile-pages.tsx';
import { loaderT } from '../i18n/loader-t.ts';
import { pageTitle } from '../lib/meta.ts';
import type { Route } from './+types/user-profile-email';

export function loader({ request }: Route.LoaderArgs) {
  const { t } = loaderT(request);
  return { title: t('pages.email') };
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) => [pageTitle(matches, loaderData?.title ?? '')];

export default function Page({ loaderData }: Route.ComponentProps) {
  return (
    <ProfileSection title={loaderData.title}>
      <EmailSettings />
    </ProfileSection>
  );
}
