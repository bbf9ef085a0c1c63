import { type APIRequestContext, expect } from '@playwright/test';
import { call } from './accounts.ts';

/** The id of a catalogue game by its slug, through the API. */
export async function gameId(request: APIRequestContext, slug: string): Promise<number> {
  return (await call<{ id: number }>(request, 'GET', `/app/info/?slug=${slug}`)).data.id;
}

/**
 * An order of `sku` made by a member through the API and paid with the sandbox's test card;
 * answers its id once the order is paid (a round trip through the webhook). With `preview` (a
 * build preview's label) it is made as a preview page makes it: a test order (decision 111).
 */
export async function paidOrder(request: APIRequestContext, token: string, appId: number, sku: string, preview?: string): Promise<string> {
  const order = await call<{ id: string }>(request, 'POST', `/game/pay/${appId}`, {
    token,
    body: { sku, idempotencyKey: `e2e${Date.now()}${Math.random().toString(36).slice(2)}` },
    ...(preview ? { headers: { 'playport-preview': preview } } : {}),
  });
  expect(order.status, order.message).toBe(201);
  const checkout = await call<{ url: string }>(request, 'POST', '/payment/xsolla/create/', { token, body: { order_id: order.data.id } });
  const sandboxToken = new URL(checkout.data.url, 'http://x').searchParams.get('token')!;
  expect((await call(request, 'POST', '/payment/sandbox/pay/', { body: { token: sandboxToken, card: '4242 4242 4242 4242' } })).status).toBe(200);
  await expect
    .poll(async () => (await call<{ status: string }>(request, 'GET', `/game/orders/${order.data.id}`, { token })).data.status, { timeout: 20_000 })
    .toBe('paid');
  return order.data.id;
}
