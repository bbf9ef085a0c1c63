import { randomBytes } from 'node:crypto';
import type { OrderRow } from './payments.repository.ts';
import { majorUnitsText, toMajorUnits } from '#common/money.ts';
import { webhookSignature, type XsollaApi } from './xsolla.ts';

/** Who pays, as the provider needs it. */
export interface Buyer {
  userId: number;
  name: string | null;
  ip: string;
  language: string;
}

/** Where an order is paid: a checkout address for the browser and the provider's reference of it. */
export interface CheckoutProvider {
  readonly name: 'xsolla' | 'sandbox';
  readonly sandbox: boolean;
  create(order: OrderRow, buyer: Buyer): Promise<{ providerOrderId: string; token: string; url: string }>;
}

/** Xsolla Pay Station: a payment token from the server API, opened at the Pay Station address. */
export class XsollaCheckout implements CheckoutProvider {
  readonly name = 'xsolla' as const;
  readonly sandbox: boolean;
  readonly #api: XsollaApi;
  readonly #payStationUrl: string;

  constructor(api: XsollaApi, options: { sandbox: boolean; payStationUrl: string }) {
    this.#api = api;
    this.sandbox = options.sandbox;
    this.#payStationUrl = options.payStationUrl;
  }

  async create(order: OrderRow, buyer: Buyer) {
    const { token, orderId } = await this.#api.createPaymentToken({
      userId: String(buyer.userId),
      userName: buyer.name,
      sku: order.sku,
      externalId: order.public_id,
      currency: order.currency,
      language: buyer.language,
      userIp: buyer.ip,
      sandbox: this.sandbox,
    });
    return { providerOrderId: orderId || order.public_id, token, url: `${this.#payStationUrl}?token=${encodeURIComponent(token)}` };
  }
}

/**
 * The built-in sandbox (no Xsolla credentials, never in production): a checkout page of this
 * portal with test cards, which notifies the same webhook as Xsolla would, signed the same way.
 */
export class SandboxCheckout implements CheckoutProvider {
  readonly name = 'sandbox' as const;
  readonly sandbox = true;

  async create(_order: OrderRow, buyer: Buyer) {
    const token = randomBytes(24).toString('base64url');
    return { providerOrderId: token, token, url: `${buyer.language === 'zh' ? '/zh-CN' : ''}/payment/sandbox?token=${token}` };
  }
}

/** The sandbox's test cards (decision 064), as a payment provider's test mode offers them. */
export const SANDBOX_CARDS = {
  success: '4242424242424242',
  decline: '4000000000000002',
  challenge: '4000000000003220',
} as const;
export const SANDBOX_CHALLENGE_CODE = '1234';

/**
 * Sends the sandbox's notifications to the webhook over HTTP, signed as Xsolla signs them, and
 * keeps trying (as Xsolla does) until the webhook answers 2xx or 4xx, up to `attempts` times.
 */
export class SandboxNotifier {
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
          answered = response.status < 500;
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

/** The notifications Xsolla sends for a paid order (payment, then order_paid), in their documented shape. */
export function paidNotifications(order: OrderRow, transactionId: number): object[] {
  const amount = toMajorUnits(order.amount_minor, order.currency);
  return [
    {
      notification_type: 'payment',
      purchase: { total: { currency: order.currency, amount } },
      user: { id: String(order.user_id) },
      transaction: { id: transactionId, external_id: order.public_id, payment_date: new Date().toISOString(), payment_method: 1380, dry_run: 1, agreement: 1 },
      custom_parameters: { order_id: order.public_id },
    },
    {
      notification_type: 'order_paid',
      items: [{ sku: order.sku, type: 'virtual_good', quantity: 1, amount: majorUnitsText(order.amount_minor, order.currency) }],
      order: { id: order.provider_order_id, mode: 'sandbox', currency_type: 'real', currency: order.currency, amount: majorUnitsText(order.amount_minor, order.currency), status: 'paid', platform: 'xsolla', invoice_id: String(transactionId) },
      user: { external_id: String(order.user_id) },
      custom_parameters: { order_id: order.public_id },
    },
  ];
}
