import { appContext } from '../context.ts';
import { pageSessionContext } from '../features/accounts/page-session.ts';
import { GameDetailsForm } from '../features/studio/game-details-form.tsx';
import { useTranslation } from '../i18n/translation.tsx';
import { loaderT } from '../i18n/loader-t.ts';
import type { Route } from './+types/studio-game-details';

/** The game's metadata (its layout has already checked that the game is the developer's). */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { userInfo } = await context.get(pageSessionContext)();
  const { studioGames, catalogue } = context.get(appContext).services;
  const { locale } = loaderT(request);
  const [game, categories, tags] = await Promise.all([
    studioGames.game({ userId: userInfo!.uid, tokenId: 0 }, Number(params.gameId)),
    catalogue.categories(locale),
    catalogue.tags(locale),
  ]);
  return {
    game,
    categories: categories.map((c) => ({ slug: c.slug, title: c.title })),
    tags: tags.map((tag) => ({ slug: tag.slug, title: tag.title })).sort((a, b) => a.title.localeCompare(b.title, locale)),
  };
}

export default function Page({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('studio');
  return (
    <section className="space-y-4" aria-labelledby="studio-details-title">
      <h2 id="studio-details-title" className="text-xl font-semibold tracking-tight">
        {t('games.details.title')}
      </h2>
      <GameDetailsForm key={loaderData.game.updatedAt} game={loaderData.game} categories={loaderData.categories} tags={loaderData.tags} />
    </section>
  );
}
