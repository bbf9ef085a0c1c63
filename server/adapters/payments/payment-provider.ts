/**
 * A card payment provider (decision 064): it opens a checkout for an order, tells what its
 * notifications mean for an order, answers them in its own format, and refunds. The payments
 * service sees only these normalised shapes; Xsolla and the built-in sandbox implement them.
 */
export interface PaymentProvider extends PaymentNotifications {
  readonly name: 'xsolla' | 'sandbox';
  /** Test cards, no money moves. */
  readonly sandbox: boolean;
  /** A checkout the browser opens for the order. */
  createCheckout(order: PayableOrder, buyer: Buyer): Promise<CheckoutSession>;
  /**
   * Asks the provider to give the money of a paid order back. The order changes when the
   * provider's refund notification arrives, as for a refund made in the provider's own console.
   * `amount` (minor units, below the order's) asks for a partial refund (decision 124).
   */
  refund(order: PayableOrder, reason: string, amount?: number): Promise<void>;
}

/** The provider's webhook: what a notification means, and the answer the provider expects. */
export interface PaymentNotifications {
  /** Checks the notification's signature and reads it; never throws. */
  readNotification(rawBody: string, headers: { authorization?: string | undefined }): ProviderNotification;
  /** The HTTP answer the provider expects for the portal's verdict. */
  answer(verdict: NotificationVerdict): ProviderAnswer;
}

/** An order as a provider sees it. */
export interface PayableOrder {
  /** The portal's order id ("ord_…"), which the provider carries back in its notifications. */
  id: string;
  userId: number;
  sku: string;
  /** In minor units of the currency. */
  amount: number;
  currency: string;
  /** The provider's order reference, once a checkout was opened. */
  providerOrderId: string | null;
  /** The provider's payment reference, once paid. */
  providerTransactionId: string | null;
}

/** Who pays, as the provider needs it. */
export interface Buyer {
  userId: number;
  name: string | null;
  ip: string;
  language: string;
}

/** Where an order is paid: a checkout address for the browser and the provider's reference of it. */
export interface CheckoutSession {
  providerOrderId: string;
  token: string;
  url: string;
}

/** The order statuses a notification leads towards; the service decides the status from the current one. */
export type OrderEffect = 'paid' | 'refunded' | 'partially-refunded' | 'cancelled' | 'declined';

/** What a notification asks of an order, in the portal's terms. */
export interface OrderChange {
  effect: OrderEffect;
  /** The provider's name for the event, recorded with it. */
  type: string;
  /** The portal order id it names, else the provider's order reference. */
  orderId: string | null;
  providerOrderId: string | null;
  /** The portal user id the provider states. */
  userId: string | null;
  /** What a paying notification says was paid, in minor units; null when it does not say. */
  paid: { amount: number; currency: string } | null;
  /** Two notifications with the same key are the same one, sent again. */
  eventKey: string;
  transactionId: string | null;
  /**
   * What a refund notification says was given back (decision 124): the amount as stated, in major
   * units of the order's currency (null: the whole order), and the reason; null for other notifications.
   */
  refund: { amount: unknown; reason: string | null; chargeback?: boolean } | null;
  /**
   * The provider's fee and the taxes it withheld from a payment, as the notification states them
   * (decision 149), in minor units of `currency`; null when it states none.
   */
  deductions?: { amount: number; currency: string } | null;
  /** The notification as received, kept with the event. */
  payload: unknown;
}

export type ProviderNotification =
  | { kind: 'order-change'; change: OrderChange }
  /** The provider asks whether a user exists before a payment. */
  | { kind: 'user-check'; userId: string | null }
  /** A notification the portal does not act on: acknowledged so it is not sent again. */
  | { kind: 'ignored' }
  | { kind: 'refused'; refusal: NotificationRefusal };

export interface NotificationRefusal {
  reason: 'signature' | 'malformed' | 'order' | 'user' | 'amount';
  message: string;
}

export type NotificationVerdict = { accepted: true } | { accepted: false; refusal: NotificationRefusal };

/** The provider's expected HTTP answer; `code` names a refusal for the log. */
export interface ProviderAnswer {
  status: number;
  body?: object;
  code?: string;
}

/** The provider did not do what was asked (unreachable, refused the request). */
export class PaymentProviderFailure extends Error {
  override name = 'PaymentProviderFailure';
}
