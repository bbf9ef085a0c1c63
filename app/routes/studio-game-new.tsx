import { redirect } from 'react-router';
import { localePath } from '#common/locales.ts';
import { appContext } from '../context.ts';
import { pageSessionContext } from '../features/accounts/page-session.ts';
import { NewGameForm } from '../features/studio/new-game-form.tsx';
import { useTranslation } from '../i18n/translation.tsx';
import { loaderT } from '../i18n/loader-t.ts';
import type { Route } from './+types/studio-game-new';

/** A new game needs a studio: a member without a profile is sent to create one. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { userInfo } = await context.get(pageSessionContext)();
  const profile = await context.get(appContext).services.developers.profile(userInfo!.uid);
  if (!profile) throw redirect(localePath(loaderT(request).locale, '/studio'));
  return null;
}

export default function Page() {
  const { t } = useTranslation('studio');
  return (
    <section className="space-y-4" aria-labelledby="studio-new-title">
      <h2 id="studio-new-title" className="text-xl font-semibold tracking-tight">
        {t('games.new.title')}
      </h2>
      <p className="max-w-prose text-sm text-zinc-600 dark:text-zinc-400">{t('games.new.intro')}</p>
      <NewGameForm />
    </section>
  );
}
