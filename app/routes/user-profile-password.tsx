import { useTranslation } from '../i18n/translation.tsx';
import { PasswordForm } from '../features/accounts/profile-forms.tsx';
import { useProfile } from '../features/accounts/profile-context.tsx';
import { ProfileSection } from '../features/accounts/profile-pages.tsx';
import { loaderT } from '../i18n/loader-t.ts';
import { pageTitle } from '../lib/meta.ts';
import type { Route } from './+types/user-profile-password';

export function loader({ request }: Route.LoaderArgs) {
  const { t } = loaderT(request);
  return { title: t('pages.password') };
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) => [pageTitle(matches, loaderData?.title ?? '')];

export default function Page({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('accounts');
  const { profile } = useProfile();
  return (
    <ProfileSection title={loaderData.title} intro={profile.hasPassword ? t('profile.passwordIntro') : t('profile.setPasswordIntro')}>
      <PasswordForm />
    </ProfileSection>
  );
}
