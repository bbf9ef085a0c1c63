import { Outlet } from 'react-router';
import { appContext } from '../context.ts';
import { pageSessionContext } from '../features/accounts/page-session.ts';
import { StudioGameNav } from '../features/studio/studio-nav.tsx';
import { loaderT } from '../i18n/loader-t.ts';
import { invalidParameter, pageNotFound } from '../lib/route-errors.ts';
import type { Route } from './+types/studio-game';

/** One of the developer's games: another developer's game, or none, is "not found" (decision 095). */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  if (!/^\d{1,9}$/.test(params.gameId)) invalidParameter(request);
  const { userInfo } = await context.get(pageSessionContext)();
  const game = await context.get(appContext).services.developers.ownGame(userInfo!.uid, Number(params.gameId), loaderT(request).locale);
  if (!game) pageNotFound(request);
  return { game };
}

export default function StudioGameLayout({ loaderData }: Route.ComponentProps) {
  return (
    <div className="space-y-6">
      <div className="space-y-3">
        <h1 className="text-2xl font-semibold tracking-tight">{loaderData.game.title}</h1>
        <StudioGameNav gameId={loaderData.game.id} />
      </div>
      <Outlet />
    </div>
  );
}
