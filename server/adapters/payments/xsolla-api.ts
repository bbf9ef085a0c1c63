import { z } from 'zod';
import { PaymentProviderFailure } from './payment-provider.ts';

/**
 * Xsolla's server API (decision 064; docs/payments.md cites the pages).
 * Token: POST {api}/v3/project/{project_id}/admin/payment/token with Basic auth (project id and
 * API key), the user, the items, the settings; the answer's token opens Pay Station at
 * {paystation}?token=….
 * Refund: PUT {merchant api}/merchant/v2/merchants/{merchant_id}/reports/transactions/{transaction_id}/refund
 * with Basic auth (merchant id and API key); Xsolla then sends the `refund` notification. A partial
 * refund: PUT …/partial_refund with `refund_amount` (major units) too; then `partial_refund`.
 */

export interface PaymentTokenRequest {
  userId: string;
  userName: string | null;
  sku: string;
  externalId: string;
  currency: string;
  language: string;
  /** The buyer's address: Xsolla picks the currency and country from it when no country is given. */
  userIp: string;
  sandbox: boolean;
}

const XSOLLA_TIMEOUT_MS = 15_000;

/** Xsolla's answers, parsed: the payment token (and its order id), or an error's message. */
const TokenAnswer = z.object({ token: z.string(), order_id: z.union([z.string(), z.number()]).optional().catch(undefined) });
const ErrorAnswer = z.object({ errorMessage: z.unknown().optional() });

export class XsollaApi {
  readonly #apiUrl: string;
  readonly #projectId: string;
  readonly #apiKey: string;
  readonly #merchant: { id: string; apiUrl: string } | null;

  constructor(config: { apiUrl: string; projectId: string; apiKey: string; merchant?: { id: string; apiUrl: string } | null }) {
    this.#apiUrl = config.apiUrl;
    this.#projectId = config.projectId;
    this.#apiKey = config.apiKey;
    this.#merchant = config.merchant ?? null;
  }

  async createPaymentToken(request: PaymentTokenRequest): Promise<{ token: string; orderId: string }> {
    const response = await fetch(`${this.#apiUrl}/v3/project/${encodeURIComponent(this.#projectId)}/admin/payment/token`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${this.#projectId}:${this.#apiKey}`).toString('base64')}`,
        'content-type': 'application/json',
        'x-user-ip': request.userIp,
      },
      body: JSON.stringify({
        user: { id: { value: request.userId }, ...(request.userName ? { name: { value: request.userName } } : {}) },
        purchase: { items: [{ sku: request.sku, quantity: 1 }] },
        settings: {
          language: request.language,
          currency: request.currency,
          external_id: request.externalId,
          ...(request.sandbox ? { mode: 'sandbox' } : {}),
        },
        custom_parameters: { order_id: request.externalId },
      }),
      signal: AbortSignal.timeout(XSOLLA_TIMEOUT_MS),
    }).catch((cause: unknown) => {
      throw new PaymentProviderFailure('Xsolla unreachable', { cause });
    });
    const json: unknown = await response.json().catch(() => null);
    const body = TokenAnswer.safeParse(json);
    if (!response.ok || !body.success) {
      const message = ErrorAnswer.safeParse(json).data?.errorMessage;
      throw new PaymentProviderFailure(`Xsolla answered ${response.status}${message ? `: ${String(message)}` : ''}`);
    }
    return { token: body.data.token, orderId: String(body.data.order_id ?? '') };
  }

  /** Asks Xsolla to refund a payment, whole or (`partialAmount`, in major units) in part; resolves once Xsolla accepted the request. */
  async refund(transactionId: string, description: string, partialAmount?: number): Promise<void> {
    if (!this.#merchant) throw new PaymentProviderFailure('Refunds through Xsolla need XSOLLA_MERCHANT_ID');
    const { id, apiUrl } = this.#merchant;
    const path = partialAmount === undefined ? 'refund' : 'partial_refund';
    const body = partialAmount === undefined ? { description } : { description, refund_amount: partialAmount };
    const response = await fetch(
      `${apiUrl}/merchant/v2/merchants/${encodeURIComponent(id)}/reports/transactions/${encodeURIComponent(transactionId)}/${path}`,
      {
        method: 'PUT',
        headers: { authorization: `Basic ${Buffer.from(`${id}:${this.#apiKey}`).toString('base64')}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(XSOLLA_TIMEOUT_MS),
      },
    ).catch((cause: unknown) => {
      throw new PaymentProviderFailure('Xsolla unreachable', { cause });
    });
    if (!response.ok) {
      const message = ErrorAnswer.safeParse(await response.json().catch(() => null)).data?.errorMessage;
      throw new PaymentProviderFailure(`Xsolla refused the refund: ${response.status}${message ? ` ${String(message)}` : ''}`);
    }
    await response.body?.cancel();
  }
}
