import { ProfileSection } from '../features/accounts/profile-pages.tsx';
import { PasskeyBindRow } from '../features/passkeys/passkey-manager.tsx';
import { loaderT } from '../i18n/loader-t.ts';
import { pageTitle } from '../lib/meta.ts';
import type { Route } from './+types/user-profile-social';

export function loader({ request }: Route.LoaderArgs) {
  const { t } = loaderT(request);
  return { title: t('pages.social') };
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) => [pageTitle(matches, loaderData?.title ?? '')];

/** The bind list (spec section 4): social providers join it with social sign-in; the passkey row is here. */
export default function Page({ loaderData }: Route.ComponentProps) {
  return (
    <ProfileSection title={loaderData.title}>
      <ul className="divide-y divide-zinc-200 overflow-hidden rounded-xl border border-zinc-200 dark:divide-zinc-800 dark:border-zinc-800" data-testid="bind-list">
        <PasskeyBindRow />
      </ul>
    </ProfileSection>
  );
}
