import { useEffect, useState } from 'react';
import { PREVIEW_HEADER } from '#common/constants.ts';
import { localePath } from '#common/locales.ts';
import { isValidSlug } from '#common/route-rules.ts';
import { spaceBetweenScripts } from '#common/i18n/script-spacing.ts';
import { appContext } from '../context.ts';
import { GameScreen } from '../features/games/game-screen.tsx';
import { QaPanel } from '../features/games/qa-panel.tsx';
import { useTranslation } from '../i18n/translation.tsx';
import { loaderT } from '../i18n/loader-t.ts';
import { api } from '../lib/api-client.ts';
import { pageTitle } from '../lib/meta.ts';
import type { ViewportPrefetchHandle } from '../shell/viewport-prefetch.tsx';
import { invalidParameter, isNotFoundError, orPageNotFound, pageNotFound } from '../lib/route-errors.ts';
import type { Route } from './+types/qa';

/** The QA mode (docs/game-sdk.md, "QA mode"; decision 094): the play page's game beside a panel for testing it. Open to everyone, not indexed. */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  if (!isValidSlug(params.slug)) invalidParameter(request);
  const { locale, t } = loaderT(request);
  const { services, site } = context.get(appContext);
  // A private preview link (decision 097) runs one build, of any status, from its own preview host.
  const preview = new URL(request.url).searchParams.get('preview');
  const game = preview
    ? ((await services.builds.previewConfig(locale, params.slug, preview)) ?? pageNotFound(request))
    : await orPageNotFound(request, services.catalogue.gameConfig(locale, { slug: params.slug }));
  // Whether players can open the game: a preview's game may be a draft, with no play or app page yet (decision 119).
  const live = preview
    ? await services.catalogue.gameConfig(locale, { slug: params.slug }).then(
        () => true,
        (error: unknown) => {
          if (isNotFoundError(error)) return false;
          throw error;
        },
      )
    : true;
  return {
    locale,
    game,
    preview,
    live,
    payments: site.payments,
    ads: site.ads,
    title: spaceBetweenScripts(t('qa:title', { title: game.title })),
    description: spaceBetweenScripts(t('qa:description', { title: game.title })),
  };
}

// As the play page, the QA page leaves the network to its game; and a preview's game has no
// public pages yet to prefetch (decision 119).
export const handle: ViewportPrefetchHandle = { viewportPrefetch: false };

export const meta: Route.MetaFunction = ({ matches, loaderData }) => [
  pageTitle(matches, loaderData?.title ?? ''),
  { name: 'description', content: loaderData?.description ?? '' },
  { name: 'robots', content: 'noindex' },
];

export default function QaPage({ loaderData }: Route.ComponentProps) {
  const { locale, game, preview, live, payments, ads } = loaderData;
  const { t } = useTranslation('qa');
  // A preview is opened from the Studio's builds of the game: Back returns there, the game's
  // app page being the players' and perhaps not there yet (decision 119).
  const back = preview ? { to: localePath(locale, `/studio/games/${game.appId}/builds`), label: t('backToStudio', { title: game.title }) } : undefined;
  // The game's calls through a preview carry its label: the server then lets the game's developer
  // and QA test members use it before it is published, with test payments only (decision 097).
  useEffect(() => {
    if (!preview) return;
    api.configure({ headers: () => ({ [PREVIEW_HEADER]: preview }) });
    return () => api.configure({ headers: () => ({}) });
  }, [preview]);
  // Each restart (a new player, or the button) is a fresh frame: the game starts over and asks again.
  const [run, setRun] = useState(0);
  return (
    <div className="flex min-h-dvh flex-col lg:h-dvh lg:flex-row" data-testid="qa-page">
      <div className="h-[70dvh] shrink-0 lg:h-auto lg:min-w-0 lg:flex-1 [&_[data-testid=play-page]]:h-full">
        {/* A preview is a studio trying a build, not a play: it counts neither in the game's
            statistics nor in the tester's recently played (decision 119). */}
        <GameScreen key={`${game.slug}:${run}`} locale={locale} game={game} ads={ads} recordPlay={!preview} back={back} />
      </div>
      <QaPanel locale={locale} game={game} live={live} payments={payments} onRestart={() => setRun((n) => n + 1)} />
    </div>
  );
}
