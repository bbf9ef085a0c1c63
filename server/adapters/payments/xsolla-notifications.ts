import { createHash } from 'node:crypto';
import { z } from 'zod';
import { jsonTextDepthWithin, MAX_JSON_DEPTH } from '#common/json-depth.ts';
import { toMinorUnits } from '#common/money.ts';
import { safeEqual } from '#server/lib/random.ts';
import type {
  NotificationRefusal,
  NotificationVerdict,
  OrderChange,
  OrderEffect,
  PaymentNotifications,
  ProviderAnswer,
  ProviderNotification,
} from './payment-provider.ts';

/*
 * Xsolla's webhook (decision 064): notifications signed with the project's secret key, read into
 * the portal's order changes, answered 204 or 400 with Xsolla's error codes. The sandbox signs and
 * sends its notifications in the same format, so both are read here.
 */

/** Xsolla's webhook signature: SHA-1 of the raw body followed by the project's secret key, in hex. */
export function webhookSignature(rawBody: string, secret: string): string {
  return createHash('sha1')
    .update(rawBody + secret)
    .digest('hex');
}

/** Whether `Authorization: Signature <hex>` is the body's signature (compared in constant time). */
function hasValidSignature(authorization: string | undefined, rawBody: string, secret: string): boolean {
  const match = /^Signature ([0-9a-f]{40})$/i.exec(authorization?.trim() ?? '');
  return match !== null && safeEqual(match[1]!.toLowerCase(), webhookSignature(rawBody, secret));
}

/** A field read by the functions below, which check its type themselves. */
const field = z.unknown().optional();
/** A part of the notification; one in another shape (a string, a list) reads as absent. */
const part = <Shape extends z.ZodRawShape>(shape: Shape) => z.looseObject(shape).optional().catch(undefined);

/** The notification fields this portal reads; anything else is kept in the event's payload. */
const NotificationSchema = z.looseObject({
  notification_type: field,
  user: part({ id: field, external_id: field }),
  transaction: part({ id: field, external_id: field }),
  order: part({ id: field, amount: field, currency: field, status: field }),
  purchase: part({ total: part({ amount: field, currency: field }) }),
  refund_details: part({ amount: field, reason: field, code: field }),
  payment_details: part({}),
  custom_parameters: part({ order_id: field }),
});
type Notification = z.infer<typeof NotificationSchema>;

type NotificationKind = 'payment' | 'order_paid' | 'refund' | 'partial_refund' | 'order_canceled' | 'ps_declined' | 'afs_reject';
const ORDER_NOTIFICATIONS = new Set<string>(['payment', 'order_paid', 'refund', 'partial_refund', 'order_canceled', 'ps_declined', 'afs_reject']);
/** The notifications that pay an order: they must state the amount and currency, which must be the order's. */
const PAYING_NOTIFICATIONS = new Set<NotificationKind>(['payment', 'order_paid']);

/*
 * What each notification does to an order. A partial refund leaves the purchase in place (the
 * event records the amount); a payment declined by the payment system or Xsolla's anti-fraud
 * fails an unpaid order, as the sandbox's declined card does.
 */
const EFFECTS: Record<NotificationKind, OrderEffect> = {
  payment: 'paid',
  order_paid: 'paid',
  refund: 'refunded',
  partial_refund: 'partially-refunded',
  order_canceled: 'cancelled',
  ps_declined: 'declined',
  afs_reject: 'declined',
};

/** The portal order id the notification names: our custom parameter, else the transaction's external id. */
function orderIdOf(n: Notification): string | null {
  const candidates = [n.custom_parameters?.order_id, n.transaction?.external_id];
  for (const value of candidates) if (typeof value === 'string' && value !== '') return value;
  return null;
}

/** Xsolla's own order id, for notifications that carry only that. */
function providerOrderIdOf(n: Notification): string | null {
  const id = n.order?.id;
  return typeof id === 'number' || (typeof id === 'string' && id !== '') ? String(id) : null;
}

/** The user the notification is for (payment: user.id; order notifications: user.external_id). */
function userIdOf(n: Notification): string | null {
  for (const value of [n.user?.id, n.user?.external_id]) if (typeof value === 'string' || typeof value === 'number') return String(value);
  return null;
}

/**
 * The amount a paying notification states, in minor units of its currency (`payment`:
 * purchase.total; `order_paid`: order); null when either is missing or unreadable.
 */
function paidAmountOf(kind: NotificationKind, n: Notification): { amount: number; currency: string } | null {
  const stated = kind === 'payment' ? n.purchase?.total : kind === 'order_paid' ? n.order : undefined;
  const currency = typeof stated?.currency === 'string' && /^[A-Za-z]{3}$/.test(stated.currency) ? stated.currency.toUpperCase() : null;
  const amount = currency ? toMinorUnits(stated?.amount, currency) : null;
  return currency && amount !== null ? { amount, currency } : null;
}

/** What makes a notification the same one when Xsolla sends it again. */
function eventKeyOf(kind: NotificationKind, n: Notification, rawBody: string): string {
  const transaction = n.transaction?.id;
  const order = providerOrderIdOf(n);
  const id = transaction !== undefined && transaction !== null ? String(transaction) : (order ?? '');
  // One transaction may be partly refunded several times, even by the same amount: the body tells
  // two apart, and a notification sent again is the same body.
  if (kind === 'partial_refund') return `${kind}:${id}:${createHash('sha256').update(rawBody).digest('hex').slice(0, 32)}`;
  return `${kind}:${id}`;
}

/** The payment details' fees and withheld taxes (decision 149): what leaves the payment before anyone's share. */
const DEDUCTIONS = ['xsolla_fee', 'payment_method_fee', 'repatriation_commission', 'user_acquisition_fee', 'vat', 'sales_tax', 'direct_wht', 'country_wht'];

/**
 * The fee and taxes a payment notification states, in minor units of the purchase's currency; an
 * amount in another currency (a payout currency) is not added, and the reconciliation shows the
 * difference. Null when none is stated.
 */
function deductionsOf(kind: NotificationKind, n: Notification): OrderChange['deductions'] {
  if (kind !== 'payment' || !n.payment_details) return null;
  const currency = typeof n.purchase?.total?.currency === 'string' ? n.purchase.total.currency.toUpperCase() : null;
  if (!currency) return null;
  let amount = 0;
  let any = false;
  for (const name of DEDUCTIONS) {
    const stated = (n.payment_details as Record<string, unknown>)[name];
    if (typeof stated !== 'object' || stated === null) continue;
    const { amount: value, currency: partCurrency } = stated as { amount?: unknown; currency?: unknown };
    if (typeof partCurrency !== 'string' || partCurrency.toUpperCase() !== currency) continue;
    const minor = toMinorUnits(value, currency);
    if (minor === null || minor < 0) continue;
    amount += minor;
    any = true;
  }
  return any ? { amount, currency } : null;
}

/** Refund codes Xsolla documents as the buyer's bank taking the money back: chargeback, fraud reported by the account holder, friendly fraud. */
const CHARGEBACK_CODES = new Set([2, 11, 12]);

/** What a refund, partial refund or cancellation says was given back and why. */
function refundOf(kind: NotificationKind, n: Notification): OrderChange['refund'] {
  if (kind !== 'refund' && kind !== 'partial_refund' && kind !== 'order_canceled') return null;
  const reason = typeof n.refund_details?.reason === 'string' && n.refund_details.reason !== '' ? n.refund_details.reason.slice(0, 500) : null;
  const chargeback = CHARGEBACK_CODES.has(Number(n.refund_details?.code));
  return { amount: kind === 'partial_refund' ? (n.refund_details?.amount ?? null) : null, reason, ...(chargeback ? { chargeback } : {}) };
}

function transactionIdOf(n: Notification): string | null {
  const id = n.transaction?.id;
  return typeof id === 'number' || (typeof id === 'string' && id !== '') ? String(id) : null;
}

const refused = (reason: NotificationRefusal['reason'], message: string): ProviderNotification => ({ kind: 'refused', refusal: { reason, message } });

/**
 * Reads a notification signed with `secret` (null: every notification is refused as unsigned).
 * The signature is checked before anything else; a body nested too deeply is refused before
 * parsing, as it is stored as the event's payload and JSON.stringify of such a value throws.
 */
export function readXsollaNotification(rawBody: string, authorization: string | undefined, secret: string | null): ProviderNotification {
  if (!secret || !hasValidSignature(authorization, rawBody, secret)) return refused('signature', 'Invalid signature');
  if (!jsonTextDepthWithin(rawBody, MAX_JSON_DEPTH)) return refused('malformed', 'The body is nested too deeply');
  let body: unknown;
  try {
    body = JSON.parse(rawBody);
  } catch {
    return refused('malformed', 'The body is not JSON');
  }
  if (typeof body !== 'object' || body === null) return refused('malformed', 'The body is not an object');
  // A list is an object too, with none of the fields: read as a notification of no known type.
  const notification: Notification = NotificationSchema.safeParse(body).data ?? {};
  const type = String(notification.notification_type ?? '');
  if (type === 'user_validation') return { kind: 'user-check', userId: userIdOf(notification) };
  if (!ORDER_NOTIFICATIONS.has(type)) return { kind: 'ignored' };
  const kind = type as NotificationKind;
  return {
    kind: 'order-change',
    change: {
      effect: EFFECTS[kind],
      type: kind,
      orderId: orderIdOf(notification),
      providerOrderId: providerOrderIdOf(notification),
      userId: userIdOf(notification),
      paid: PAYING_NOTIFICATIONS.has(kind) ? paidAmountOf(kind, notification) : null,
      eventKey: eventKeyOf(kind, notification, rawBody),
      transactionId: transactionIdOf(notification),
      refund: refundOf(kind, notification),
      deductions: deductionsOf(kind, notification),
      payload: body,
    },
  };
}

const ERROR_CODES: Record<NotificationRefusal['reason'], XsollaErrorCode> = {
  signature: 'INVALID_SIGNATURE',
  malformed: 'INVALID_PARAMETER',
  order: 'INVALID_PARAMETER',
  user: 'INVALID_USER',
  amount: 'INCORRECT_AMOUNT',
};

/** Xsolla's answer to a notification: 204, or 400 with one of its error codes. */
export function xsollaAnswer(verdict: NotificationVerdict): ProviderAnswer {
  if (verdict.accepted) return { status: 204 };
  const code = ERROR_CODES[verdict.refusal.reason];
  return { status: 400, code, body: { error: { code, message: verdict.refusal.message } } };
}

/** Notifications in Xsolla's format, signed with one secret key (null: none is accepted). */
export class XsollaNotifications implements PaymentNotifications {
  readonly #secret: string | null;
  constructor(secret: string | null) {
    this.#secret = secret;
  }
  readNotification(rawBody: string, headers: { authorization?: string | undefined }): ProviderNotification {
    return readXsollaNotification(rawBody, headers.authorization, this.#secret);
  }
  answer(verdict: NotificationVerdict): ProviderAnswer {
    return xsollaAnswer(verdict);
  }
}

type XsollaErrorCode = 'INVALID_SIGNATURE' | 'INVALID_USER' | 'INVALID_PARAMETER' | 'INCORRECT_AMOUNT';

/** The webhook as the API document describes it: the fields the portal reads (Xsolla sends more, kept as they are) and the refusal. */
export const XSOLLA_WEBHOOK_DOCUMENT = {
  body: z
    .object({
      notification_type: z.string(),
      user: z.object({ id: z.string().optional(), external_id: z.string().optional() }).optional(),
      transaction: z.object({ id: z.union([z.string(), z.number()]).optional(), external_id: z.string().optional() }).optional(),
      order: z
        .object({
          id: z.union([z.string(), z.number()]).optional(),
          amount: z.union([z.string(), z.number()]).optional(),
          currency: z.string().optional(),
          status: z.string().optional(),
        })
        .optional(),
      purchase: z.object({ total: z.object({ amount: z.number().optional(), currency: z.string().optional() }).optional() }).optional(),
      refund_details: z.object({ amount: z.number().optional() }).optional(),
      custom_parameters: z.object({ order_id: z.string().optional() }).optional(),
    })
    .loose(),
  refusal: z.object({
    error: z.object({ code: z.enum(['INVALID_SIGNATURE', 'INVALID_USER', 'INVALID_PARAMETER', 'INCORRECT_AMOUNT']), message: z.string() }),
  }),
};
