import { useRouteLoaderData } from 'react-router';
import type { Messages } from '#common/i18n/resources.ts';
import type { Locale } from '#common/locales.ts';
import type { PageSession } from '../features/accounts/page-session.ts';

/** What the root loader sends once per page load: the first locale's messages and site facts. */
export interface RootData {
  /** The locale of the first request; later locales come from /{locale}/messages.json. */
  locale: Locale;
  messages: Messages;
  productName: string;
  publicOrigin: string;
  communityChatUrl: string;
  buildId: string;
  nonce: string;
  /** The token cookie's user as the server found it, so the first paint shows who is signed in. */
  session: PageSession;
}

/** The root loader's data; undefined only when the root loader itself failed. */
export function useRootData(): RootData | undefined {
  return useRouteLoaderData<RootData>('root');
}
