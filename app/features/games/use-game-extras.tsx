import { type ReactNode, type RefObject, Suspense, useEffect, useRef, useState } from 'react';
import { AD_KINDS, type AdKind, type AdsConfig, type AdStatus } from '#common/ads.ts';
import type { Locale } from '#common/locales.ts';
import { useTranslation } from '../../i18n/translation.tsx';
import { api } from '../../lib/api-client.ts';
import { onDemand } from '../../ui/deferred.tsx';
import { session as sessionStore } from '../accounts/session.ts';
import { useSessionValue } from '../accounts/use-session.ts';
import { useRootData } from '../../shell/root-data.ts';
import { consent } from '../tracking/consent.ts';
import type { AdAdapter, AdHooks, StandInOutcome } from './ads/ad-adapters.ts';
import { isExtraMethod } from './game-extras.ts';
import { BridgeRefusal, bridgeError, bridgeRequestOf } from './game-bridge.ts';
import { inviteLink, inviteParamsOf, paramsOfSearch } from './invite-params.ts';
import { gameSignalOf, newSessionId, PlaySession, PlaySessionReporter, REPORT_INTERVAL_MS } from './play-session.ts';
import { postToGame } from './use-game-bridge.tsx';

/** The ad stand-in's placeholder loads when a game first asks for a break, never with the play page. */
const { Component: AdStandIn } = onDemand(async () => (await import('./ads/ad-stand-in.tsx')).AdStandIn);

/** How long the celebration of `happyTime` shows, and how often it may. */
const HAPPY_MS = 2000;
const HAPPY_EVERY_MS = 10_000;

interface ExtrasOptions {
  frame: RefObject<HTMLIFrameElement | null>;
  frameOrigin: string;
  appId: number;
  /** The message type a game posts when it has loaded (the loading time ends there without loadingStop). */
  loadedMessage: string;
  locale: Locale;
  ads: AdsConfig;
  /** The player's mute choice on the play page. */
  muted: boolean;
}

/**
 * SDK 1.1 on the play page (decision 093): the game's signals become the session's statistics
 * (reported in batches), settings go to the game, invite links and parameters, a light
 * celebration, and ad breaks through the configured adapter. Returns what it shows over the game.
 */
export function useGameExtras({ frame, frameOrigin, appId, loadedMessage, locale, ads, muted }: ExtrasOptions): ReactNode {
  const { t } = useTranslation('games');
  const isMember = useSessionValue((view) => view.isMember);
  const nonce = useRootData()?.nonce;
  const [standIn, setStandIn] = useState<{ kind: AdKind; end: (outcome: StandInOutcome) => void } | null>(null);
  const [breakRunning, setBreakRunning] = useState(false);
  const [talking, setTalking] = useState(false);
  const happyTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const play = useRef<PlaySession | null>(null);
  const state = useRef({ muted, isMember, busy: false, breakRunning: false, loaded: false, lastHappy: -Infinity });
  useEffect(() => {
    state.current.muted = muted;
    state.current.isMember = isMember;
  }, [muted, isMember]);
  const effectiveMuted = muted || breakRunning;

  // The ad code (rules, adapters) loads with the first break a game asks for, not with the play page.
  const adapter = useRef<{ for: AdsConfig; adapter: AdAdapter | null } | null>(null);

  // The session's statistics: the game's signals, the page's visibility, batched reports.
  useEffect(() => {
    const session = new PlaySession(performance.now());
    play.current = session;
    const id = newSessionId();
    const reporter = new PlaySessionReporter(
      session,
      (figures) => {
        // Before the first visit's session exists, the next report carries it all.
        if (!sessionStore.snapshot().token) return Promise.reject(new Error('no session yet'));
        return api.post(`/tracking/game-sessions/${appId}`, { session_id: id, ...figures }, { keepalive: true });
      },
      () => performance.now(),
    );
    const onVisibility = () => {
      session.visibility(document.visibilityState === 'visible', performance.now());
      if (document.visibilityState === 'hidden') void reporter.flush();
    };
    const onPageHide = () => void reporter.flush();
    const timer = setInterval(() => void reporter.flush(), REPORT_INTERVAL_MS);
    document.addEventListener('visibilitychange', onVisibility);
    window.addEventListener('pagehide', onPageHide);
    return () => {
      clearInterval(timer);
      document.removeEventListener('visibilitychange', onVisibility);
      window.removeEventListener('pagehide', onPageHide);
      void reporter.flush();
    };
  }, [appId]);

  useEffect(() => {
    const answer = (id: number, run: () => unknown) => {
      Promise.resolve()
        .then(run)
        .then(
          (result) => postToGame(frame, frameOrigin, { type: 'playport:response', id, ok: true, result }),
          (failure: unknown) => postToGame(frame, frameOrigin, { type: 'playport:response', id, ok: false, error: bridgeError(failure, t('errors:generic')) }),
        );
    };
    const hooks: AdHooks = {
      beforeAd: () => {
        play.current?.adBreak(true, performance.now());
        postToGame(frame, frameOrigin, { type: 'playport:event', event: 'pause', data: { reason: 'ad' } });
        state.current.breakRunning = true;
        setBreakRunning(true);
      },
      afterAd: () => {
        play.current?.adBreak(false, performance.now());
        state.current.breakRunning = false;
        setBreakRunning(false);
        postToGame(frame, frameOrigin, { type: 'playport:event', event: 'resume', data: { reason: 'ad' } });
        frame.current?.focus();
      },
    };
    const adBreak = async (kind: unknown): Promise<{ status: AdStatus }> => {
      if (typeof kind !== 'string' || !(AD_KINDS as readonly string[]).includes(kind)) throw new BridgeRefusal('validation', t('sdk.adKind'));
      if (state.current.busy) throw new BridgeRefusal('busy', t('sdk.adBusy'));
      state.current.busy = true;
      try {
        const adKind = kind as AdKind;
        const [{ chooseAdAdapter }, { adBreakDecision, afterAdBreak, readAdHistory, writeAdHistory }] = await Promise.all([
          import('./ads/ad-adapters.ts'),
          import('./ads/ad-rules.ts'),
        ]);
        if (adapter.current?.for !== ads)
          adapter.current = {
            for: ads,
            adapter: chooseAdAdapter(ads, {
              present: (standInKind) => new Promise<StandInOutcome>((resolve) => setStandIn({ kind: standInKind, end: resolve })),
              google: () => ({ document, window: window as { adsbygoogle?: unknown[] }, consent: consent.get, muted: () => state.current.muted, nonce }),
            }),
          };
        const storage = sessionStorageOrNull();
        const history = readAdHistory(storage);
        const decision = adBreakDecision({
          kind: adKind,
          now: Date.now(),
          history,
          config: ads,
          boughtInGame: await boughtInGame(appId, state.current.isMember),
        });
        if (!decision.show) return { status: decision.status };
        const chosen = adapter.current.adapter;
        if (!chosen) return { status: 'no_ads' };
        const status = await chosen.show(adKind, hooks);
        writeAdHistory(storage, afterAdBreak(history, adKind, status, Date.now()));
        return { status };
      } finally {
        state.current.busy = false;
      }
    };

    const onMessage = (event: MessageEvent) => {
      if (!frame.current || event.source !== frame.current.contentWindow || event.origin !== frameOrigin) return;
      const now = performance.now();
      const signal = gameSignalOf(event.data);
      if (signal === 'happyTime') {
        if (now - state.current.lastHappy < HAPPY_EVERY_MS) return;
        state.current.lastHappy = now;
        setTalking(true);
        clearTimeout(happyTimer.current);
        happyTimer.current = setTimeout(() => setTalking(false), HAPPY_MS);
        return;
      }
      if (signal) return play.current?.[signal](now);
      if ((event.data as { type?: unknown } | null)?.type === loadedMessage) {
        play.current?.loadingStop(now);
        state.current.loaded = true;
        // The game's listeners are in place now: it hears its settings at once.
        postToGame(frame, frameOrigin, {
          type: 'playport:event',
          event: 'settings',
          data: { muted: state.current.muted || state.current.breakRunning, locale },
        });
        return;
      }
      const request = bridgeRequestOf(event.data);
      if (!request || !isExtraMethod(request.method)) return;
      switch (request.method) {
        case 'game.params':
          return answer(request.id, () => ({ params: paramsOfSearch(window.location.search) }));
        case 'game.inviteLink':
          return answer(request.id, () => {
            const checked = inviteParamsOf(request.params.params ?? {});
            if (!checked.ok) throw new BridgeRefusal('validation', checked.reason);
            return { url: inviteLink(window.location.origin + window.location.pathname, checked.params) };
          });
        case 'settings.get':
          return answer(request.id, () => ({ muted: state.current.muted || state.current.breakRunning, locale }));
        case 'ad.break':
          return answer(request.id, () => adBreak(request.params.kind));
      }
    };
    window.addEventListener('message', onMessage);
    return () => window.removeEventListener('message', onMessage);
  }, [frame, frameOrigin, appId, loadedMessage, locale, ads, nonce, t]);

  // The game hears of its settings whenever they change (an ad break mutes it for its length).
  useEffect(() => {
    // Before the game has loaded, its frame may still hold the empty document: it hears them when it loads.
    if (state.current.loaded) postToGame(frame, frameOrigin, { type: 'playport:event', event: 'settings', data: { muted: effectiveMuted, locale } });
    const chosen = adapter.current?.adapter;
    if (chosen && 'sound' in chosen) (chosen as { sound(on: boolean): void }).sound(!muted);
  }, [frame, frameOrigin, effectiveMuted, muted, locale]);

  useEffect(() => () => clearTimeout(happyTimer.current), []);

  return (
    <>
      {talking && (
        <div className="pointer-events-none absolute inset-x-0 top-3 flex justify-center motion-safe:animate-pop-in" data-testid="happy-time">
          <span className="rounded-full bg-green-600 px-4 py-1.5 text-sm font-semibold text-white shadow-lg">🎉 {t('sdk.happy')}</span>
        </div>
      )}
      <output className="sr-only">{talking ? t('sdk.happy') : ''}</output>
      {standIn && (
        <Suspense fallback={null}>
          <AdStandIn
            kind={standIn.kind}
            seconds={ads.standInSeconds}
            onEnd={(outcome) => {
              setStandIn(null);
              standIn.end(outcome);
            }}
          />
        </Suspense>
      )}
    </>
  );
}

function sessionStorageOrNull(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}

/** Whether a member owns something of this game (no ads for them, decision 093); guests cannot have bought anything. */
async function boughtInGame(appId: number, isMember: boolean): Promise<boolean> {
  if (!isMember) return false;
  try {
    const { data } = await api.get(`/game/config/${appId}`);
    return data.items.some((item) => item.owned);
  } catch {
    // Unknown: a paying player is not shown an ad by mistake.
    return true;
  }
}
