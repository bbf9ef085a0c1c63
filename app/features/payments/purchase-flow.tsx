import { LoaderCircle } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from '../../i18n/translation.tsx';
import type { Order } from '#common/api/game-store.schema.ts';
import { api, ApiError } from '../../lib/api-client.ts';
import { Button } from '../../ui/button.tsx';
import { DialogPanel } from '../../ui/dialog.tsx';
import { focusFirstError, messageOf } from '../../ui/form-errors.ts';
import { FormAlert } from '../../ui/form-field.tsx';
import { LoginList } from '../accounts/login-list.tsx';
import { useSession } from '../accounts/use-session.ts';
import { toast } from '../../shell/toast-store.ts';
import { deliverOrder, type PurchaseResult } from './orders.ts';

/** How often the page asks how the order stands while the checkout is open. */
const POLL_MS = 2000;

function newIdempotencyKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

type Stage =
  | { name: 'secure' }
  | { name: 'working' }
  | { name: 'blocked'; url: string; orderId: string }
  | { name: 'waiting'; orderId: string }
  | { name: 'failed'; message: string; failure: unknown };

/**
 * A purchase the game asked for with `Playport.pay({ sku })` (decision 064). A guest secures the
 * account first (a purchase must not be lost with a browser), then the order is made at the
 * server's price and the provider's checkout opens in its own window; the page waits for the
 * order to be paid, hands it to the game once, and tells the game how it ended. A purchase that
 * cannot be made (a guest who does not secure the account, an item no longer sold) is refused with
 * the API's error, so the game learns why (decision 085).
 */
export function PurchaseFlow({
  appId,
  sku,
  onEnd,
  onRefused,
  onDelivered,
}: {
  appId: number;
  sku: string;
  onEnd: (result: PurchaseResult) => void;
  onRefused: (failure: unknown) => void;
  onDelivered: (order: Order) => void;
}) {
  const { t } = useTranslation('payments');
  const { isMember } = useSession();
  const [stage, setStage] = useState<Stage>(isMember ? { name: 'working' } : { name: 'secure' });
  const ended = useRef(false);
  const checkoutWindow = useRef<Window | null>(null);
  const idempotencyKey = useRef(newIdempotencyKey());
  // A failed order takes focus to its message, not to the dialog's frame (decision 121).
  const failureRef = useRef<HTMLDivElement>(null);
  useEffect(() => (stage.name === 'failed' ? focusFirstError(failureRef.current) : undefined), [stage.name]);

  /** Ends the purchase once: the game learns how, and the player is told by one toast (decision 118). */
  const end = (result: Omit<PurchaseResult, 'sku'>, itemName?: string) => {
    if (ended.current) return;
    ended.current = true;
    checkoutWindow.current = null;
    if (result.status === 'paid') toast.add({ title: t('buy.paid', { item: itemName ?? sku }), color: 'success' });
    else if (result.status === 'declined') toast.add({ title: t('buy.declined'), color: 'error' });
    else toast.add({ title: t('buy.cancelled'), color: 'neutral' });
    onEnd({ ...result, sku });
  };
  const refuse = (failure: unknown) => {
    if (ended.current) return;
    ended.current = true;
    onRefused(failure);
  };
  // The poll reports through the latest callbacks without restarting when they change.
  const report = useRef({ end, refuse, onDelivered });
  useEffect(() => {
    report.current = { end, refuse, onDelivered };
  });

  // Make the order and open its checkout once the buyer is a member.
  useEffect(() => {
    if (stage.name !== 'working') return;
    let active = true;
    (async () => {
      try {
        const { data: order } = await api.post(`/game/pay/${appId}`, { sku, idempotencyKey: idempotencyKey.current });
        const { data: checkout } = await api.post('/payment/xsolla/create/', { order_id: order.id });
        if (!active) return;
        checkoutWindow.current = window.open(checkout.url, 'playport-checkout', 'popup=yes,width=480,height=720');
        setStage(checkoutWindow.current ? { name: 'waiting', orderId: order.id } : { name: 'blocked', url: checkout.url, orderId: order.id });
      } catch (failure) {
        if (!active) return;
        // The server had the buyer as a guest: secure the account, then go on.
        if (failure instanceof ApiError && failure.errorCode === 'account_not_secured') setStage({ name: 'secure' });
        // Nothing to buy (an item the account signed in to owns, or one no longer sold): the game learns it at once.
        else if (failure instanceof ApiError && (failure.errorCode === 'already_owned' || failure.errorCode === 'not_found')) report.current.refuse(failure);
        else setStage({ name: 'failed', message: messageOf(failure, t('buy.failed')), failure });
      }
    })();
    return () => {
      active = false;
    };
  }, [stage.name, appId, sku, t]);

  // While the checkout is open: how does the order stand? Paid ends it; a declined card ends it
  // at once (the order is failed for good, so asking again is pointless: decision 118); a closed
  // window ends it as it stands.
  useEffect(() => {
    if (stage.name !== 'waiting') return;
    const { orderId } = stage;
    let stopped = false;
    let timer: ReturnType<typeof setInterval> | undefined;
    const stop = () => {
      stopped = true;
      clearInterval(timer);
    };
    const check = async () => {
      const closed = checkoutWindow.current?.closed ?? true;
      try {
        const { data: order } = await api.get(`/game/orders/${encodeURIComponent(orderId)}`);
        if (stopped) return;
        if (order.status === 'paid') {
          const delivered = await deliverOrder(order.id, report.current.onDelivered);
          stop();
          checkoutWindow.current?.close();
          report.current.end({ status: 'paid', orderId: order.id }, delivered.itemName);
        } else if (order.status === 'failed') {
          stop();
          // Another card is tried with a new order: the game's buy button asks again.
          checkoutWindow.current?.close();
          report.current.end({ status: 'declined', orderId: order.id });
        } else if (closed) {
          stop();
          report.current.end({ status: 'cancelled', orderId: order.id });
        }
      } catch {
        // A failed check is tried again at the next tick.
      }
    };
    timer = setInterval(() => void check(), POLL_MS);
    return stop;
  }, [stage]);

  const openHere = () => {
    if (stage.name !== 'blocked') return;
    checkoutWindow.current = window.open(stage.url, 'playport-checkout', 'popup=yes,width=480,height=720');
    if (checkoutWindow.current) setStage({ name: 'waiting', orderId: stage.orderId });
  };

  const cancel = () => {
    checkoutWindow.current?.close();
    if (stage.name === 'secure') refuse(new ApiError(403, t('errors.secureAccount'), null, { errorCode: 'account_not_secured' }));
    else if (stage.name === 'failed') refuse(stage.failure);
    else end({ status: 'cancelled', orderId: 'orderId' in stage ? stage.orderId : null });
  };

  if (stage.name === 'secure') {
    return (
      <DialogPanel
        open
        onOpenChange={(open) => !open && cancel()}
        title={t('buy.secureTitle')}
        description={t('buy.secureBody')}
        closeLabel={t('orders.close')}
        testId="purchase-secure"
      >
        <LoginList initialMode="create" onDone={() => setStage({ name: 'working' })} />
      </DialogPanel>
    );
  }
  return (
    <DialogPanel
      open
      onOpenChange={(open) => !open && cancel()}
      title={t('buy.waiting')}
      description={stage.name === 'blocked' ? t('buy.checkoutBlocked') : t('buy.checkoutOpened')}
      closeLabel={t('orders.close')}
      testId="purchase-dialog"
    >
      {stage.name === 'failed' ? (
        <div ref={failureRef}>
          <FormAlert message={stage.message} />
        </div>
      ) : stage.name === 'blocked' ? (
        <Button className="w-full" onClick={openHere} data-testid="purchase-open-checkout">
          {t('buy.openCheckout')}
        </Button>
      ) : (
        // The title says what is awaited; the spinner only shows that it goes on.
        <output className="flex items-center justify-center" data-testid="purchase-waiting">
          <LoaderCircle className="size-6 animate-spin text-green-600 motion-reduce:animate-none" aria-hidden />
        </output>
      )}
    </DialogPanel>
  );
}
