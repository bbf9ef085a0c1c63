import { z } from 'zod';
import { majorUnitsText } from '#common/money.ts';
import { type PayoutProvider, PayoutRefused, type PayoutState, type PayoutTransfer } from './payout-provider.ts';

/*
 * PayPal's Payouts API v1, as its reference describes it (developer.paypal.com: "Authentication",
 * api/payments.payouts-batch/v1 "payouts-post", "sender_batch_header", "transaction_enum",
 * "user_business_error"; read 2026-11):
 * - Token: POST /v1/oauth2/token, Basic auth with the client id and secret, form body
 *   grant_type=client_credentials; answers access_token and expires_in (seconds).
 * - Create: POST /v1/payments/payouts with sender_batch_header.sender_batch_id and items
 *   (recipient_type, amount {value as a decimal string, currency}, receiver, sender_item_id);
 *   answers 201 with batch_header.payout_batch_id. PayPal refuses a sender_batch_id used in the
 *   last 30 days (400 USER_BUSINESS_ERROR naming the duplicate id, with a link to the original
 *   batch) and pays once per id, so a 5xx may be retried with the same id. Our id is the payout's
 *   public id: a second attempt finds the first batch instead of paying twice.
 * - Status: GET /v1/payments/payouts/{payout_batch_id}: batch_header.batch_status (DENIED, PENDING,
 *   PROCESSING, SUCCESS, CANCELED) and items[].transaction_status (SUCCESS, FAILED, PENDING,
 *   UNCLAIMED, RETURNED, ONHOLD, BLOCKED, REFUNDED, REVERSED), items[].errors.name for a failure.
 */

const PAYPAL_TIMEOUT_MS = 20_000;
/** A token is renewed this long before PayPal says it expires. */
const TOKEN_MARGIN_MS = 60_000;

const TokenAnswer = z.object({ access_token: z.string().min(1), expires_in: z.coerce.number().positive().catch(300) });
const Link = z.object({ href: z.string(), rel: z.string().optional() });
const CreateAnswer = z.object({ batch_header: z.object({ payout_batch_id: z.string().min(1), batch_status: z.string().optional() }) });
const ErrorAnswer = z.object({
  name: z.string().optional(),
  message: z.string().optional(),
  details: z.array(z.object({ field: z.string().optional(), issue: z.string().optional() })).optional(),
  links: z.array(Link).optional(),
});
const BatchAnswer = z.object({
  batch_header: z.object({ payout_batch_id: z.string(), batch_status: z.string() }),
  items: z
    .array(
      z.object({
        transaction_status: z.string().optional(),
        errors: z.object({ name: z.string().optional(), message: z.string().optional() }).optional(),
      }),
    )
    .default([]),
});

/** PayPal did not answer as documented, or not at all: the attempt may be made again with the same key. */
export class PayPalUnavailable extends Error {
  override name = 'PayPalUnavailable';
}

/** What an item's transaction_status means for the payout. */
export function stateOfItem(status: string | undefined, error: string | undefined): PayoutState {
  switch (status) {
    case 'SUCCESS':
      return { state: 'paid' };
    case 'FAILED':
    case 'BLOCKED':
      return { state: 'failed', reason: error ?? status };
    // Unclaimed money comes back after 30 days (RETURNED); a refunded or reversed item came back too.
    case 'RETURNED':
    case 'REFUNDED':
    case 'REVERSED':
      return { state: 'returned', reason: error ?? status };
    default:
      // PENDING, UNCLAIMED, ONHOLD, or not yet known.
      return { state: 'pending' };
  }
}

export class PayPalPayouts implements PayoutProvider {
  readonly method = 'paypal' as const;
  readonly #apiUrl: string;
  readonly #clientId: string;
  readonly #clientSecret: string;
  #token: { value: string; until: number } | null = null;

  constructor(config: { apiUrl: string; clientId: string; clientSecret: string }) {
    this.#apiUrl = config.apiUrl.replace(/\/+$/, '');
    this.#clientId = config.clientId;
    this.#clientSecret = config.clientSecret;
  }

  async send(transfer: PayoutTransfer): Promise<{ reference: string }> {
    const { status, json } = await this.#call('POST', '/v1/payments/payouts', {
      sender_batch_header: { sender_batch_id: transfer.key, recipient_type: 'EMAIL', email_subject: 'You have a payout' },
      items: [
        {
          recipient_type: 'EMAIL',
          amount: { value: majorUnitsText(transfer.amountMinor, transfer.currency), currency: transfer.currency },
          receiver: transfer.receiver,
          sender_item_id: transfer.key,
        },
      ],
    });
    if (status === 200 || status === 201) {
      const created = CreateAnswer.safeParse(json);
      if (!created.success) throw new PayPalUnavailable(`PayPal answered ${status} without a payout_batch_id`);
      return { reference: created.data.batch_header.payout_batch_id };
    }
    const error = ErrorAnswer.safeParse(json).data;
    if (status >= 500 || status === 429 || status === 401 || !error)
      throw new PayPalUnavailable(`PayPal answered ${status}${error?.name ? ` ${error.name}` : ''}`);
    const duplicate = (error.details ?? []).some((d) => d.field?.toUpperCase().includes('SENDER_BATCH_ID'));
    if (duplicate) {
      // Already sent: the batch PayPal links to is ours, else it is found by its id in the error.
      const linked = (error.links ?? []).map((l) => /\/v1\/payments\/payouts\/([^/?#]+)/.exec(l.href)?.[1]).find((id) => id !== undefined);
      if (!linked) throw new PayPalUnavailable('PayPal refused a repeated sender_batch_id without naming the batch');
      const batch = await this.#batch(decodeURIComponent(linked));
      return { reference: batch.batch_header.payout_batch_id };
    }
    throw new PayoutRefused(error.name ?? `HTTP_${status}`);
  }

  async status(reference: string): Promise<PayoutState> {
    const batch = await this.#batch(reference);
    if (batch.batch_header.batch_status === 'DENIED' || batch.batch_header.batch_status === 'CANCELED')
      return { state: 'failed', reason: `BATCH_${batch.batch_header.batch_status}` };
    const item = batch.items[0];
    return stateOfItem(item?.transaction_status, item?.errors?.name);
  }

  async #batch(batchId: string) {
    const { status, json } = await this.#call('GET', `/v1/payments/payouts/${encodeURIComponent(batchId)}`);
    const batch = BatchAnswer.safeParse(json);
    if (status !== 200 || !batch.success) throw new PayPalUnavailable(`PayPal answered ${status} for batch ${batchId}`);
    return batch.data;
  }

  async #call(method: 'GET' | 'POST', path: string, body?: unknown): Promise<{ status: number; json: unknown }> {
    const token = await this.#accessToken();
    const response = await fetch(`${this.#apiUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(PAYPAL_TIMEOUT_MS),
    }).catch((cause: unknown) => {
      throw new PayPalUnavailable('PayPal unreachable', { cause });
    });
    // An expired or revoked token: the next call asks for a new one.
    if (response.status === 401) this.#token = null;
    return { status: response.status, json: await response.json().catch(() => null) };
  }

  async #accessToken(): Promise<string> {
    if (this.#token && this.#token.until > Date.now()) return this.#token.value;
    const response = await fetch(`${this.#apiUrl}/v1/oauth2/token`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${this.#clientId}:${this.#clientSecret}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
      },
      body: 'grant_type=client_credentials',
      signal: AbortSignal.timeout(PAYPAL_TIMEOUT_MS),
    }).catch((cause: unknown) => {
      throw new PayPalUnavailable('PayPal unreachable', { cause });
    });
    const answer = TokenAnswer.safeParse(await response.json().catch(() => null));
    if (!response.ok || !answer.success) throw new PayPalUnavailable(`PayPal refused the token request (${response.status})`);
    this.#token = { value: answer.data.access_token, until: Date.now() + answer.data.expires_in * 1000 - TOKEN_MARGIN_MS };
    return this.#token.value;
  }
}
