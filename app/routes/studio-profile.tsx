import { appContext } from '../context.ts';
import { pageSessionContext } from '../features/accounts/page-session.ts';
import { ProfileForm } from '../features/studio/profile-form.tsx';
import { useTranslation } from '../i18n/translation.tsx';
import type { Route } from './+types/studio-profile';

/** The studio profile: created here as on the Studio's first page, or changed. */
export async function loader({ context }: Route.LoaderArgs) {
  const { userInfo } = await context.get(pageSessionContext)();
  return { profile: await context.get(appContext).services.developers.profile(userInfo!.uid) };
}

export default function Page({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('studio');
  return (
    <section className="space-y-4" aria-labelledby="studio-profile-title">
      <h2 id="studio-profile-title" className="text-xl font-semibold tracking-tight">
        {t(loaderData.profile ? 'games.profile.title' : 'games.profile.createTitle')}
      </h2>
      {loaderData.profile ? null : <p className="max-w-prose text-sm text-zinc-600 dark:text-zinc-400">{t('games.profile.createIntro')}</p>}
      <ProfileForm key={loaderData.profile?.createdAt ?? 'new'} profile={loaderData.profile} />
    </section>
  );
}
