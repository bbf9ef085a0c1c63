import { createContext } from 'react-router';
import type { Locale } from '#common/locales.ts';
import type { PageServices } from '#server/services.ts';

/** What the server gives every loader: services (never imported by route modules directly) and request facts. */
export interface AppLoadContext {
  services: PageServices;
  site: {
    productName: string;
    publicOrigin: string;
    communityChatUrl: string;
    buildId: string;
  };
  request: {
    nonce: string;
    /** The Accept-Language's best supported locale, for the first-visit redirect. */
    preferredLocale: Locale | null;
  };
}

export const appContext = createContext<AppLoadContext>();
