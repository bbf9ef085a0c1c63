import type { OrderStatus } from '#server/db/schema.ts';
import { toMinorUnits } from '#common/money.ts';

/*
 * What an Xsolla notification means for an order (decision 064): which order it names, who paid,
 * how much, and the status it leads to. Statuses move so that any order of arrival ends the same:
 * a payment after a refund leaves the order refunded; a refund before the payment too.
 */

/** The notification fields this portal reads; anything else is kept in the event's payload. */
export interface Notification {
  notification_type?: unknown;
  user?: { id?: unknown; external_id?: unknown };
  transaction?: { id?: unknown; external_id?: unknown };
  order?: { id?: unknown; amount?: unknown; currency?: unknown; status?: unknown };
  purchase?: { total?: { amount?: unknown; currency?: unknown } };
  refund_details?: { amount?: unknown };
  custom_parameters?: { order_id?: unknown };
}

export type NotificationKind = 'payment' | 'order_paid' | 'refund' | 'partial_refund' | 'order_canceled' | 'ps_declined' | 'afs_reject';
export const ORDER_NOTIFICATIONS = new Set<string>(['payment', 'order_paid', 'refund', 'partial_refund', 'order_canceled', 'ps_declined', 'afs_reject']);
/** The notifications that pay an order: they must state the amount and currency, which must be the order's. */
export const PAYING_NOTIFICATIONS = new Set<NotificationKind>(['payment', 'order_paid']);

const paid = (current: OrderStatus): OrderStatus => (current === 'created' || current === 'pending' || current === 'failed' ? 'paid' : current);
const refunded = (): OrderStatus => 'refunded';
const unchanged = (current: OrderStatus): OrderStatus => current;
const cancelled = (current: OrderStatus): OrderStatus => (current === 'paid' || current === 'refunded' ? 'refunded' : 'cancelled');
// A declined payment (by the payment system, or Xsolla's anti-fraud) fails an unpaid order, as the
// sandbox's declined card does: the member sees it and may pay again. A paid order is not touched.
const declined = (current: OrderStatus): OrderStatus => (current === 'created' || current === 'pending' ? 'failed' : current);

export const NEXT_STATUS: Record<NotificationKind, (current: OrderStatus) => OrderStatus> = {
  payment: paid,
  order_paid: paid,
  refund: refunded,
  // A partial refund leaves the purchase in place; the event records the amount.
  partial_refund: unchanged,
  order_canceled: cancelled,
  ps_declined: declined,
  afs_reject: declined,
};

/** The portal order id the notification names: our custom parameter, else the transaction's external id. */
export function orderIdOf(n: Notification): string | null {
  const candidates = [n.custom_parameters?.order_id, n.transaction?.external_id];
  for (const value of candidates) if (typeof value === 'string' && value !== '') return value;
  return null;
}

/** Xsolla's own order id, for notifications that carry only that. */
export function providerOrderIdOf(n: Notification): string | null {
  const id = n.order?.id;
  return typeof id === 'number' || (typeof id === 'string' && id !== '') ? String(id) : null;
}

/** The user the notification is for (payment: user.id; order notifications: user.external_id). */
export function userIdOf(n: Notification): string | null {
  for (const value of [n.user?.id, n.user?.external_id]) if (typeof value === 'string' || typeof value === 'number') return String(value);
  return null;
}

/**
 * The amount a paying notification states, in minor units of its currency (`payment`:
 * purchase.total; `order_paid`: order); null when either is missing or unreadable.
 */
export function paidAmountOf(kind: NotificationKind, n: Notification): { amount: number; currency: string } | null {
  const stated = kind === 'payment' ? n.purchase?.total : kind === 'order_paid' ? n.order : undefined;
  const currency = typeof stated?.currency === 'string' && /^[A-Za-z]{3}$/.test(stated.currency) ? stated.currency.toUpperCase() : null;
  const amount = currency ? toMinorUnits(stated?.amount, currency) : null;
  return currency && amount !== null ? { amount, currency } : null;
}

/** What makes a notification the same one when Xsolla sends it again. */
export function eventKeyOf(kind: NotificationKind, n: Notification, rawBody: string): string {
  const transaction = n.transaction?.id;
  const order = providerOrderIdOf(n);
  const id = transaction !== undefined && transaction !== null ? String(transaction) : (order ?? '');
  if (kind === 'partial_refund') return `${kind}:${id}:${String(n.refund_details?.amount ?? rawBody.length)}`;
  return `${kind}:${id}`;
}

export function transactionIdOf(n: Notification): string | null {
  const id = n.transaction?.id;
  return typeof id === 'number' || (typeof id === 'string' && id !== '') ? String(id) : null;
}
