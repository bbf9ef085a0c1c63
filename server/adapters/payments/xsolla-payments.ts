import { toMajorUnits } from '#common/money.ts';
import type { Buyer, CheckoutSession, NotificationVerdict, PayableOrder, PaymentProvider, ProviderAnswer, ProviderNotification } from './payment-provider.ts';
import { PaymentProviderFailure } from './payment-provider.ts';
import type { XsollaApi } from './xsolla-api.ts';
import { readXsollaNotification, xsollaAnswer } from './xsolla-notifications.ts';

/** Xsolla Pay Station: a payment token from the server API, opened at the Pay Station address; its signed webhook; its refund call. */
export class XsollaPayments implements PaymentProvider {
  readonly name = 'xsolla' as const;
  readonly sandbox: boolean;
  readonly #api: XsollaApi;
  readonly #payStationUrl: string;
  readonly #webhookSecret: string;

  constructor(api: XsollaApi, options: { sandbox: boolean; payStationUrl: string; webhookSecret: string }) {
    this.#api = api;
    this.sandbox = options.sandbox;
    this.#payStationUrl = options.payStationUrl;
    this.#webhookSecret = options.webhookSecret;
  }

  async createCheckout(order: PayableOrder, buyer: Buyer): Promise<CheckoutSession> {
    const { token, orderId } = await this.#api.createPaymentToken({
      userId: String(buyer.userId),
      userName: buyer.name,
      sku: order.sku,
      externalId: order.id,
      currency: order.currency,
      language: buyer.language,
      userIp: buyer.ip,
      sandbox: this.sandbox,
    });
    return { providerOrderId: orderId || order.id, token, url: `${this.#payStationUrl}?token=${encodeURIComponent(token)}` };
  }

  readNotification(rawBody: string, headers: { authorization?: string | undefined }): ProviderNotification {
    return readXsollaNotification(rawBody, headers.authorization, this.#webhookSecret);
  }

  answer(verdict: NotificationVerdict): ProviderAnswer {
    return xsollaAnswer(verdict);
  }

  async refund(order: PayableOrder, reason: string, amount?: number): Promise<void> {
    if (!order.providerTransactionId) throw new PaymentProviderFailure(`Order ${order.id} has no Xsolla transaction to refund`);
    const partial = amount !== undefined && amount < order.amount ? toMajorUnits(amount, order.currency) : undefined;
    await this.#api.refund(order.providerTransactionId, reason, partial);
  }
}
