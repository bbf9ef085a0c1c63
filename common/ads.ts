/*
 * Ad breaks of games (SDK 1.1 `ad.break`; decision 093): how they are configured (ADS_* variables,
 * server/config.ts) and what a break resolves with. The play page receives the configuration in
 * its loader data.
 */

export const AD_KINDS = ['midgame', 'rewarded'] as const;
export type AdKind = (typeof AD_KINDS)[number];

/** What `Playport.ad.break()` resolves with (docs/game-sdk.md, "Ads"). */
export type AdStatus = 'shown' | 'rewarded' | 'skipped' | 'capped' | 'no_ads';

/** `stand-in`: the portal's own marked placeholder (the default); `google`: Google's Ad Placement API; `off`: no ads. */
export type AdProvider = 'stand-in' | 'google' | 'off';

export interface AdsConfig {
  provider: AdProvider;
  /** Google's Ad Placement API, when `provider` is `google`. */
  google: {
    /** The AdSense publisher id, `ca-pub-…`. */
    client: string;
    /** `data-adbreak-test="on"`: Google's mock ads, for trying the integration. */
    test: boolean;
  } | null;
  /** At most one midgame break in this many seconds (the first may come at once). */
  midgameIntervalSeconds: number;
  /** At most one rewarded break in this many seconds. */
  rewardedIntervalSeconds: number;
  /** How long the stand-in's placeholder stays. */
  standInSeconds: number;
}

export const NO_ADS: AdsConfig = { provider: 'off', google: null, midgameIntervalSeconds: 180, rewardedIntervalSeconds: 60, standInSeconds: 3 };
