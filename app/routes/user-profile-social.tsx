import { useProfile } from '../features/accounts/profile-context.tsx';
import { ProfileSection } from '../features/accounts/profile-pages.tsx';
import { SocialBindList } from '../features/social/social-sign-in.tsx';
import { PasskeyBindRow } from '../features/passkeys/passkey-manager.tsx';
import { loaderT } from '../i18n/loader-t.ts';
import { pageTitle } from '../lib/meta.ts';
import type { Route } from './+types/user-profile-social';

export function loader({ request }: Route.LoaderArgs) {
  const { t } = loaderT(request);
  return { title: t('pages.social') };
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) => [pageTitle(matches, loaderData?.title ?? '')];

/** The bind list (spec section 4): each social platform with link or unlink, and the passkey row. */
export default function Page({ loaderData }: Route.ComponentProps) {
  const { profile } = useProfile();
  return (
    <ProfileSection title={loaderData.title}>
      <SocialBindList hasPassword={profile.hasPassword}>
        <PasskeyBindRow />
      </SocialBindList>
    </ProfileSection>
  );
}
