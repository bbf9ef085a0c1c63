import type { Order } from '#common/api/game-store.schema.ts';
import type { ConsoleOrder } from '#common/api/console-ops.schema.ts';
import type { Locale } from '#common/locales.ts';
import type { PayableOrder } from '#server/adapters/payments/payment-provider.ts';
import type { MemberNames, OrderRow, OrderView } from './payments.repository.ts';

/** An order as the provider sees it. */
export function payableOf(row: OrderRow): PayableOrder {
  return {
    id: row.public_id,
    userId: row.user_id,
    sku: row.sku,
    amount: row.amount_minor,
    currency: row.currency,
    providerOrderId: row.provider_order_id,
    providerTransactionId: row.provider_transaction_id,
  };
}

/** An item's name in the locale, else in English. */
export function nameOf(names: string, locale: Locale): string {
  const parsed = JSON.parse(names) as Partial<Record<Locale, string>>;
  return parsed[locale] ?? parsed.en ?? '';
}

/** An order as an operator sees it, with its refunds and its member. */
export function toConsoleOrder(row: OrderView & MemberNames, locale: Locale): ConsoleOrder {
  const { delivered: _delivered, ...order } = toOrder(row, locale);
  return {
    ...order,
    providerOrderId: row.provider_order_id,
    refundRequestedAt: row.refund_requested_at,
    refunded: row.refunded_minor,
    refundedAt: row.refunded_at,
    member: { id: row.user_id, username: row.username, email: row.email },
  };
}

/** An order as its member sees it. */
export function toOrder(row: OrderView, locale: Locale): Order {
  return {
    id: row.public_id,
    appId: row.app_id,
    appTitle: row.app_title,
    sku: row.sku,
    itemName: nameOf(row.names, locale),
    amount: row.amount_minor,
    currency: row.currency,
    status: row.status,
    provider: row.provider,
    providerReference: row.provider_transaction_id,
    createdAt: row.created_at,
    paidAt: row.paid_at,
    delivered: row.delivered_at !== null,
    livemode: row.preview === 0,
  };
}
