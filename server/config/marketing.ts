// The marketing area of the configuration: ad breaks in games (decision 093) and the advertising
// pixel with its server-side Conversions API (decision 065).
import type { AdsConfig } from '#common/ads.ts';
import { z } from 'zod';
import { booleanFromEnv, OptionalText } from './env-values.ts';

/** The variables of this area. */
export const marketingEnvShape = {
  /** The Meta (Facebook) pixel: loaded for visitors from facebook or meta campaigns who consented; none by default. */
  META_PIXEL_ID: z
    .string()
    .regex(/^\d{5,20}$/, 'must be the numeric pixel id')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  /** Server-side Conversions API: the events the browser sends, sent again from the server with the same event ids. */
  META_CONVERSIONS_API_TOKEN: OptionalText,
  META_CONVERSIONS_API_URL: z.url({ protocol: /^https?$/ }).default('https://graph.facebook.com/v21.0'),
  /** Ad breaks of games (decision 093): the portal's marked stand-in (default), Google's Ad Placement API, or none. */
  ADS_PROVIDER: z.enum(['stand-in', 'google', 'off']).default('stand-in'),
  /** The AdSense publisher id for the Ad Placement API (ADS_PROVIDER=google). */
  ADS_GOOGLE_CLIENT: z
    .string()
    .regex(/^ca-pub-\d{10,20}$/, 'must be the AdSense publisher id, ca-pub-…')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  /** Google's test mode (data-adbreak-test="on"): mock ads only. */
  ADS_GOOGLE_TEST: booleanFromEnv.default(false),
  ADS_MIDGAME_INTERVAL_SECONDS: z.coerce.number().int().min(30).max(3600).default(180),
  ADS_REWARDED_INTERVAL_SECONDS: z.coerce.number().int().min(0).max(3600).default(60),
  ADS_STAND_IN_SECONDS: z.coerce.number().int().min(1).max(30).default(3),
};

type MarketingEnv = z.infer<z.ZodObject<typeof marketingEnvShape>>;

/** The checks across this area's variables: Google's ads need the publisher id. */
export function checkMarketingEnv(env: MarketingEnv, ctx: z.RefinementCtx): void {
  if (env.ADS_PROVIDER === 'google' && !env.ADS_GOOGLE_CLIENT) {
    ctx.addIssue({ code: 'custom', path: ['ADS_GOOGLE_CLIENT'], message: 'ADS_PROVIDER=google needs the AdSense publisher id (ca-pub-…)' });
  }
}

/** Ad breaks of games. */
export function adsConfigOf(env: MarketingEnv): AdsConfig {
  return {
    provider: env.ADS_PROVIDER,
    google: env.ADS_PROVIDER === 'google' && env.ADS_GOOGLE_CLIENT ? { client: env.ADS_GOOGLE_CLIENT, test: env.ADS_GOOGLE_TEST } : null,
    midgameIntervalSeconds: env.ADS_MIDGAME_INTERVAL_SECONDS,
    rewardedIntervalSeconds: env.ADS_REWARDED_INTERVAL_SECONDS,
    standInSeconds: env.ADS_STAND_IN_SECONDS,
  };
}

/** The advertising pixel: off without a pixel id. */
export type PixelConfig = { id: string; conversionsApi: { url: string; token: string } | null } | null;

export function pixelConfigOf(env: MarketingEnv): PixelConfig {
  if (!env.META_PIXEL_ID) return null;
  return {
    id: env.META_PIXEL_ID,
    conversionsApi: env.META_CONVERSIONS_API_TOKEN ? { url: env.META_CONVERSIONS_API_URL.replace(/\/+$/, ''), token: env.META_CONVERSIONS_API_TOKEN } : null,
  };
}
