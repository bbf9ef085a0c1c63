import { useEffect, useState } from 'react';
import { PREVIEW_HEADER } from '#common/constants.ts';
import { isValidSlug } from '#common/route-rules.ts';
import { spaceBetweenScripts } from '#common/i18n/script-spacing.ts';
import { appContext } from '../context.ts';
import { GameScreen } from '../features/games/game-screen.tsx';
import { QaPanel } from '../features/games/qa-panel.tsx';
import { loaderT } from '../i18n/loader-t.ts';
import { api } from '../lib/api-client.ts';
import { pageTitle } from '../lib/meta.ts';
import { invalidParameter, orPageNotFound, pageNotFound } from '../lib/route-errors.ts';
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
  return {
    locale,
    game,
    preview,
    payments: site.payments,
    ads: site.ads,
    title: spaceBetweenScripts(t('qa:title', { title: game.title })),
    description: spaceBetweenScripts(t('qa:description', { title: game.title })),
  };
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) => [
  pageTitle(matches, loaderData?.title ?? ''),
  { name: 'description', content: loaderData?.description ?? '' },
  { name: 'robots', content: 'noindex' },
];

export default function QaPage({ loaderData }: Route.ComponentProps) {
  const { locale, game, preview, payments, ads } = loaderData;
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
        <GameScreen key={`${game.slug}:${run}`} locale={locale} game={game} ads={ads} />
      </div>
      <QaPanel locale={locale} game={game} payments={payments} onRestart={() => setRun((n) => n + 1)} />
    </div>
  );
}
