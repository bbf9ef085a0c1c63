import { appContext } from '../context.ts';
import { pageSessionContext } from '../features/accounts/page-session.ts';
import { GameList } from '../features/studio/game-list.tsx';
import { ProfileForm } from '../features/studio/profile-form.tsx';
import { useTranslation } from '../i18n/translation.tsx';
import { loaderT } from '../i18n/loader-t.ts';
import type { Route } from './+types/studio-index';

/** The developer's games; a member without a studio profile creates one here first. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { userInfo } = await context.get(pageSessionContext)();
  const { studioGames, developers } = context.get(appContext).services;
  const profile = await developers.profile(userInfo!.uid);
  if (!profile) return { profile: null, games: [] };
  return { profile, games: await studioGames.list({ userId: userInfo!.uid, tokenId: 0 }, loaderT(request).locale) };
}

export default function Page({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('studio');
  if (loaderData.profile) return <GameList games={loaderData.games} />;
  return (
    <section className="space-y-4" aria-labelledby="studio-create-title">
      <h2 id="studio-create-title" className="text-xl font-semibold tracking-tight">
        {t('games.profile.createTitle')}
      </h2>
      <p className="max-w-prose text-sm text-zinc-600 dark:text-zinc-400">{t('games.profile.createIntro')}</p>
      <ProfileForm profile={null} />
    </section>
  );
}
