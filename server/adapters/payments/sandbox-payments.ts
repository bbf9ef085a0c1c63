import { randomBytes, randomInt, randomUUID } from 'node:crypto';
import { majorUnitsText, toMajorUnits } from '#common/money.ts';
import type { Buyer, CheckoutSession, NotificationVerdict, PayableOrder, PaymentProvider, ProviderAnswer, ProviderNotification } from './payment-provider.ts';
import { PaymentProviderFailure } from './payment-provider.ts';
import { readXsollaNotification, webhookSignature, xsollaAnswer } from './xsolla-notifications.ts';

/** The sandbox's test cards (decision 064), as a payment provider's test mode offers them. */
export const SANDBOX_CARDS = {
  success: '4242424242424242',
  decline: '4000000000000002',
  challenge: '4000000000003220',
} as const;
export const SANDBOX_CHALLENGE_CODE = '1234';

/** What a test card did: paid (the webhook took the notifications), asks for the challenge code, or declined. */
export type SandboxCardOutcome = 'paid' | 'challenge' | 'declined';

/** The sandbox's card form, which only the sandbox has. */
export interface SandboxCards {
  /** Pays with a test card; throws PaymentProviderFailure when the webhook never took the payment. */
  pay(order: PayableOrder, card: string, challenge: string | undefined): Promise<SandboxCardOutcome>;
}

/**
 * The built-in sandbox (no Xsolla credentials, never in production): a checkout page of this
 * portal with test cards, which notifies the same webhook as Xsolla would, signed the same way
 * and in Xsolla's format, so the webhook reads both alike.
 */
export class SandboxPayments implements PaymentProvider, SandboxCards {
  readonly name = 'sandbox' as const;
  readonly sandbox = true;
  readonly #notifier: SandboxNotifier;
  readonly #secret: string;

  constructor(options: { webhookUrl: string; secret: string; retryMs?: number }) {
    this.#notifier = new SandboxNotifier(options);
    this.#secret = options.secret;
  }

  async createCheckout(_order: PayableOrder, buyer: Buyer): Promise<CheckoutSession> {
    const token = randomBytes(24).toString('base64url');
    return { providerOrderId: token, token, url: `${buyer.language === 'zh' ? '/zh-CN' : ''}/payment/sandbox?token=${token}` };
  }

  readNotification(rawBody: string, headers: { authorization?: string | undefined }): ProviderNotification {
    return readXsollaNotification(rawBody, headers.authorization, this.#secret);
  }

  answer(verdict: NotificationVerdict): ProviderAnswer {
    return xsollaAnswer(verdict);
  }

  async pay(order: PayableOrder, card: string, challenge: string | undefined): Promise<SandboxCardOutcome> {
    if (card === SANDBOX_CARDS.challenge && challenge === undefined) return 'challenge';
    const approved = card === SANDBOX_CARDS.success || (card === SANDBOX_CARDS.challenge && challenge === SANDBOX_CHALLENGE_CODE);
    if (!approved) return 'declined';
    if (!(await this.#notifier.send(paidNotifications(order, randomInt(100_000_000, 999_999_999)))))
      throw new PaymentProviderFailure('The webhook did not take the sandbox payment');
    return 'paid';
  }

  /** Refunds at once, whole or in part: the refund notification goes to the webhook as Xsolla's would. */
  async refund(order: PayableOrder, reason: string, amount?: number): Promise<void> {
    if (!order.providerTransactionId) throw new PaymentProviderFailure(`Order ${order.id} has no sandbox payment to refund`);
    const partial = amount !== undefined && amount < order.amount ? amount : undefined;
    if (!(await this.#notifier.send([refundNotification(order, reason, partial)])))
      throw new PaymentProviderFailure('The webhook did not take the sandbox refund');
  }
}

/**
 * Sends the sandbox's notifications to the webhook over HTTP, signed as Xsolla signs them, and
 * keeps trying (as Xsolla does) until the webhook answers 2xx, up to `attempts` times: a 4xx is a
 * refusal, not a delivery (decision 118), so it is tried again like a failure.
 */
class SandboxNotifier {
  readonly #url: string;
  readonly #secret: string;
  readonly #retryMs: number;

  constructor(options: { webhookUrl: string; secret: string; retryMs?: number }) {
    this.#url = options.webhookUrl;
    this.#secret = options.secret;
    this.#retryMs = options.retryMs ?? 1000;
  }

  /** Sends each notification in turn; resolves once all were answered, or after the attempts. */
  async send(notifications: object[], attempts = 5): Promise<boolean> {
    for (const notification of notifications) {
      const body = JSON.stringify(notification);
      let answered = false;
      for (let attempt = 1; attempt <= attempts && !answered; attempt++) {
        try {
          const response = await fetch(this.#url, {
            method: 'POST',
            headers: { 'content-type': 'application/json', authorization: `Signature ${webhookSignature(body, this.#secret)}` },
            body,
            signal: AbortSignal.timeout(10_000),
          });
          answered = response.ok;
          await response.body?.cancel();
        } catch {
          answered = false;
        }
        if (!answered) await new Promise((resolve) => setTimeout(resolve, this.#retryMs * attempt));
      }
      if (!answered) return false;
    }
    return true;
  }
}

/** The sandbox's provider fee (decision 149): 5% of the payment, rounded down to a minor unit, as a stand-in for Xsolla's. */
export const sandboxFee = (amountMinor: number) => Math.floor(amountMinor / 20);

/** The notifications Xsolla sends for a paid order (payment, then order_paid), in their documented shape. */
export function paidNotifications(order: PayableOrder, transactionId: number): object[] {
  const amount = toMajorUnits(order.amount, order.currency);
  const fee = sandboxFee(order.amount);
  const money = (minor: number) => ({ currency: order.currency, amount: toMajorUnits(minor, order.currency) });
  return [
    {
      notification_type: 'payment',
      purchase: { total: { currency: order.currency, amount } },
      payment_details: {
        payment: money(order.amount),
        xsolla_fee: money(fee),
        payment_method_fee: money(0),
        vat: money(0),
        payout_currency_rate: 1,
        payout: money(order.amount - fee),
      },
      user: { id: String(order.userId) },
      transaction: { id: transactionId, external_id: order.id, payment_date: new Date().toISOString(), payment_method: 1380, dry_run: 1, agreement: 1 },
      custom_parameters: { order_id: order.id },
    },
    {
      notification_type: 'order_paid',
      items: [{ sku: order.sku, type: 'virtual_good', quantity: 1, amount: majorUnitsText(order.amount, order.currency) }],
      order: {
        id: order.providerOrderId,
        mode: 'sandbox',
        currency_type: 'real',
        currency: order.currency,
        amount: majorUnitsText(order.amount, order.currency),
        status: 'paid',
        platform: 'xsolla',
        invoice_id: String(transactionId),
      },
      user: { external_id: String(order.userId) },
      custom_parameters: { order_id: order.id },
    },
  ];
}

/** Xsolla's `refund` notification for a whole order, or its `partial_refund` for `partial` minor units of it. */
function refundNotification(order: PayableOrder, reason: string, partial?: number): object {
  return {
    notification_type: partial === undefined ? 'refund' : 'partial_refund',
    purchase: { total: { currency: order.currency, amount: toMajorUnits(order.amount, order.currency) } },
    user: { id: String(order.userId) },
    transaction: { id: order.providerTransactionId, external_id: order.id },
    refund_details: partial === undefined ? { code: 1, reason } : { code: 1, reason, amount: toMajorUnits(partial, order.currency), refund_id: randomUUID() },
    custom_parameters: { order_id: order.id },
  };
}
