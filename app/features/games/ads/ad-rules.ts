import type { AdKind, AdsConfig, AdStatus } from '#common/ads.ts';

/** When each kind of break was last shown (ms since the epoch), portal-wide for the browser tab. */
export type AdHistory = Partial<Record<AdKind, number>>;

export interface AdBreakFacts {
  kind: AdKind;
  now: number;
  history: AdHistory;
  config: Pick<AdsConfig, 'provider' | 'midgameIntervalSeconds' | 'rewardedIntervalSeconds'>;
  /** The player bought something in this game (a paid order not refunded): no ads for them (decision 093). */
  boughtInGame: boolean;
}

/**
 * Whether a break may be shown, or the status it resolves with at once: `no_ads` with no
 * provider or for a player who bought something in the game, `capped` within the kind's interval
 * since the last break of that kind that was shown.
 */
export function adBreakDecision(facts: AdBreakFacts): { show: true } | { show: false; status: Extract<AdStatus, 'no_ads' | 'capped'> } {
  if (facts.config.provider === 'off' || facts.boughtInGame) return { show: false, status: 'no_ads' };
  const interval = facts.kind === 'midgame' ? facts.config.midgameIntervalSeconds : facts.config.rewardedIntervalSeconds;
  const last = facts.history[facts.kind];
  if (last !== undefined && facts.now - last < interval * 1000) return { show: false, status: 'capped' };
  return { show: true };
}

/** The history after a break: only one that was shown counts toward the cap. */
export function afterAdBreak(history: AdHistory, kind: AdKind, status: AdStatus, now: number): AdHistory {
  return status === 'shown' || status === 'rewarded' || status === 'skipped' ? { ...history, [kind]: now } : history;
}

const HISTORY_KEY = 'playport:ad-breaks';

/** The tab's history (sessionStorage: a reload or another game does not reset the cap; a new tab does). */
export function readAdHistory(storage: Pick<Storage, 'getItem'> | null): AdHistory {
  try {
    const value = JSON.parse(storage?.getItem(HISTORY_KEY) ?? '{}') as Record<string, unknown>;
    const history: AdHistory = {};
    for (const kind of ['midgame', 'rewarded'] as const) if (typeof value[kind] === 'number') history[kind] = value[kind];
    return history;
  } catch {
    return {};
  }
}

export function writeAdHistory(storage: Pick<Storage, 'setItem'> | null, history: AdHistory): void {
  try {
    storage?.setItem(HISTORY_KEY, JSON.stringify(history));
  } catch {
    // Storage refused (private mode, quota): the cap holds for this page only.
  }
}
