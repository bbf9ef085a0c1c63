import { useRouteLoaderData } from 'react-router';
import type { SocialPlatform } from '#common/social-platforms.ts';
import type { PageSession } from '../features/accounts/page-session.ts';

/**
 * What the root loader sends once per page load: site facts and the session, kept small because
 * every page carries it. The interface texts come from /{locale}/messages.json (app/i18n/i18n.ts).
 */
export interface RootData {
  productName: string;
  publicOrigin: string;
  communityChatUrl: string;
  /** The social platforms offered: configured providers, and WhatsApp when it has a sender. */
  socialPlatforms: SocialPlatform[];
  /** The advertising pixel's id, or null (decision 065). */
  pixelId: string | null;
  buildId: string;
  nonce: string;
  /** The token cookie's user as the server found it, so the first paint shows who is signed in. */
  session: PageSession;
  /** Whether the server took the browser for a crawler (no guest account is made for it). */
  crawler: boolean;
}

/** The root loader's data; undefined only when the root loader itself failed. */
export function useRootData(): RootData | undefined {
  return useRouteLoaderData<RootData>('root');
}
