import { appContext } from '../context.ts';
import { pageSessionContext } from '../features/accounts/page-session.ts';
import { GameDetailsForm } from '../features/studio/game-details-form.tsx';
import { GameReviewStatus, PriceHistory } from '../features/studio/game-review-status.tsx';
import { useTranslation } from '../i18n/translation.tsx';
import { loaderT } from '../i18n/loader-t.ts';
import type { Route } from './+types/studio-game-details';

/** The game's metadata (its layout has already checked that the game is the developer's). */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { userInfo } = await context.get(pageSessionContext)();
  const { studioGames, gameChanges, catalogue } = context.get(appContext).services;
  const { locale } = loaderT(request);
  const caller = { userId: userInfo!.uid, tokenId: 0 };
  const [game, categories, tags, prices] = await Promise.all([
    studioGames.game(caller, Number(params.gameId)),
    catalogue.categories(locale),
    catalogue.tags(locale),
    gameChanges.priceHistory(caller, Number(params.gameId)),
  ]);
  return {
    game,
    prices,
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
      {loaderData.game.published ? <GameReviewStatus gameId={loaderData.game.id} review={loaderData.game.review} /> : null}
      <GameDetailsForm
        // A new change, its withdrawal or its review shows the form anew from what the server keeps.
        key={`${loaderData.game.updatedAt} ${loaderData.game.review?.id ?? ''} ${loaderData.game.review?.status ?? ''}`}
        game={loaderData.game}
        categories={loaderData.categories}
        tags={loaderData.tags}
      />
      {loaderData.game.published ? <PriceHistory changes={loaderData.prices} /> : null}
    </section>
  );
}
