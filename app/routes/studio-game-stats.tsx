import { STATS_RANGES, type StatsRange } from '#common/api/studio-stats.schema.ts';
import { appContext } from '../context.ts';
import { pageSessionContext } from '../features/accounts/page-session.ts';
import { StudioStatsScreen } from '../features/studio/studio-stats-screen.tsx';
import { loaderT } from '../i18n/loader-t.ts';
import { invalidParameter, orPageNotFound } from '../lib/route-errors.ts';
import type { Route } from './+types/studio-game-stats';

/** A range from the query (`?days=7|30|90`); anything else is the default 30 days. */
function rangeOf(request: Request): StatsRange {
  const days = Number(new URL(request.url).searchParams.get('days'));
  return (STATS_RANGES as readonly number[]).includes(days) ? (days as StatsRange) : 30;
}

/** The statistics of one of the developer's games (decision 101): the server checks the owner again. */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  if (!/^\d{1,9}$/.test(params.gameId)) invalidParameter(request);
  const { userInfo } = await context.get(pageSessionContext)();
  const caller = userInfo ? { userId: userInfo.uid, tokenId: 0 } : null;
  const stats = await orPageNotFound(
    request,
    context.get(appContext).services.studioStats.stats(caller, Number(params.gameId), rangeOf(request), loaderT(request).locale),
  );
  return { stats };
}

export default function Page({ loaderData }: Route.ComponentProps) {
  return <StudioStatsScreen stats={loaderData.stats} />;
}
