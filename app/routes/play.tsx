import { isValidSlug } from '#common/route-rules.ts';
import { spaceBetweenScripts } from '#common/i18n/script-spacing.ts';
import { appContext } from '../context.ts';
import { GameScreen } from '../features/games/game-screen.tsx';
import { loaderT } from '../i18n/loader-t.ts';
import { pageTitle } from '../lib/meta.ts';
import { invalidParameter, orPageNotFound } from '../lib/route-errors.ts';
import { trackPageView } from '../middleware/tracking.ts';
import type { Route } from './+types/play';
import type { ViewportPrefetchHandle } from '../shell/viewport-prefetch.tsx';

/** The named tracking middleware (spec section 2). */
export const clientMiddleware: Route.ClientMiddlewareFunction[] = [trackPageView];
/** The game gets the network and the main thread: no prefetch of links in view here. */
export const handle: ViewportPrefetchHandle = { viewportPrefetch: false };
export async function loader({ request, params, context }: Route.LoaderArgs) {
  if (!isValidSlug(params.slug)) invalidParameter(request);
  const { locale, t } = loaderT(request);
  const { services, site } = context.get(appContext);
  const game = await orPageNotFound(request, services.catalogue.gameConfig(locale, { slug: params.slug }));
  const title = spaceBetweenScripts(t('games:play.title', { title: game.title }));
  return { locale, game, ads: site.ads, title, description: spaceBetweenScripts(t('games:play.description', { title: game.title })) };
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) => [
  pageTitle(matches, loaderData?.title ?? ''),
  { name: 'description', content: loaderData?.description ?? '' },
  // The game page is a frame around the app page's content: let search engines index that one.
  { name: 'robots', content: 'noindex' },
];

export default function PlayPage({ loaderData }: Route.ComponentProps) {
  // Keyed: another game starts with a fresh frame and fresh state.
  return <GameScreen key={loaderData.game.slug} locale={loaderData.locale} game={loaderData.game} ads={loaderData.ads} />;
}
