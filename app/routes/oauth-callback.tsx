import { receivePopupAnswer } from '../features/social/oauth-pages.server.ts';
import { PopupPage } from '../features/social/popup-page.tsx';
import { pageTitle } from '../lib/meta.ts';
import type { Route } from './+types/oauth-callback';

/**
 * /oauth/{platform}/callback (spec sections 2 and 3): the provider's answer in the query (Apple's
 * form_post arrives here through the server's 303, server/features/social/social.routes.ts).
 */
export function loader({ request, params, context }: Route.LoaderArgs) {
  return receivePopupAnswer(request, params.platform, context);
}

export const headers: Route.HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

export const meta: Route.MetaFunction = ({ matches, loaderData }) => [pageTitle(matches, loaderData?.platformName ?? '')];

export default function Page({ loaderData }: Route.ComponentProps) {
  return <PopupPage page={loaderData} />;
}
