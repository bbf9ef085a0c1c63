import { ArrowLeft, LoaderCircle, Maximize, Minimize, Smartphone, X } from 'lucide-react';
import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { useTranslation } from '../i18n/translation.tsx';
import { Link } from 'react-router';
import type { GameConfig } from '#common/api/catalogue.schema.ts';
import { type Locale, localePath } from '#common/locales.ts';
import { isValidSlug } from '#common/route-rules.ts';
import { appContext } from '../context.ts';
import { useSession } from '../features/accounts/use-session.ts';
import { useGameBridge } from '../features/games/use-game-bridge.tsx';
import { keepGameForOffline, offlineGameDocument } from '../features/install/offline-game.ts';
import { loaderT } from '../i18n/loader-t.ts';
import { onIdle } from '../lib/idle.ts';
import { api } from '../lib/api-client.ts';
import { pageTitle } from '../lib/meta.ts';
import { invalidParameter, orPageNotFound } from '../lib/route-errors.ts';
import { track } from '../lib/track.ts';
import { Button } from '../ui/button.tsx';
import { cn } from '../ui/cn.ts';
import { focusRing } from '../ui/focus.ts';
import { trackPageView } from '../middleware/tracking.ts';
import type { Route } from './+types/play';
import { spaceBetweenScripts } from '#common/i18n/script-spacing.ts';

/** After the frame's load event, how long a game may take to say it is ready before the spinner gives way anyway. */
const READY_GRACE_MS = 4000;
/** When to say that loading takes longer than usual. */
const SLOW_MS = 10_000;


/** The named tracking middleware (spec section 2). */
export const clientMiddleware: Route.ClientMiddlewareFunction[] = [trackPageView];
export async function loader({ request, params, context }: Route.LoaderArgs) {
  if (!isValidSlug(params.slug)) invalidParameter(request);
  const { locale, t } = loaderT(request);
  const { services } = context.get(appContext);
  const game = await orPageNotFound(request, services.catalogue.gameConfig(locale, { slug: params.slug }));
  const title = spaceBetweenScripts(t('catalogue:play.title', { title: game.title }));
  return { locale, game, title, description: spaceBetweenScripts(t('catalogue:play.description', { title: game.title })) };
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) => [
  pageTitle(matches, loaderData?.title ?? ''),
  { name: 'description', content: loaderData?.description ?? '' },
  // The game page is a frame around the app page's content: let search engines index that one.
  { name: 'robots', content: 'noindex' },
];

export default function PlayPage({ loaderData }: Route.ComponentProps) {
  // Keyed: another game starts with a fresh frame and fresh state.
  return <GameScreen key={loaderData.game.slug} locale={loaderData.locale} game={loaderData.game} />;
}

function GameScreen({ locale, game }: { locale: Locale; game: GameConfig }) {
  const { t } = useTranslation('catalogue');
  const frame = useRef<HTMLIFrameElement>(null);
  const stage = useRef<HTMLDivElement>(null);
  const [ready, setReady] = useState(false);
  const [slow, setSlow] = useState(false);
  const fullscreen = useFullscreen(stage, game.orientation);
  const hint = useOrientationHint(game.orientation);
  usePlayRecord(game.appId);
  const purchase = useGameBridge(frame, game.appId, locale, ready);

  // The frame gets its address only once the listener is in place (after hydration), so the
  // game's "loaded" message cannot be missed.
  useEffect(() => {
    let reported = false;
    const onMessage = (event: MessageEvent) => {
      if (event.source !== frame.current?.contentWindow) return;
      const data = event.data as { type?: unknown; name?: unknown } | null;
      if (typeof data !== 'object' || data === null || data.type !== game.sdk.loadedMessage || reported) return;
      reported = true;
      setReady(true);
      track('game-loaded', { name: typeof data.name === 'string' && data.name.length <= 100 ? data.name : game.slug });
      frame.current?.focus();
    };
    window.addEventListener('message', onMessage);
    // Offline, a game kept on this device is rebuilt from the worker's cache (decision 065).
    if (navigator.onLine) frame.current?.setAttribute('src', game.url);
    else
      void offlineGameDocument(game.url).then((document) => {
        if (document === null) frame.current?.setAttribute('src', game.url);
        else frame.current?.setAttribute('srcdoc', document);
      });
    const slowTimer = setTimeout(() => setSlow(true), SLOW_MS);
    return () => {
      window.removeEventListener('message', onMessage);
      clearTimeout(slowTimer);
    };
  }, [game]);

  // Once the game is up, its files are kept for playing offline.
  useEffect(() => {
    if (ready && navigator.onLine) onIdle(() => void keepGameForOffline(game.url));
  }, [ready, game.url]);

  const onFrameLoad = () => {
    // The empty frame of the first render loads too; only the game's own load counts.
    if (!frame.current?.getAttribute('src') && !frame.current?.getAttribute('srcdoc')) return;
    // A game without the loaded message still becomes visible.
    setTimeout(() => setReady(true), READY_GRACE_MS);
  };

  const back = localePath(locale, `/app/${game.slug}`);
  return (
    <div className="flex h-dvh flex-col bg-zinc-100 dark:bg-zinc-950" data-testid="play-page">
      <div className="flex h-12 shrink-0 items-center gap-2 border-b border-zinc-200 bg-white px-2 dark:border-zinc-800 dark:bg-zinc-900">
        <Link
          to={back}
          className={cn('inline-flex h-9 items-center gap-1.5 rounded-lg px-2 text-sm font-medium text-zinc-700 hover:bg-zinc-100 dark:text-zinc-200 dark:hover:bg-zinc-800', focusRing)}
          aria-label={t('play.backTo', { title: game.title })}
          data-testid="play-back"
        >
          <ArrowLeft className="size-4" aria-hidden="true" />
          <span className="hidden xs:inline">{t('play.back')}</span>
        </Link>
        <h1 className="min-w-0 flex-1 truncate text-sm font-semibold">{game.title}</h1>
        {fullscreen.supported && (
          <Button variant="ghost" size="icon-sm" onClick={fullscreen.toggle} aria-label={t(fullscreen.active ? 'play.exitFullscreen' : 'play.fullscreen')} title={t(fullscreen.active ? 'play.exitFullscreen' : 'play.fullscreen')}>
            {fullscreen.active ? <Minimize /> : <Maximize />}
          </Button>
        )}
      </div>
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
              <LoaderCircle className="size-8 animate-spin text-green-600 motion-reduce:animate-none" aria-hidden="true" />
              <span className="text-sm text-zinc-700 dark:text-zinc-300">{t('play.loading', { title: game.title })}</span>
              {slow && <span className="max-w-xs text-sm text-zinc-500 dark:text-zinc-400">{t('play.slow')}</span>}
            </output>
          </div>
        )}
        {hint && (
          <div className="absolute inset-x-2 bottom-2 flex items-center gap-3 rounded-xl bg-zinc-900/90 p-3 text-sm text-white shadow-lg" role="note" data-testid="orientation-hint">
            <Smartphone className={cn('size-5 shrink-0', hint.want === 'landscape' && 'rotate-90')} aria-hidden="true" />
            <p className="flex-1">{t(hint.want === 'landscape' ? 'play.rotateLandscape' : 'play.rotatePortrait')}</p>
            <button type="button" onClick={hint.dismiss} className={cn('grid size-8 place-items-center rounded-lg hover:bg-white/10', focusRing)} aria-label={t('play.dismiss')}>
              <X className="size-4" aria-hidden="true" />
            </button>
          </div>
        )}
      </div>
      {purchase}
    </div>
  );
}

/** Full screen for the game's stage (not the whole page), with the orientation locked where the device allows it. */
function useFullscreen(stage: React.RefObject<HTMLDivElement | null>, orientation: GameConfig['orientation']) {
  // Known only in the browser: the server's answer (no) is what hydration renders, then the real one.
  const supported = useSyncExternalStore(noSubscription, () => document.fullscreenEnabled, () => false);
  const active = useSyncExternalStore(
    (onChange) => {
      document.addEventListener('fullscreenchange', onChange);
      return () => document.removeEventListener('fullscreenchange', onChange);
    },
    () => document.fullscreenElement !== null && document.fullscreenElement === stage.current,
    () => false,
  );
  const toggle = async () => {
    try {
      if (document.fullscreenElement) {
        await document.exitFullscreen();
        return;
      }
      await stage.current?.requestFullscreen({ navigationUI: 'hide' });
      // Only phones in full screen accept a lock, and not all of them: a refusal changes nothing.
      const lock = (screen.orientation as ScreenOrientation & { lock?: (o: string) => Promise<void> }).lock;
      if (orientation !== 'any' && lock) await lock.call(screen.orientation, orientation).catch(() => undefined);
    } catch {
      // Refused (no user gesture, or the browser does not allow it): the game keeps playing as it is.
    }
  };
  return { supported, active, toggle: () => void toggle() };
}

function noSubscription() {
  return () => undefined;
}

/** Whether a media query matches; false on the server and during hydration. */
function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (onChange) => {
      const list = window.matchMedia(query);
      list.addEventListener('change', onChange);
      return () => list.removeEventListener('change', onChange);
    },
    () => window.matchMedia(query).matches,
    () => false,
  );
}

/** On a touch device held the other way than the game wants, a hint to turn it; dismissed for the visit. */
function useOrientationHint(want: GameConfig['orientation']) {
  const touch = useMediaQuery('(pointer: coarse)');
  const portrait = useMediaQuery('(orientation: portrait)');
  const [dismissed, setDismissed] = useState(false);
  const mismatch = want !== 'any' && touch && portrait !== (want === 'portrait');
  return mismatch && !dismissed ? { want, dismiss: () => setDismissed(true) } : null;
}

/** Records one play for the session's account (guests included) when the page opens. */
function usePlayRecord(appId: number) {
  const { token } = useSession();
  const recorded = useRef<string | null>(null);
  useEffect(() => {
    const key = `${token}/${appId}`;
    if (!token || recorded.current === key) return;
    recorded.current = key;
    api.post('/member/played/', { app_id: appId }).catch(() => {
      // Not being counted must not disturb the game.
    });
  }, [token, appId]);
}
