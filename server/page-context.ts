// What the server gives every page loader. It is the server's to define: server/app.ts fills it
// and app/context.ts names it for the pages, so the import runs app → server only (decision 083).
import type { AdsConfig } from '#common/ads.ts';
import type { Locale } from '#common/locales.ts';
import type { SocialPlatform } from '#common/social-platforms.ts';
import type { ClientFacts } from './lib/caller.ts';
import type { PageServices } from './services/page-services.ts';

/** What the server gives every loader: services (never imported by route modules directly) and request facts. */
export interface AppLoadContext {
  services: PageServices;
  /**
   * The HTTP status the API answers for a service's refusal (server/http/errors.ts), 500 for
   * anything else: pages answer the same without importing server modules into the page build.
   */
  statusOfError: (error: unknown) => number;
  site: {
    productName: string;
    publicOrigin: string;
    communityChatUrl: string;
    buildId: string;
    /** The social platforms offered (configured providers, WhatsApp when it has a sender). */
    socialPlatforms: SocialPlatform[];
    /** The advertising pixel's id, or null when there is none (decision 065). */
    pixelId: string | null;
    /** Ad breaks of games (decision 093): the play page's loader passes them on. */
    ads: AdsConfig;
    /** Whether cookies the pages set carry Secure. */
    secureCookies: boolean;
    /** Which checkout a purchase opens (the QA mode says so): the built-in sandbox, Xsolla's sandbox, live Xsolla, or none. */
    payments: 'sandbox' | 'xsolla-sandbox' | 'xsolla' | 'off';
  };
  request: {
    nonce: string;
    /** The Accept-Language's best supported locale, for the first-visit redirect. */
    preferredLocale: Locale | null;
    /** The client's address (as the trusted proxies report it) and browser, for per-client limits. */
    client: ClientFacts;
    /** Whether the user agent is a crawler's (isbot): its page is rendered whole and tells the browser to make no guest account. */
    crawler: boolean;
  };
}
