import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { AddressInfo } from 'node:net';
import { webhookSignature } from '../adapters/payments/xsolla-notifications.ts';

/*
 * A stand-in for Xsolla on loopback (decision 064): the server API's "create payment token for
 * purchase" call, checked as Xsolla checks it (Basic auth with project id and API key, the user,
 * the items, the buyer's address or country), the merchant API's refund call (Basic auth with the
 * merchant id and API key), and a webhook sender that signs notifications as Xsolla does
 * (Authorization: Signature sha1(body + secret)).
 */

export interface TokenRequest {
  body: {
    user?: { id?: { value?: string } };
    purchase?: { items?: { sku?: string; quantity?: number }[] };
    settings?: { external_id?: string; currency?: string; mode?: string; language?: string };
    custom_parameters?: { order_id?: string };
  };
  userIp: string | undefined;
}

/** One refund request as the stand-in received it. */
export interface RefundRequest {
  transactionId: string;
  description: unknown;
  /** A partial refund's `refund_amount` (major units); undefined for a whole one. */
  refundAmount?: unknown;
}

export async function startXsollaStandIn(expected: { projectId: string; apiKey: string; merchantId?: string }) {
  const requests: TokenRequest[] = [];
  const refunds: RefundRequest[] = [];
  let nextOrder = 9_000_000;
  const server = createServer((req, res) => {
    let raw = '';
    const send = (status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    req.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
    req.on('end', () => {
      const refund = /^\/merchant\/v2\/merchants\/([^/]+)\/reports\/transactions\/([^/]+)\/(refund|partial_refund)$/.exec(req.url ?? '');
      if (req.method === 'PUT' && refund) {
        if (
          refund[1] !== expected.merchantId ||
          req.headers.authorization !== `Basic ${Buffer.from(`${expected.merchantId}:${expected.apiKey}`).toString('base64')}`
        ) {
          return send(401, { errorCode: 1020, errorMessage: 'Invalid credentials' });
        }
        if (!/^\d+$/.test(refund[2]!)) return send(404, { errorCode: 404, errorMessage: 'Transaction not found' });
        // Xsolla refunds a transaction whole once; asked again, it refuses. Partial refunds add up to a number of its own.
        if (refunds.some((r) => r.transactionId === refund[2] && r.refundAmount === undefined))
          return send(422, { errorCode: 1104, errorMessage: 'Transaction already refunded' });
        const body = JSON.parse(raw || '{}') as { description?: unknown; refund_amount?: unknown };
        if (refund[3] === 'partial_refund') {
          if (typeof body.refund_amount !== 'number' || !(body.refund_amount > 0))
            return send(422, { errorCode: 1102, errorMessage: 'refund_amount is required' });
          refunds.push({ transactionId: refund[2]!, description: body.description, refundAmount: body.refund_amount });
        } else refunds.push({ transactionId: refund[2]!, description: body.description });
        return res.writeHead(204).end();
      }
      if (req.method !== 'POST' || req.url !== `/v3/project/${expected.projectId}/admin/payment/token`)
        return send(404, { errorCode: 404, errorMessage: 'Not found' });
      if (req.headers.authorization !== `Basic ${Buffer.from(`${expected.projectId}:${expected.apiKey}`).toString('base64')}`) {
        return send(401, { errorCode: 1020, errorMessage: 'Invalid credentials' });
      }
      let body: TokenRequest['body'];
      try {
        body = JSON.parse(raw) as TokenRequest['body'];
      } catch {
        return send(422, { errorCode: 1102, errorMessage: 'Invalid JSON' });
      }
      const userIp = req.headers['x-user-ip'] as string | undefined;
      if (!body.user?.id?.value || !body.purchase?.items?.[0]?.sku || (!userIp && !(body.user as { country?: unknown }).country)) {
        return send(422, { errorCode: 1102, errorMessage: 'user.id, purchase.items and the country or X-User-Ip are required' });
      }
      requests.push({ body, userIp });
      nextOrder += 1;
      return send(200, { token: randomBytes(24).toString('hex'), order_id: nextOrder });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, requests, refunds, stop: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** Sends a notification to a webhook as Xsolla does; answers the status and body. */
export async function sendNotification(
  webhookUrl: string,
  secret: string,
  notification: object,
  signature?: string,
): Promise<{ status: number; body: string }> {
  const body = JSON.stringify(notification);
  const response = await fetch(webhookUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Signature ${signature ?? webhookSignature(body, secret)}` },
    body,
  });
  return { status: response.status, body: await response.text() };
}

/**
 * Xsolla's "payment" notification for a paid order, signed with `secret` and sent in-process to
 * the webhook (inject): what tests need when the payment is their set-up, not their subject.
 */
export function injectPaidNotification(
  app: FastifyInstance,
  secret: string,
  paid: { orderId: string; userId: number; transactionId: number; amount?: number; currency?: string },
): Promise<LightMyRequestResponse> {
  const payload = JSON.stringify({
    notification_type: 'payment',
    purchase: { total: { currency: paid.currency ?? 'USD', amount: paid.amount ?? 1.99 } },
    user: { id: String(paid.userId) },
    transaction: { id: paid.transactionId, external_id: paid.orderId },
    custom_parameters: { order_id: paid.orderId },
  });
  return app.inject({
    method: 'POST',
    url: '/serve/api/payment/xsolla/webhook/',
    headers: { 'content-type': 'application/json', authorization: `Signature ${webhookSignature(payload, secret)}` },
    payload,
  });
}
