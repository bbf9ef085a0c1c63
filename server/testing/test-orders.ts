import type { LightMyRequestResponse } from 'fastify';
import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import { webhookSignature } from '#server/adapters/payments/xsolla-notifications.ts';
import { openTestApi, type TestApi } from './test-api.ts';
import type { TestPlayer } from './test-players.ts';
import { startXsollaStandIn } from './xsolla-stand-in.ts';

export type XsollaStandIn = Awaited<ReturnType<typeof startXsollaStandIn>>;

/** The Xsolla project the payment tests configure, which the stand-in expects. */
export const TEST_XSOLLA = { projectId: '301234', apiKey: 'xsolla-test-key', secret: 'xsolla-webhook-secret' } as const;

/** The environment that points the API at the Xsolla stand-in at `url`, in sandbox mode. */
export function xsollaTestEnv(url: string): Record<string, string> {
  return {
    XSOLLA_PROJECT_ID: TEST_XSOLLA.projectId,
    XSOLLA_API_KEY: TEST_XSOLLA.apiKey,
    XSOLLA_WEBHOOK_SECRET: TEST_XSOLLA.secret,
    XSOLLA_SANDBOX: 'true',
    XSOLLA_API_URL: url,
  };
}

/** A new Xsolla stand-in and the API opened against it in sandbox mode (`xsollaTestEnv`), with `env` added. */
export async function openTestApiWithXsolla(env: Record<string, string> = {}): Promise<{ api: TestApi; xsolla: XsollaStandIn }> {
  const xsolla = await startXsollaStandIn(TEST_XSOLLA);
  const api = await openTestApi({ ...xsollaTestEnv(xsolla.url), ...env });
  return { api, xsolla };
}

/** Closes what `openTestApiWithXsolla` opened; either is missing when opening failed. */
export async function closeTestApiWithXsolla(opened: { api?: TestApi; xsolla?: XsollaStandIn }): Promise<void> {
  await opened.api?.close();
  await opened.xsolla?.stop();
}

/** The prices of the fixture game alpha's items, in dollars as Xsolla notifies them. */
export const ALPHA_PRICES: Record<string, number> = { 'alpha-hints': 0.49, 'alpha-night-theme': 0.99, 'alpha-gold-tiles': 1.99 };

/** A new idempotency key. */
export const idempotencyKey = (): string => randomBytes(12).toString('base64url');

/** Xsolla's "payment" notification of an order of alpha's, paid by `uid` in transaction `id`. */
export const paymentOf = (o: { id: string; sku: string }, uid: number, id: number) => ({
  notification_type: 'payment',
  purchase: { total: { currency: 'USD', amount: ALPHA_PRICES[o.sku] } },
  user: { id: String(uid) },
  transaction: { id, external_id: o.id, dry_run: 1 },
  custom_parameters: { order_id: o.id },
});

/** Xsolla's "partial_refund" notification: `amount` in major units of the order's currency, given back for `reason` (decision 124). */
export const partialRefundOf = (o: { id: string }, uid: number, transaction: number, amount: number, reason: string) => ({
  notification_type: 'partial_refund',
  user: { id: String(uid) },
  transaction: { id: transaction, external_id: o.id },
  refund_details: { code: 1, reason, amount },
  custom_parameters: { order_id: o.id },
});

/** Xsolla's "refund" notification of an order of alpha's. */
export const refundOf = (o: { id: string; sku: string }, uid: number, id: number) => ({
  notification_type: 'refund',
  purchase: { total: { currency: 'USD', amount: ALPHA_PRICES[o.sku] } },
  user: { id: String(uid) },
  transaction: { id, external_id: o.id },
  refund_details: { code: 1, reason: 'Requested by the player' },
  custom_parameters: { order_id: o.id },
});

/**
 * Orders made and paid through the API as a player and Xsolla make them (the API opened with
 * `xsollaTestEnv`). `appId` and `apiOf` are asked at each call, so this can be declared before
 * `beforeAll`; transaction ids count up from `firstTransaction`.
 */
export function testOrders(apiOf: () => TestApi, options: { appId: () => number; firstTransaction: number }) {
  let transaction = options.firstTransaction;
  /** Sends a notification signed with the test secret to the webhook, in-process. */
  function notify(notification: object): Promise<LightMyRequestResponse> {
    const payload = JSON.stringify(notification);
    return apiOf().app.inject({
      method: 'POST',
      url: '/serve/api/payment/xsolla/webhook/',
      headers: { 'content-type': 'application/json', authorization: `Signature ${webhookSignature(payload, TEST_XSOLLA.secret)}` },
      payload,
    });
  }
  /** An order made and its checkout opened: notify its payment to pay it. */
  async function order(player: TestPlayer, sku: string, app = options.appId()): Promise<{ id: string; sku: string }> {
    const api = apiOf();
    const made = await api.call('POST', `/game/pay/${app}`, { token: player.token, body: { sku, idempotencyKey: idempotencyKey() } });
    expect(made.statusCode, made.body).toBe(201);
    const o = { id: made.json().data.id as string, sku };
    expect((await api.call('POST', '/payment/xsolla/create/', { token: player.token, body: { order_id: o.id } })).statusCode).toBe(200);
    return o;
  }
  /** An order of the SKU made, its checkout opened and its payment notified: paid. */
  async function buy(player: TestPlayer, sku: string): Promise<{ id: string; sku: string; transaction: number }> {
    const o = await order(player, sku);
    const id = ++transaction;
    expect((await notify(paymentOf(o, player.userInfo.uid, id))).statusCode).toBe(204);
    return { ...o, transaction: id };
  }
  /** One of the player's consumable `sku` used up through the game's inventory. */
  async function consumeOne(player: TestPlayer, sku: string): Promise<void> {
    const used = await apiOf().call('POST', `/game/inventory/${options.appId()}/consume`, {
      token: player.token,
      body: { sku, quantity: 1, idempotencyKey: idempotencyKey() },
    });
    expect(used.statusCode, used.body).toBe(200);
  }
  /** The next transaction id (for notifications a test sends itself). */
  const nextTransaction = () => ++transaction;
  return { notify, order, buy, consumeOne, nextTransaction };
}
