import { ArrowLeft, LoaderCircle, Maximize, Minimize, Smartphone, Volume2, VolumeX, X } from 'lucide-react';
import { memo, type RefObject, useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { Link } from 'react-router';
import type { AdsConfig } from '#common/ads.ts';
import type { GameConfig } from '#common/api/catalogue.schema.ts';
import { type Locale, localePath } from '#common/locales.ts';
import { useTranslation } from '../../i18n/translation.tsx';
import { Button } from '../../ui/button.tsx';
import { cn } from '../../ui/cn.ts';
import { focusRing } from '../../ui/focus.ts';
import { useFullscreen } from './use-fullscreen.ts';
import { useGameBridge } from './use-game-bridge.tsx';
import { bridgeRequestOf } from './game-bridge.ts';
import { reportGameTraffic } from './game-traffic.ts';
import { keepGameForOffline, keepMyAreaForOffline, offlineGameDocument } from '../install/offline-game.ts';
import { session } from '../accounts/session.ts';
import { onIdle } from '../../lib/idle.ts';
import { track } from '../../lib/track.ts';
import { loadedGameName, loadingProgressOf, READY_GRACE_MS, SLOW_MS } from './game-loading.ts';
import { useOrientationHint } from './use-orientation-hint.ts';
import { usePlayRecord } from './use-play-record.ts';
import { mutedStore } from './game-extras.ts';
import { useGameExtras } from './use-game-extras.tsx';

/**
 * The play page's screen: a bar back to the app's page, the game in its sandboxed frame, and what the game asks of the portal.
 * Each value that changes while the game starts (the guest's sign-in, what the browser can do, the
 * game's loading) is read by the small part that shows it: React renders those parts again
 * synchronously, and a whole screen rendered at each step competed with the game's start (decision 106).
 */
export function GameScreen({
  locale,
  game,
  ads,
  recordPlay = true,
  back,
}: {
  locale: Locale;
  game: GameConfig;
  ads: AdsConfig;
  /** Whether opening the game counts as a play of it (not in a build's preview, decision 119). */
  recordPlay?: boolean;
  /** Where the bar's Back leads, and its accessible name: the app's page unless given (a preview's goes to the Studio, decision 119). */
  back?: { to: string; label: string };
}) {
  const { t } = useTranslation('games');
  const frame = useRef<HTMLIFrameElement>(null);
  const stage = useRef<HTMLDivElement>(null);
  const [ready, setReady] = useState(false);
  const [slow, setSlow] = useState(false);
  // What a large game reported of its loading (SDK `loading.progress`), 0 to 1; null until it does.
  const [progress, setProgress] = useState<number | null>(null);
  const progressNow = useRef<number | null>(null);
  useEffect(() => {
    progressNow.current = progress;
  }, [progress]);
  // The origin of the document in the frame: the game's own, or "null" for a copy rebuilt offline.
  // (The page keys this screen by game, so the state starts afresh for another game.)
  const [offlineCopyShown, setOfflineCopyShown] = useState(false);
  const frameOrigin = offlineCopyShown ? 'null' : new URL(game.url, 'http://invalid').origin;

  // The frame gets its address only once the listener is in place (after hydration), so the
  // game's "loaded" message cannot be missed.
  useEffect(() => {
    let reported = false;
    const onMessage = (event: MessageEvent) => {
      if (event.source !== frame.current?.contentWindow || event.origin !== origin) return;
      // Requests are reported by the bridge, before it answers them.
      if (!bridgeRequestOf(event.data)) reportGameTraffic('from-game', event.data);
      const reportedProgress = loadingProgressOf(event.data);
      if (reportedProgress !== null) return setProgress(reportedProgress);
      const name = loadedGameName(event.data, game);
      if (name === null || reported) return;
      reported = true;
      setReady(true);
      track('game-loaded', { name });
      // Keys go to the game at once; focusing a frame of another process is a task of its own.
      setTimeout(() => frame.current?.focus());
    };
    let origin = new URL(game.url, window.location.href).origin;
    window.addEventListener('message', onMessage);
    // Offline, a game kept on this device is rebuilt from the worker's cache (decision 065), in a
    // frame without allow-same-origin: the copy's document would otherwise have the portal's origin.
    const copy = game.offlineCopy;
    // The frame's navigation (a process of its own for the game's site) starts in a task of its
    // own, not in the one that runs the hydrated page's effects.
    let startTimer: ReturnType<typeof setTimeout> | undefined;
    if (navigator.onLine || !copy) startTimer = setTimeout(() => frame.current?.setAttribute('src', game.url));
    else
      void offlineGameDocument(copy.url).then((document) => {
        if (document === null) return frame.current?.setAttribute('src', game.url);
        frame.current?.setAttribute('sandbox', copy.sandbox);
        origin = 'null';
        setOfflineCopyShown(true);
        frame.current?.setAttribute('srcdoc', document);
      });
    const slowTimer = setTimeout(() => setSlow(true), SLOW_MS);
    return () => {
      window.removeEventListener('message', onMessage);
      clearTimeout(startTimer);
      clearTimeout(slowTimer);
    };
  }, [game]);

  // Once the game is up, its files are kept for playing offline, and My area, which lists it, too.
  useEffect(() => {
    const copy = game.offlineCopy;
    if (!ready || !navigator.onLine || !copy) return;
    onIdle(() => void keepGameForOffline(copy.url).then(() => (session.storedToken() ? keepMyAreaForOffline(locale) : undefined)));
  }, [ready, game.offlineCopy, locale]);

  const onFrameLoad = () => {
    // The empty frame of the first render loads too; only the game's own load counts.
    if (!frame.current?.getAttribute('src') && !frame.current?.getAttribute('srcdoc')) return;
    // A game without the loaded message still becomes visible; one that reports its loading
    // progress is still loading until it reaches the end, however long a large build takes.
    const grace = () => {
      if (progressNow.current !== null && progressNow.current < 1) setTimeout(grace, READY_GRACE_MS);
      else setReady(true);
    };
    setTimeout(grace, READY_GRACE_MS);
  };

  return (
    <div className="flex h-dvh flex-col bg-zinc-100 dark:bg-zinc-950" data-testid="play-page">
      <GameBar locale={locale} game={game} stage={stage} back={back} />
      <div ref={stage} className="relative min-h-0 flex-1 bg-zinc-100 dark:bg-zinc-950">
        <iframe
          ref={frame}
          title={t('play.frameTitle', { title: game.title })}
          sandbox={game.sandbox}
          allow={game.allow}
          referrerPolicy="no-referrer"
          onLoad={onFrameLoad}
          className={cn('absolute inset-0 size-full border-0 transition-opacity duration-200', ready ? 'opacity-100' : 'opacity-0')}
          data-testid="game-frame"
        />
        {!ready && (
          <div className="absolute inset-0 grid place-items-center p-6 text-center" data-testid="game-loading">
            <output className="flex flex-col items-center gap-3">
              <LoaderCircle className="size-8 animate-[spin_1s_steps(8)_infinite] text-green-600 motion-reduce:animate-none" aria-hidden="true" />
              <span className="text-sm text-zinc-700 dark:text-zinc-300">{t('play.loading', { title: game.title })}</span>
              {progress !== null && (
                <span className="flex w-48 flex-col items-center gap-1">
                  <progress
                    max={100}
                    value={Math.round(progress * 100)}
                    aria-label={t('play.loading', { title: game.title })}
                    className="h-1.5 w-full appearance-none overflow-hidden rounded-full bg-zinc-200 dark:bg-zinc-800 [&::-moz-progress-bar]:bg-green-600 [&::-webkit-progress-bar]:bg-zinc-200 dark:[&::-webkit-progress-bar]:bg-zinc-800 [&::-webkit-progress-value]:bg-green-600"
                    data-testid="game-progress"
                  />
                  <span className="text-xs tabular-nums text-zinc-500 dark:text-zinc-400">{t('play.progress', { percent: Math.round(progress * 100) })}</span>
                </span>
              )}
              {slow && <span className="max-w-xs text-sm text-zinc-500 dark:text-zinc-400">{t('play.slow')}</span>}
            </output>
          </div>
        )}
        <OrientationHint want={game.orientation} />
        {/* SDK 1.1 (decision 093): the player's sound choice, statistics, invite links, ad breaks. */}
        <GameExtras frame={frame} frameOrigin={frameOrigin} appId={game.appId} loadedMessage={game.sdk.loadedMessage} locale={locale} ads={ads} />
      </div>
      <GameBridge frame={frame} frameOrigin={frameOrigin} appId={game.appId} locale={locale} loaded={ready} />
      {recordPlay && <PlayRecord appId={game.appId} />}
    </div>
  );
}

/** The bar above the game: back to the app's page, the title, sound and full screen. */
const GameBar = memo(function GameBar({
  locale,
  game,
  stage,
  back: given,
}: {
  locale: Locale;
  game: GameConfig;
  stage: RefObject<HTMLDivElement | null>;
  back: { to: string; label: string } | undefined;
}) {
  const { t } = useTranslation('games');
  const muted = useSyncExternalStore(mutedStore.subscribe, mutedStore.get, () => false);
  const fullscreen = useFullscreen(stage, game.orientation);
  const back = given ?? { to: localePath(locale, `/app/${game.slug}`), label: t('play.backTo', { title: game.title }) };
  return (
    <div className="flex h-12 shrink-0 items-center gap-2 border-b border-zinc-200 bg-white px-2 dark:border-zinc-800 dark:bg-zinc-900">
      {/* Not discovered ahead (React Router fetches and re-ranks the route manifest for it): on this
          page that work would compete with the game's start; leaving discovers it then. */}
      <Link
        to={back.to}
        discover="none"
        className={cn(
          'inline-flex h-9 items-center gap-1.5 rounded-lg px-2 text-sm font-medium text-zinc-700 hover:bg-zinc-100 dark:text-zinc-200 dark:hover:bg-zinc-800',
          focusRing,
        )}
        aria-label={back.label}
        data-testid="play-back"
      >
        <ArrowLeft className="size-4" aria-hidden="true" />
        <span className="hidden xs:inline">{t('play.back')}</span>
      </Link>
      <h1 className="min-w-0 flex-1 truncate text-sm font-semibold">{game.title}</h1>
      <Button
        variant="ghost"
        size="icon-sm"
        onClick={() => mutedStore.set(!muted)}
        aria-pressed={muted}
        aria-label={t('sdk.mute')}
        title={t('sdk.mute')}
        data-testid="play-mute"
      >
        {muted ? <VolumeX /> : <Volume2 />}
      </Button>
      {fullscreen.supported && (
        <Button
          variant="ghost"
          size="icon-sm"
          onClick={fullscreen.toggle}
          aria-label={t(fullscreen.active ? 'play.exitFullscreen' : 'play.fullscreen')}
          title={t(fullscreen.active ? 'play.exitFullscreen' : 'play.fullscreen')}
        >
          {fullscreen.active ? <Minimize /> : <Maximize />}
        </Button>
      )}
    </div>
  );
});

/** On a touch device held the other way than the game wants, a hint to turn it. */
const OrientationHint = memo(function OrientationHint({ want }: { want: GameConfig['orientation'] }) {
  const { t } = useTranslation('games');
  const hint = useOrientationHint(want);
  return (
    hint && (
      <div
        className="absolute inset-x-2 bottom-2 flex items-center gap-3 rounded-xl bg-zinc-900/90 p-3 text-sm text-white shadow-lg"
        role="note"
        data-testid="orientation-hint"
      >
        <Smartphone className={cn('size-5 shrink-0', hint.want === 'landscape' && 'rotate-90')} aria-hidden="true" />
        <p className="flex-1">{t(hint.want === 'landscape' ? 'play.rotateLandscape' : 'play.rotatePortrait')}</p>
        <button
          type="button"
          onClick={hint.dismiss}
          className={cn('grid size-8 place-items-center rounded-lg hover:bg-white/10', focusRing)}
          aria-label={t('play.dismiss')}
        >
          <X className="size-4" aria-hidden="true" />
        </button>
      </div>
    )
  );
});

/** The game's calls to the portal (sign-in, purchases, saves) and the dialogs they open. */
const GameBridge = memo(function GameBridge({
  frame,
  frameOrigin,
  appId,
  locale,
  loaded,
}: {
  frame: RefObject<HTMLIFrameElement | null>;
  frameOrigin: string;
  appId: number;
  locale: Locale;
  loaded: boolean;
}) {
  return useGameBridge(frame, frameOrigin, appId, locale, loaded);
});

/** SDK 1.1's statistics, settings, invites and ad breaks, with the player's sound choice. */
const GameExtras = memo(function GameExtras(options: Omit<Parameters<typeof useGameExtras>[0], 'muted'>) {
  const muted = useSyncExternalStore(mutedStore.subscribe, mutedStore.get, () => false);
  return useGameExtras({ ...options, muted });
});

/** One play recorded for the session's account, once it has one. */
const PlayRecord = memo(function PlayRecord({ appId }: { appId: number }) {
  usePlayRecord(appId);
  return null;
});
