import { createHash } from 'node:crypto';
import { safeEqual } from '#server/lib/random.ts';

/**
 * Xsolla's server API and webhook signature (decision 064; docs/payments.md cites the pages).
 * Token: POST {api}/v3/project/{project_id}/admin/payment/token with Basic auth (project id and
 * API key), the user, the items, the settings; the answer's token opens Pay Station at
 * {paystation}?token=….
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

export class XsollaRefusal extends Error {
  override name = 'XsollaRefusal';
}

const XSOLLA_TIMEOUT_MS = 15_000;

export class XsollaApi {
  readonly #apiUrl: string;
  readonly #projectId: string;
  readonly #apiKey: string;

  constructor(config: { apiUrl: string; projectId: string; apiKey: string }) {
    this.#apiUrl = config.apiUrl;
    this.#projectId = config.projectId;
    this.#apiKey = config.apiKey;
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
      throw new XsollaRefusal('Xsolla unreachable', { cause });
    });
    const body = (await response.json().catch(() => null)) as { token?: unknown; order_id?: unknown; errorCode?: unknown; errorMessage?: unknown } | null;
    if (!response.ok || typeof body?.token !== 'string') {
      throw new XsollaRefusal(`Xsolla answered ${response.status}${body?.errorMessage ? `: ${String(body.errorMessage)}` : ''}`);
    }
    return { token: body.token, orderId: String(body.order_id ?? '') };
  }
}

/** Xsolla's webhook signature: SHA-1 of the raw body followed by the project's secret key, in hex. */
export function webhookSignature(rawBody: string, secret: string): string {
  return createHash('sha1').update(rawBody + secret).digest('hex');
}

/** Whether `Authorization: Signature <hex>` is the body's signature (compared in constant time). */
export function hasValidSignature(authorization: string | undefined, rawBody: string, secret: string): boolean {
  const match = /^Signature ([0-9a-f]{40})$/i.exec(authorization?.trim() ?? '');
  return match !== null && safeEqual(match[1]!.toLowerCase(), webhookSignature(rawBody, secret));
}
