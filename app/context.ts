import { createContext } from 'react-router';
import type { Locale } from '#common/locales.ts';
import type { SocialPlatform } from '#common/social-platforms.ts';
import type { ClientFacts } from '#server/lib/caller.ts';
import type { PageServices } from '#server/services.ts';

/** What the server gives every loader: services (never imported by route modules directly) and request facts. */
export interface AppLoadContext {
  services: PageServices;
  site: {
    productName: string;
    publicOrigin: string;
    communityChatUrl: string;
    buildId: string;
    /** The social platforms offered (configured providers, WhatsApp when it has a sender). */
    socialPlatforms: SocialPlatform[];
    /** The advertising pixel's id, or null when there is none (decision 065). */
    pixelId: string | null;
    /** Whether cookies the pages set carry Secure. */
    secureCookies: boolean;
  };
  request: {
    nonce: string;
    /** The Accept-Language's best supported locale, for the first-visit redirect. */
    preferredLocale: Locale | null;
    /** The client's address (as the trusted proxies report it) and browser, for per-client limits. */
    client: ClientFacts;
  };
}

export const appContext = createContext<AppLoadContext>();
