import type { AdKind, AdsConfig, AdStatus } from '#common/ads.ts';

/*
 * Ad networks behind one interface (decision 093; decision 086 for adapters). The play page asks
 * for a break; the adapter shows it and tells the page when the game must be paused and muted
 * (beforeAd) and may resume (afterAd).
 */

export interface AdHooks {
  /** The break is about to show: pause and mute the game. */
  beforeAd(): void;
  /** The break is over, whatever happened: the game resumes. */
  afterAd(): void;
}

export interface AdAdapter {
  readonly name: 'stand-in' | 'google';
  show(kind: AdKind, hooks: AdHooks): Promise<AdStatus>;
}

/** How the stand-in's placeholder ended: it ran its time, or the player skipped it. */
export type StandInOutcome = 'completed' | 'skipped';

/** The portal's own stand-in: a clearly marked placeholder over the game (`present` shows it). */
export class StandInAds implements AdAdapter {
  readonly name = 'stand-in';
  readonly #present: (kind: AdKind) => Promise<StandInOutcome>;
  constructor(present: (kind: AdKind) => Promise<StandInOutcome>) {
    this.#present = present;
  }

  async show(kind: AdKind, hooks: AdHooks): Promise<AdStatus> {
    hooks.beforeAd();
    try {
      const outcome = await this.#present(kind);
      if (kind === 'rewarded') return outcome === 'completed' ? 'rewarded' : 'skipped';
      return 'shown';
    } finally {
      hooks.afterAd();
    }
  }
}

/** Where the Ad Placement API's script comes from. */
export const ADSBYGOOGLE_SCRIPT = 'https://pagead2.googlesyndication.com/pagead/js/adsbygoogle.js';

/** What Google's adBreak() calls back with at its end (developers.google.com/ad-placement/apis/adbreak). */
export interface PlacementInfo {
  breakType?: string;
  breakName?: string;
  breakFormat?: string;
  breakStatus?: string;
}

interface Placement {
  type: 'next' | 'reward';
  name: string;
  beforeAd?: () => void;
  afterAd?: () => void;
  beforeReward?: (showAdFn: () => void) => void;
  adDismissed?: () => void;
  adViewed?: () => void;
  adBreakDone?: (info: PlacementInfo) => void;
}

/** The page objects the Google adapter touches, so tests give it fakes and never reach the network. */
export interface GooglePage {
  document: Pick<Document, 'createElement' | 'head'>;
  window: { adsbygoogle?: unknown[] };
  /** The visitor's advertising consent (decision 065): the script loads only after 'accepted'. */
  consent(): 'accepted' | 'declined' | null;
  /** Whether the player muted the game (adConfig's sound). */
  muted(): boolean;
  /** The page's CSP nonce, for the script element. */
  nonce?: string;
}

/** How long a break may take to start before it counts as no ad (the script did not load, say). */
export const GOOGLE_START_TIMEOUT_MS = 10_000;

/**
 * Google's Ad Placement API (H5 games ads): adBreak/adConfig through the adsbygoogle script. The
 * script is added once, on the first break, and only with the visitor's advertising consent;
 * `test` adds `data-adbreak-test="on"` (Google's mock ads). A midgame break is type `next`, a
 * rewarded one `reward` (the game asked for it on the player's request, so the ad is shown at once).
 */
export class GoogleAds implements AdAdapter {
  readonly name = 'google';
  readonly #page: GooglePage;
  readonly #client: string;
  readonly #test: boolean;
  readonly #frequencySeconds: number;
  #script: Promise<boolean> | null = null;

  constructor(page: GooglePage, options: { client: string; test: boolean; midgameIntervalSeconds: number }) {
    this.#page = page;
    this.#client = options.client;
    this.#test = options.test;
    // Google's hint takes 30 s at the least.
    this.#frequencySeconds = Math.max(30, options.midgameIntervalSeconds);
  }

  /** Adds the script (once); false without consent or when it failed to load. */
  load(): Promise<boolean> {
    if (this.#page.consent() !== 'accepted') return Promise.resolve(false);
    this.#script ??= new Promise<boolean>((resolve) => {
      const script = this.#page.document.createElement('script');
      script.async = true;
      script.src = `${ADSBYGOOGLE_SCRIPT}?client=${encodeURIComponent(this.#client)}`;
      script.crossOrigin = 'anonymous';
      script.setAttribute('data-ad-client', this.#client);
      script.setAttribute('data-ad-frequency-hint', `${this.#frequencySeconds}s`);
      if (this.#test) script.setAttribute('data-adbreak-test', 'on');
      if (this.#page.nonce) script.nonce = this.#page.nonce;
      script.addEventListener('load', () => resolve(true));
      script.addEventListener('error', () => {
        this.#script = null;
        resolve(false);
      });
      this.#page.window.adsbygoogle ??= [];
      this.#push({ preloadAdBreaks: 'on', sound: this.#page.muted() ? 'off' : 'on' });
      this.#page.document.head.append(script);
    });
    return this.#script;
  }

  /** Tells Google whether the game plays sound now (adConfig), when the script is there. */
  sound(on: boolean): void {
    if (this.#script) this.#push({ sound: on ? 'on' : 'off' });
  }

  async show(kind: AdKind, hooks: AdHooks): Promise<AdStatus> {
    if (!(await this.load())) return 'no_ads';
    return new Promise<AdStatus>((resolve) => {
      let started = false;
      const timer = setTimeout(() => {
        if (!started) resolve('no_ads');
      }, GOOGLE_START_TIMEOUT_MS);
      const placement: Placement = {
        type: kind === 'rewarded' ? 'reward' : 'next',
        name: `playport-${kind}`,
        beforeAd: () => {
          started = true;
          hooks.beforeAd();
        },
        afterAd: () => hooks.afterAd(),
        adBreakDone: (info) => {
          clearTimeout(timer);
          resolve(googleStatus(kind, info.breakStatus));
        },
      };
      if (kind === 'rewarded') {
        // Required for rewarded placements; the outcome is read from adBreakDone's breakStatus.
        placement.beforeReward = (showAdFn) => showAdFn();
        placement.adViewed = () => undefined;
        placement.adDismissed = () => undefined;
      }
      this.#push(placement as unknown as Record<string, unknown>);
    });
  }

  #push(value: Record<string, unknown>): void {
    (this.#page.window.adsbygoogle ??= []).push(value);
  }
}

/** Google's breakStatus in the SDK's terms. */
export function googleStatus(kind: AdKind, breakStatus: string | undefined): AdStatus {
  switch (breakStatus) {
    case 'viewed':
      return kind === 'rewarded' ? 'rewarded' : 'shown';
    case 'dismissed':
      return 'skipped';
    case 'frequencyCapped':
      return 'capped';
    default:
      // notReady, timeout, error, noAdPreloaded, ignored, invalid, other: no ad was shown.
      return 'no_ads';
  }
}

/** The adapter the configuration names, or null for none (`off`). */
export function chooseAdAdapter(config: AdsConfig, deps: { present: (kind: AdKind) => Promise<StandInOutcome>; google: () => GooglePage }): AdAdapter | null {
  if (config.provider === 'google' && config.google)
    return new GoogleAds(deps.google(), { client: config.google.client, test: config.google.test, midgameIntervalSeconds: config.midgameIntervalSeconds });
  if (config.provider === 'stand-in') return new StandInAds(deps.present);
  return null;
}
