import { afterEach, describe, expect, it, vi } from 'vitest';
import { type AdsConfig, NO_ADS } from '#common/ads.ts';
import { ADSBYGOOGLE_SCRIPT, chooseAdAdapter, GOOGLE_START_TIMEOUT_MS, GoogleAds, type GooglePage, googleStatus, StandInAds } from './ad-adapters.ts';
import { adBreakDecision, afterAdBreak, readAdHistory, writeAdHistory } from './ad-rules.ts';

const config: AdsConfig = { ...NO_ADS, provider: 'stand-in', midgameIntervalSeconds: 180, rewardedIntervalSeconds: 60 };
const MINUTE = 60_000;

describe('ad break capping', () => {
  it('lets the first break of each kind through, then caps each kind for its own interval', () => {
    const now = 10 * MINUTE;
    expect(adBreakDecision({ kind: 'midgame', now, history: {}, config, boughtInGame: false })).toEqual({ show: true });
    const history = afterAdBreak({}, 'midgame', 'shown', now);
    expect(adBreakDecision({ kind: 'midgame', now: now + 2 * MINUTE, history, config, boughtInGame: false })).toEqual({ show: false, status: 'capped' });
    expect(adBreakDecision({ kind: 'midgame', now: now + 3 * MINUTE, history, config, boughtInGame: false })).toEqual({ show: true });
    // A rewarded break is capped on its own clock.
    expect(adBreakDecision({ kind: 'rewarded', now: now + 1000, history, config, boughtInGame: false })).toEqual({ show: true });
    const both = afterAdBreak(history, 'rewarded', 'rewarded', now);
    expect(adBreakDecision({ kind: 'rewarded', now: now + 59_000, history: both, config, boughtInGame: false })).toEqual({ show: false, status: 'capped' });
    expect(adBreakDecision({ kind: 'rewarded', now: now + MINUTE, history: both, config, boughtInGame: false })).toEqual({ show: true });
  });

  it('counts only breaks that were shown', () => {
    expect(afterAdBreak({}, 'midgame', 'no_ads', 5)).toEqual({});
    expect(afterAdBreak({}, 'midgame', 'capped', 5)).toEqual({});
    expect(afterAdBreak({}, 'rewarded', 'skipped', 5)).toEqual({ rewarded: 5 });
  });

  it('shows no ads for a player who bought something in the game, nor without a provider', () => {
    expect(adBreakDecision({ kind: 'midgame', now: 0, history: {}, config, boughtInGame: true })).toEqual({ show: false, status: 'no_ads' });
    expect(adBreakDecision({ kind: 'rewarded', now: 0, history: {}, config: { ...config, provider: 'off' }, boughtInGame: false })).toEqual({
      show: false,
      status: 'no_ads',
    });
  });

  it('keeps the history in the tab, and survives storage that refuses', () => {
    const store = new Map<string, string>();
    const storage = { getItem: (k: string) => store.get(k) ?? null, setItem: (k: string, v: string) => void store.set(k, v) };
    writeAdHistory(storage, { midgame: 42 });
    expect(readAdHistory(storage)).toEqual({ midgame: 42 });
    store.set('playport:ad-breaks', '{"midgame":"soon","rewarded":7}');
    expect(readAdHistory(storage)).toEqual({ rewarded: 7 });
    store.set('playport:ad-breaks', 'not json');
    expect(readAdHistory(storage)).toEqual({});
    const refusing = {
      getItem: () => {
        throw new Error('SecurityError');
      },
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
    };
    expect(readAdHistory(refusing)).toEqual({});
    expect(() => writeAdHistory(refusing, { midgame: 1 })).not.toThrow();
  });
});

/** A document that records the scripts added to its head; nothing is fetched. */
function fakePage(consent: 'accepted' | 'declined' | null, muted = false) {
  const scripts: Array<{ src: string; async: boolean; crossOrigin: string | null; nonce: string; attributes: Map<string, string>; fire(event: string): void }> =
    [];
  const page: GooglePage = {
    document: {
      createElement: (() => {
        const listeners = new Map<string, () => void>();
        const script = {
          src: '',
          async: false,
          crossOrigin: null as string | null,
          nonce: '',
          attributes: new Map<string, string>(),
          setAttribute(name: string, value: string) {
            this.attributes.set(name, value);
          },
          addEventListener(name: string, listener: () => void) {
            listeners.set(name, listener);
          },
          fire: (event: string) => listeners.get(event)?.(),
        };
        return script;
      }) as unknown as Document['createElement'],
      head: { append: (script: (typeof scripts)[number]) => void scripts.push(script) } as unknown as Document['head'],
    },
    window: {},
    consent: () => consent,
    muted: () => muted,
    nonce: 'n0nce',
  };
  return { page, scripts };
}

describe("Google's Ad Placement API adapter", () => {
  afterEach(() => vi.useRealTimers());
  const options = { client: 'ca-pub-1234567890123456', test: true, midgameIntervalSeconds: 180 };

  it('never loads the script without advertising consent, and answers no_ads', async () => {
    for (const consent of [null, 'declined'] as const) {
      const { page, scripts } = fakePage(consent);
      const hooks = { beforeAd: vi.fn(), afterAd: vi.fn() };
      expect(await new GoogleAds(page, options).show('midgame', hooks)).toBe('no_ads');
      expect(scripts).toEqual([]);
      expect(page.window.adsbygoogle).toBeUndefined();
      expect(hooks.beforeAd).not.toHaveBeenCalled();
    }
  });

  it('loads the script once after consent, with the publisher id, test mode, frequency hint and nonce', async () => {
    const { page, scripts } = fakePage('accepted', true);
    const ads = new GoogleAds(page, options);
    const first = ads.load();
    const second = ads.load();
    expect(scripts).toHaveLength(1);
    const script = scripts[0]!;
    expect(script.src).toBe(`${ADSBYGOOGLE_SCRIPT}?client=ca-pub-1234567890123456`);
    expect(script.async).toBe(true);
    expect(script.crossOrigin).toBe('anonymous');
    expect(script.nonce).toBe('n0nce');
    expect(Object.fromEntries(script.attributes)).toEqual({
      'data-ad-client': 'ca-pub-1234567890123456',
      'data-ad-frequency-hint': '180s',
      'data-adbreak-test': 'on',
    });
    // adConfig goes first: preloading, and the sound as the player has it.
    expect(page.window.adsbygoogle).toEqual([{ preloadAdBreaks: 'on', sound: 'off' }]);
    script.fire('load');
    expect(await first).toBe(true);
    expect(await second).toBe(true);
  });

  it('leaves test mode out unless configured', () => {
    const { page, scripts } = fakePage('accepted');
    void new GoogleAds(page, { ...options, test: false, midgameIntervalSeconds: 10 }).load();
    expect(scripts[0]!.attributes.has('data-adbreak-test')).toBe(false);
    expect(scripts[0]!.attributes.get('data-ad-frequency-hint')).toBe('30s');
  });

  it('runs a rewarded break through adBreak: pause and mute before, resume after, the status from adBreakDone', async () => {
    const { page, scripts } = fakePage('accepted');
    const ads = new GoogleAds(page, options);
    const hooks = { beforeAd: vi.fn(), afterAd: vi.fn() };
    const shown = ads.show('rewarded', hooks);
    scripts[0]!.fire('load');
    await vi.waitFor(() => expect(page.window.adsbygoogle).toHaveLength(2));
    const placement = page.window.adsbygoogle![1] as Record<string, (arg?: unknown) => void> & { type: string };
    expect(placement.type).toBe('reward');
    const showAd = vi.fn();
    placement.beforeReward!(showAd);
    expect(showAd).toHaveBeenCalled();
    placement.beforeAd!();
    expect(hooks.beforeAd).toHaveBeenCalledOnce();
    placement.adViewed!();
    placement.afterAd!();
    expect(hooks.afterAd).toHaveBeenCalledOnce();
    placement.adBreakDone!({ breakType: 'reward', breakStatus: 'viewed' });
    expect(await shown).toBe('rewarded');
  });

  it('answers no_ads when the break never starts', async () => {
    vi.useFakeTimers();
    const { page, scripts } = fakePage('accepted');
    const shown = new GoogleAds(page, options).show('midgame', { beforeAd: vi.fn(), afterAd: vi.fn() });
    scripts[0]!.fire('load');
    await vi.advanceTimersByTimeAsync(GOOGLE_START_TIMEOUT_MS);
    expect(await shown).toBe('no_ads');
    expect((page.window.adsbygoogle![1] as { type: string }).type).toBe('next');
  });

  it("maps Google's break statuses", () => {
    expect(googleStatus('midgame', 'viewed')).toBe('shown');
    expect(googleStatus('rewarded', 'viewed')).toBe('rewarded');
    expect(googleStatus('rewarded', 'dismissed')).toBe('skipped');
    expect(googleStatus('midgame', 'frequencyCapped')).toBe('capped');
    for (const status of ['notReady', 'timeout', 'error', 'noAdPreloaded', 'ignored', 'other', 'invalid', undefined])
      expect(googleStatus('midgame', status)).toBe('no_ads');
  });
});

describe('choosing the ad adapter', () => {
  const deps = { present: vi.fn(async () => 'completed' as const), google: () => fakePage('accepted').page };

  it('takes the stand-in by default, Google when configured with a publisher id, none when off', () => {
    expect(chooseAdAdapter(config, deps)?.name).toBe('stand-in');
    expect(chooseAdAdapter({ ...config, provider: 'google', google: { client: 'ca-pub-1234567890', test: false } }, deps)?.name).toBe('google');
    expect(chooseAdAdapter({ ...config, provider: 'google', google: null }, deps)).toBeNull();
    expect(chooseAdAdapter({ ...config, provider: 'off' }, deps)).toBeNull();
  });

  it('resolves the stand-in as the placeholder ended, pausing the game around it', async () => {
    const order: string[] = [];
    const hooks = { beforeAd: () => order.push('before'), afterAd: () => order.push('after') };
    const ended = (outcome: 'completed' | 'skipped') => async () => {
      order.push('shown');
      return outcome;
    };
    expect(await new StandInAds(ended('completed')).show('midgame', hooks)).toBe('shown');
    expect(order).toEqual(['before', 'shown', 'after']);
    expect(await new StandInAds(ended('completed')).show('rewarded', hooks)).toBe('rewarded');
    expect(await new StandInAds(ended('skipped')).show('rewarded', hooks)).toBe('skipped');
  });
});
