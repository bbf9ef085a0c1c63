import { toMinorUnits } from '#common/money.ts';
import type { OrderStatus } from '#server/db/schema.ts';
import type { UnitOfWork } from '#server/db/unit-of-work.ts';
import type {
  NotificationRefusal,
  OrderChange,
  OrderEffect,
  PaymentNotifications,
  PaymentProvider,
  ProviderAnswer,
} from '#server/adapters/payments/payment-provider.ts';
import { type Clock, isoNow } from '#server/lib/clock.ts';
import type { Mode } from '#server/lib/preview-access.ts';
import type { LedgerService } from '../earnings/ledger.service.ts';
import type { WebhooksService } from '../webhooks/webhooks.service.ts';
import type { PaymentsDependencies, WebhookFaults } from './payments-dependencies.ts';
import type { OrderRow, PaymentsRepository } from './payments.repository.ts';

const paid = (current: OrderStatus): OrderStatus => (current === 'created' || current === 'pending' || current === 'failed' ? 'paid' : current);
const cancelled = (current: OrderStatus): OrderStatus => (current === 'paid' || current === 'refunded' ? 'refunded' : 'cancelled');
// A declined payment fails an unpaid order: the member sees it and may pay again. A paid order is not touched.
const declined = (current: OrderStatus): OrderStatus => (current === 'created' || current === 'pending' ? 'failed' : current);

/**
 * The status an order change leads to from the current one. Statuses move so that any order of
 * arrival ends the same: a payment after a refund leaves the order refunded; a refund before the
 * payment too. A partial refund leaves the purchase in place; the event records the amount.
 */
export const NEXT_STATUS: Record<OrderEffect, (current: OrderStatus) => OrderStatus> = {
  paid,
  refunded: () => 'refunded',
  'partially-refunded': (current) => current,
  cancelled,
  declined,
};

/** A state change to record: the event, and the status it leads to from the order's current one. */
export interface RecordedChange {
  type: string;
  /** Two notifications with the same key are the same one: the second changes nothing. */
  eventKey: string;
  next: (current: OrderStatus) => OrderStatus;
  payload: unknown;
  transactionId?: string | null;
  /** What a refund gives back (decision 124): `amount` in minor units, null for the rest of the order; the reason given. */
  refund?: { amount: number | null; reason: string | null; chargeback?: boolean } | null;
  /** The provider's fee and withheld taxes the notification states, in the order's minor units (decision 149). */
  deductions?: number | null;
}

/** A refund an applied change made: the minor units it gave back, why, when, and the consumables it took back. */
interface AppliedRefund {
  amount: number;
  reason: string | null;
  at: string;
  /** 1 when a full refund of a consumable took its unit back from the inventory, 0 when the player had used it. */
  itemsTakenBack: number;
  /** The order stays paid: part of its amount was given back. */
  partial: boolean;
}

/** A change as it was applied: its event, the status it left, the order as it now is, and the refund it made. */
export interface AppliedChange {
  eventId: number;
  from: OrderStatus;
  order: OrderRow;
  refund: AppliedRefund | null;
}

/**
 * An order's state changes (decision 064): the provider's notifications at the webhook, and the one
 * transaction every change runs in, with what a paid or refunded order credits or takes back.
 */
export class OrderChangesService {
  readonly #repository: PaymentsRepository;
  readonly #clock: Clock;
  readonly #provider: PaymentProvider | null;
  readonly #notifications: PaymentNotifications;
  readonly #faults: WebhookFaults;
  readonly #webhooks: Pick<WebhooksService, 'orderChanged' | 'itemsConsumed'> | null;
  readonly #ledger: Pick<LedgerService, 'orderChanged'> | null;

  constructor(deps: Pick<PaymentsDependencies, 'repository' | 'clock' | 'provider' | 'notifications' | 'faults' | 'webhooks' | 'ledger'>) {
    this.#repository = deps.repository;
    this.#clock = deps.clock;
    this.#provider = deps.provider;
    this.#notifications = deps.notifications;
    this.#faults = deps.faults ?? {};
    this.#webhooks = deps.webhooks ?? null;
    this.#ledger = deps.ledger ?? null;
  }

  /**
   * One notification at the provider's webhook (decision 064). The provider checks its signature
   * and reads it before anything else; then the order it names, the user and the amount; the
   * change is recorded once (a notification sent again changes nothing) and commits before the
   * answer, so a crash before the answer loses nothing: the provider sends it again. The answer is
   * the provider's own format.
   */
  async handleNotification(rawBody: string, headers: { authorization?: string | undefined }): Promise<ProviderAnswer> {
    const notification = this.#notifications.readNotification(rawBody, headers);
    const refusal = await this.#verdictOn(notification);
    return this.#notifications.answer(refusal ? { accepted: false, refusal } : { accepted: true });
  }

  async #verdictOn(notification: ReturnType<PaymentNotifications['readNotification']>): Promise<NotificationRefusal | null> {
    switch (notification.kind) {
      case 'refused':
        return notification.refusal;
      case 'ignored':
        return null;
      case 'user-check': {
        const userId = Number(notification.userId);
        return Number.isSafeInteger(userId) && userId > 0 && (await this.#repository.userExists(userId)) ? null : { reason: 'user', message: 'Unknown user' };
      }
      case 'order-change':
        return this.#applyChange(notification.change);
    }
  }

  async #applyChange(change: OrderChange): Promise<NotificationRefusal | null> {
    const order = change.orderId
      ? await this.#repository.findOrder(change.orderId)
      : change.providerOrderId && this.#provider
        ? await this.#repository.findByProviderOrder(this.#provider.name, change.providerOrderId)
        : undefined;
    if (!order) return { reason: 'order', message: 'Unknown order' };
    if (change.userId !== String(order.user_id)) return { reason: 'user', message: 'The order belongs to another user' };
    if (change.effect === 'paid') {
      // Nothing is paid on a notification that does not say how much: a signed one without the amount is refused, not trusted.
      if (!change.paid) return { reason: 'malformed', message: 'The amount and currency are required' };
      if (change.paid.amount !== order.amount_minor || change.paid.currency !== order.currency.toUpperCase())
        return { reason: 'amount', message: 'The amount or currency differs from the order' };
    }
    // A refund's stated amount is in the order's currency's major units (decision 124).
    const refund = change.refund
      ? {
          amount: change.refund.amount === null ? null : toMinorUnits(change.refund.amount, order.currency),
          reason: change.refund.reason,
          chargeback: change.refund.chargeback ?? false,
        }
      : null;
    // A fee stated in another currency than the order's is not the ledger's to convert: the reconciliation shows it.
    const deductions = change.deductions && change.deductions.currency === order.currency.toUpperCase() ? change.deductions.amount : null;
    await this.record(
      order.id,
      {
        type: change.type,
        eventKey: change.eventKey,
        next: NEXT_STATUS[change.effect],
        payload: change.payload,
        transactionId: change.transactionId,
        refund,
        deductions,
      },
      isoNow(this.#clock),
      this.#faults.beforeCommit,
      (unit, done) => this.queueWebhook(unit, done),
    );
    this.#faults.afterCommit?.();
    return null;
  }

  /**
   * Records a state change once: the event row and the new status in one transaction, the
   * order's row locked meanwhile. A change whose key is recorded already changes nothing and
   * answers `duplicate`. A paid consumable is added to the inventory once, whatever notifications
   * follow (decision 091). `inTransaction` runs inside the transaction after the change (the
   * game's webhook is queued there, decision 100); `beforeCommit` runs last (the crash tests stop
   * the process there).
   */
  async record(
    orderId: number,
    change: RecordedChange,
    now: string,
    beforeCommit?: () => void,
    inTransaction?: (unit: UnitOfWork, done: AppliedChange) => Promise<void>,
  ): Promise<{ outcome: 'applied' | 'duplicate'; order: OrderRow }> {
    return this.#repository.transaction(async (unit) => {
      const order = await this.#repository.lockOrder(orderId, unit);
      if (await this.#repository.eventRecorded(orderId, change.eventKey, unit)) return { outcome: 'duplicate' as const, order };
      const status = change.next(order.status);
      const mode: Mode = order.preview === 1 ? 'test' : 'live';
      const credit = status === 'paid' && order.credited_at === null && (await this.#repository.itemKind(order.item_id, unit)) === 'consumable';
      if (credit) await this.#repository.addToInventory(order.user_id, order.item_id, order.app_id, 1, mode, now, unit);
      const refund = refundOf(order, status, change.refund ?? null, now);
      // A full refund of a credited consumable takes its unit back if the player still holds one (a used one cannot be).
      if (refund && !refund.partial && order.credited_at !== null)
        refund.itemsTakenBack = await this.#repository.takeBackOne(order.user_id, order.item_id, mode, now, unit);
      const eventId = await this.#repository.recordEvent(
        { orderId, type: change.type, eventKey: change.eventKey, from: order.status, to: status, payload: JSON.stringify(change.payload), now },
        unit,
      );
      const updated = await this.#repository.updateOrder(
        orderId,
        {
          status,
          updated_at: now,
          ...(status === 'paid' && !order.paid_at ? { paid_at: now } : {}),
          ...(change.transactionId && !order.provider_transaction_id ? { provider_transaction_id: change.transactionId } : {}),
          ...(credit ? { credited_at: now } : {}),
          ...(refund ? { refunded_minor: order.refunded_minor + refund.amount, refunded_at: now } : {}),
        },
        unit,
      );
      await this.#ledger?.orderChanged(unit, {
        order: updated,
        paid: status === 'paid' && order.status !== 'paid',
        eventId,
        refund: refund ? { amount: refund.amount, chargeback: change.refund?.chargeback ?? false } : null,
        deductions: change.deductions ?? null,
        now,
      });
      await inTransaction?.(unit, { eventId, from: order.status, order: updated, refund });
      beforeCommit?.();
      return { outcome: 'applied' as const, order: updated };
    });
  }

  /** Queues the game's webhook for an order change (decision 100), inside the change's transaction. */
  async queueWebhook(unit: UnitOfWork, done: AppliedChange): Promise<void> {
    await this.#webhooks?.orderChanged(unit, { sourceKey: `order-event:${done.eventId}`, from: done.from, order: done.order, refund: done.refund });
  }
}

/**
 * The refund a change makes (decision 124): a paid order becoming refunded gives back what partial
 * refunds left (the unit taken back is counted by the caller); a partial refund of a paid order
 * gives back the stated amount, never more than is left, and takes nothing back. Anything else
 * refunds nothing.
 */
function refundOf(order: OrderRow, status: OrderStatus, stated: { amount: number | null; reason: string | null } | null, now: string): AppliedRefund | null {
  const left = order.amount_minor - order.refunded_minor;
  if (order.status === 'paid' && status === 'refunded') return { amount: left, reason: stated?.reason ?? null, at: now, itemsTakenBack: 0, partial: false };
  if (order.status === 'paid' && status === 'paid' && stated?.amount != null && stated.amount > 0 && left > 0)
    return { amount: Math.min(stated.amount, left), reason: stated.reason, at: now, itemsTakenBack: 0, partial: true };
  return null;
}
