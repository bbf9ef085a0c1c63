/** The OAuth providers of social sign-in (spec section 1), in the order the lists show them. */
export const OAUTH_PLATFORMS = ['google', 'apple', 'discord', 'facebook', 'x'] as const;
export type OAuthPlatform = (typeof OAUTH_PLATFORMS)[number];

/** Every social platform: the OAuth providers and WhatsApp, which signs in by a one-time code. */
export const SOCIAL_PLATFORMS = [...OAUTH_PLATFORMS, 'whatsapp'] as const;
export type SocialPlatform = (typeof SOCIAL_PLATFORMS)[number];

export function isOAuthPlatform(value: string): value is OAuthPlatform {
  return (OAUTH_PLATFORMS as readonly string[]).includes(value);
}

export function isSocialPlatform(value: string): value is SocialPlatform {
  return (SOCIAL_PLATFORMS as readonly string[]).includes(value);
}

/** The BroadcastChannel the pop-up's callback page answers on (spec section 3). */
export const OAUTH_CHANNEL = 'playport-oauth';

/** A flow id the opening page makes for each pop-up: 22 to 64 URL-safe characters. */
export const FLOW_ID_PATTERN = /^[A-Za-z0-9_-]{22,64}$/;

/**
 * The cookie that ties a pop-up flow to the browser that started it (decision 063): set by the
 * /oauth/{platform}/link page, sent only with the same-origin login and link calls. The provider's
 * answer itself (Apple's is a cross-site POST) needs no cookie: the callback page relays it.
 */
export const OAUTH_BROWSER_COOKIE = 'oauth_browser';
export const OAUTH_BROWSER_COOKIE_SECONDS = 60 * 60;
