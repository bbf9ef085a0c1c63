import { type ReactNode, type RefObject, Suspense, useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from '../../i18n/translation.tsx';
import type { Order } from '#common/api/game-store.schema.ts';
import { useSessionValue } from '../accounts/use-session.ts';
import { deliverWaitingOrders, type PurchaseResult } from '../payments/orders.ts';
import { onIdle } from '../../lib/idle.ts';
import { onDemand } from '../../ui/deferred.tsx';
import { api } from '../../lib/api-client.ts';
import { session } from '../accounts/session.ts';
import { answerCall, type BridgeAnswer, bridgeError, bridgeRequestOf, checkPurchase } from './game-bridge.ts';
import { reportGameTraffic } from './game-traffic.ts';
import { answerRecordsCall, isRecordsMethod } from './records-bridge.ts';
import { isExtraMethod } from './game-extras.ts';

/**
 * The purchase dialog (with the sign-in it may ask for) loads for a game that sells something: once
 * it asks for its items (getConfig), when the page is quiet; not with the page, nor for every game.
 */
const { Component: PurchaseFlow, preload: preloadPurchaseFlow } = onDemand(async () => (await import('../payments/purchase-flow.tsx')).PurchaseFlow);
/** The sign-in dialog of `Playport.auth.prompt()`, loaded when a game asks for it. */
const { Component: AuthPrompt } = onDemand(async () => (await import('./auth-prompt.tsx')).AuthPrompt);

/** A new game token for the player now signed in: what `login()` answers. */
const gameLogin = async (appId: number) => (await api.post(`/game/login/${appId}`)).data;

/**
 * Connects the game in the play page's frame to the portal (sdk/v1/playport.js): answers its
 * calls, runs its purchases, and tells it of paid orders once. Returns what the page shows for a
 * purchase under way. `frameOrigin` is the origin of the frame's document (the game's own host,
 * or "null" for a copy rebuilt offline); `loaded` is true once the game said it is ready.
 */
export function useGameBridge(frame: RefObject<HTMLIFrameElement | null>, frameOrigin: string, appId: number, locale: string, loaded: boolean): ReactNode {
  const { t } = useTranslation('errors');
  // The player as a string: the page renders again when the player changes, not at each step of a sign-in.
  const player = useSessionValue(({ userInfo }) => (userInfo ? `${userInfo.uid}:${userInfo.isGuest ? 'guest' : 'member'}` : null));
  const isMember = player?.endsWith(':member') ?? false;
  const [purchase, setPurchase] = useState<{ id: number; sku: string } | null>(null);
  const [prompt, setPrompt] = useState<{ id: number } | null>(null);
  const purchasing = useRef(false);
  const prompting = useRef(false);

  const onDelivered = useCallback(
    (order: Order) => postToGame(frame, frameOrigin, { type: 'playport:event', event: 'purchase', data: { orderId: order.id, sku: order.sku } }),
    [frame, frameOrigin],
  );

  useEffect(() => {
    const onMessage = (event: MessageEvent) => {
      if (!frame.current || event.source !== frame.current.contentWindow || event.origin !== frameOrigin) return;
      const request = bridgeRequestOf(event.data);
      if (!request) return;
      reportGameTraffic('from-game', event.data);
      // SDK 1.1's game, settings and ad calls are answered by useGameExtras.
      if (isExtraMethod(request.method)) return;
      if (request.method === 'pay') {
        const sku = request.params.sku;
        const busy = purchasing.current || prompting.current;
        if (busy || typeof sku !== 'string') {
          postToGame(frame, frameOrigin, {
            type: 'playport:response',
            id: request.id,
            ok: false,
            error: { code: busy ? 'busy' : 'validation', message: t('generic') },
          });
          return;
        }
        purchasing.current = true;
        // An SKU the game does not sell, or a permanent item the player owns, is refused at once (SDK 1.1).
        checkPurchase(appId, sku, { notFound: t('sdk.itemNotFound', { sku }), alreadyOwned: (item) => t('sdk.alreadyOwned', { item }) }).then(
          () => setPurchase({ id: request.id, sku }),
          (failure: unknown) => {
            purchasing.current = false;
            postToGame(frame, frameOrigin, { type: 'playport:response', id: request.id, ok: false, error: bridgeError(failure, t('generic')) });
          },
        );
        return;
      }
      if (request.method === 'auth.prompt') {
        // A member is signed in already: the answer is the same as after a sign-in.
        if (session.snapshot().userInfo?.isGuest === false)
          gameLogin(appId).then(
            (login) => postToGame(frame, frameOrigin, { type: 'playport:response', id: request.id, ok: true, result: { status: 'signed_in', ...login } }),
            (failure: unknown) =>
              postToGame(frame, frameOrigin, { type: 'playport:response', id: request.id, ok: false, error: bridgeError(failure, t('generic')) }),
          );
        else if (prompting.current || purchasing.current)
          // One sign-in dialog at a time: a second ask while one (or a purchase) is open is refused.
          postToGame(frame, frameOrigin, { type: 'playport:response', id: request.id, ok: false, error: { code: 'busy', message: t('generic') } });
        else {
          prompting.current = true;
          setPrompt({ id: request.id });
        }
        return;
      }
      if (request.method === 'getConfig') onIdle(() => void preloadPurchaseFlow());
      const method = request.method;
      (isRecordsMethod(method)
        ? answerRecordsCall(appId, method, request.params)
        : answerCall(appId, locale, method, request.params, { badConsume: t('sdk.badConsume') })
      ).then(
        (result) => postToGame(frame, frameOrigin, { type: 'playport:response', id: request.id, ok: true, result }),
        (failure: unknown) =>
          postToGame(frame, frameOrigin, { type: 'playport:response', id: request.id, ok: false, error: bridgeError(failure, t('generic')) }),
      );
    };
    window.addEventListener('message', onMessage);
    return () => window.removeEventListener('message', onMessage);
  }, [appId, locale, frame, frameOrigin, t]);

  // The player changed while the game runs (a sign-in here, in the purchase dialog or in another
  // tab, a sign-out, a guest who became a member): the game gets the new player and a new token.
  const lastPlayer = useRef<string | null>(null);
  useEffect(() => {
    if (!loaded) return;
    // Signed out: the game goes on as a new guest, whose token the change event then carries.
    if (player === null) {
      if (lastPlayer.current !== null) void session.signInAnonymously().catch(() => undefined);
      return;
    }
    const before = lastPlayer.current;
    lastPlayer.current = player;
    if (before === null || before === player) return;
    let current = true;
    gameLogin(appId).then(
      (login) => current && postToGame(frame, frameOrigin, { type: 'playport:event', event: 'auth', data: login }),
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [loaded, player, appId, frame, frameOrigin]);

  // Orders paid while the game was closed reach it when it starts.
  useEffect(() => {
    if (loaded && isMember) void deliverWaitingOrders(appId, onDelivered).catch(() => undefined);
  }, [loaded, isMember, appId, onDelivered]);

  const promptView = prompt && (
    <Suspense fallback={null}>
      <AuthPrompt
        key={prompt.id}
        onDone={() => {
          prompting.current = false;
          setPrompt(null);
          gameLogin(appId).then(
            (login) => postToGame(frame, frameOrigin, { type: 'playport:response', id: prompt.id, ok: true, result: { status: 'signed_in', ...login } }),
            (failure: unknown) =>
              postToGame(frame, frameOrigin, { type: 'playport:response', id: prompt.id, ok: false, error: bridgeError(failure, t('generic')) }),
          );
          frame.current?.focus();
        }}
        onCancel={() => {
          prompting.current = false;
          setPrompt(null);
          postToGame(frame, frameOrigin, { type: 'playport:response', id: prompt.id, ok: true, result: { status: 'cancelled' } });
          frame.current?.focus();
        }}
      />
    </Suspense>
  );
  if (!purchase) return promptView;
  const answer = (response: Pick<BridgeAnswer, 'ok' | 'result' | 'error'>) => {
    postToGame(frame, frameOrigin, { type: 'playport:response', id: purchase.id, ...response });
    purchasing.current = false;
    setPurchase(null);
    frame.current?.focus();
  };
  const end = (result: PurchaseResult) => answer({ ok: true, result });
  const refuse = (failure: unknown) => answer({ ok: false, error: bridgeError(failure, t('generic')) });
  return (
    <Suspense fallback={null}>
      {promptView}
      <PurchaseFlow key={purchase.id} appId={appId} sku={purchase.sku} onEnd={end} onRefused={refuse} onDelivered={onDelivered} />
    </Suspense>
  );
}

/** Posts to the game's frame, addressed to its origin; a copy rebuilt offline has an opaque one, so its window is addressed directly. */
export function postToGame(
  frame: RefObject<HTMLIFrameElement | null>,
  frameOrigin: string,
  message: BridgeAnswer | { type: 'playport:event'; event: string; data: unknown },
): void {
  frame.current?.contentWindow?.postMessage(message, frameOrigin === 'null' ? '*' : frameOrigin);
  reportGameTraffic('to-game', message);
}
