import { appContext } from '../context.ts';
import { pageSessionContext } from '../features/accounts/page-session.ts';
import { StudioKeysPanel } from '../features/studio/studio-keys.tsx';
import type { Route } from './+types/studio-keys';

/** /studio/keys: the developer's keys for build pipelines (decision 102). */
export async function loader({ context }: Route.LoaderArgs) {
  const { userInfo } = await context.get(pageSessionContext)();
  const { developers, studioKeys } = context.get(appContext).services;
  if (!(await developers.profile(userInfo!.uid))) return { keys: null, max: 0 };
  return studioKeys.list({ userId: userInfo!.uid, tokenId: 0 });
}

export default function Page({ loaderData }: Route.ComponentProps) {
  return <StudioKeysPanel keys={loaderData.keys} max={loaderData.max} />;
}
