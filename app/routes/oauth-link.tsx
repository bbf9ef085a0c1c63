import { startPopupFlow } from '../features/social/oauth-pages.server.ts';
import { PopupPage } from '../features/social/popup-page.tsx';
import { pageTitle } from '../lib/meta.ts';
import type { Route } from './+types/oauth-link';

/** /oauth/{platform}/link (spec section 2): starts the provider's sign-in inside the pop-up. */
export function loader({ request, params, context }: Route.LoaderArgs) {
  return startPopupFlow(request, params.platform, context);
}

export const headers: Route.HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

export const meta: Route.MetaFunction = ({ matches, loaderData }) => [pageTitle(matches, loaderData?.platformName ?? '')];

export default function Page({ loaderData }: Route.ComponentProps) {
  return <PopupPage page={loaderData} />;
}
