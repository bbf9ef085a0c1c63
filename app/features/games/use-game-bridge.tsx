import { type ReactNode, type RefObject, Suspense, useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from '../../i18n/translation.tsx';
import type { Order } from '#common/api/game-store.schema.ts';
import { useSession } from '../accounts/use-session.ts';
import { deliverWaitingOrders, type PurchaseResult } from '../payments/orders.ts';
import { onIdle } from '../../lib/idle.ts';
import { onDemand } from '../../ui/deferred.tsx';
import { answerCall, type BridgeAnswer, bridgeError, bridgeRequestOf } from './game-bridge.ts';
import { isExtraMethod } from './game-extras.ts';

/**
 * The purchase dialog (with the sign-in it may ask for) loads for a game that sells something: once
 * it asks for its items (getConfig), when the page is quiet; not with the page, nor for every game.
 */
const { Component: PurchaseFlow, preload: preloadPurchaseFlow } = onDemand(async () => (await import('../payments/purchase-flow.tsx')).PurchaseFlow);

/**
 * Connects the game in the play page's frame to the portal (sdk/v1/playport.js): answers its
 * calls, runs its purchases, and tells it of paid orders once. Returns what the page shows for a
 * purchase under way. `frameOrigin` is the origin of the frame's document (the game's own host,
 * or "null" for a copy rebuilt offline); `loaded` is true once the game said it is ready.
 */
export function useGameBridge(frame: RefObject<HTMLIFrameElement | null>, frameOrigin: string, appId: number, locale: string, loaded: boolean): ReactNode {
  const { t } = useTranslation('errors');
  const { isMember } = useSession();
  const [purchase, setPurchase] = useState<{ id: number; sku: string } | null>(null);
  const purchasing = useRef(false);

  const onDelivered = useCallback(
    (order: Order) => postToGame(frame, frameOrigin, { type: 'playport:event', event: 'purchase', data: { orderId: order.id, sku: order.sku } }),
    [frame, frameOrigin],
  );

  useEffect(() => {
    const onMessage = (event: MessageEvent) => {
      if (!frame.current || event.source !== frame.current.contentWindow || event.origin !== frameOrigin) return;
      const request = bridgeRequestOf(event.data);
      // SDK 1.1's game, settings and ad calls are answered by useGameExtras.
      if (!request || isExtraMethod(request.method)) return;
      if (request.method === 'pay') {
        const sku = request.params.sku;
        if (purchasing.current || typeof sku !== 'string') {
          postToGame(frame, frameOrigin, {
            type: 'playport:response',
            id: request.id,
            ok: false,
            error: { code: purchasing.current ? 'busy' : 'validation', message: t('generic') },
          });
          return;
        }
        purchasing.current = true;
        setPurchase({ id: request.id, sku });
        return;
      }
      if (request.method === 'getConfig') onIdle(() => void preloadPurchaseFlow());
      answerCall(appId, locale, request.method, request.params).then(
        (result) => postToGame(frame, frameOrigin, { type: 'playport:response', id: request.id, ok: true, result }),
        (failure: unknown) =>
          postToGame(frame, frameOrigin, { type: 'playport:response', id: request.id, ok: false, error: bridgeError(failure, t('generic')) }),
      );
    };
    window.addEventListener('message', onMessage);
    return () => window.removeEventListener('message', onMessage);
  }, [appId, locale, frame, frameOrigin, t]);

  // Orders paid while the game was closed reach it when it starts.
  useEffect(() => {
    if (loaded && isMember) void deliverWaitingOrders(appId, onDelivered).catch(() => undefined);
  }, [loaded, isMember, appId, onDelivered]);

  if (!purchase) return null;
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
}
