import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PayableOrder, PaymentProviderFailure } from './payment-provider.ts';
import { SANDBOX_CARDS, SANDBOX_CHALLENGE_CODE, SandboxPayments } from './sandbox-payments.ts';

/*
 * The sandbox against a webhook on loopback: its test cards, and the notifications it sends over
 * HTTP, signed as Xsolla signs them, which it reads back as Xsolla's.
 */

const SECRET = 'sandbox-webhook-secret';
const order: PayableOrder = {
  id: 'ord_sandbox',
  userId: 7,
  sku: 'alpha-gold-tiles',
  amount: 199,
  currency: 'USD',
  providerOrderId: 'tok',
  providerTransactionId: null,
};

describe('sandbox payments', () => {
  let server: Server;
  let url: string;
  const received: Array<{ body: string; authorization: string | undefined }> = [];
  let answer = 204;
  /** Answers for the next requests, before `answer`. */
  const nextAnswers: number[] = [];
  beforeAll(async () => {
    server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      request.on('end', () => {
        received.push({ body, authorization: request.headers.authorization });
        response.writeHead(nextAnswers.shift() ?? answer).end();
      });
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhook`;
  });
  afterAll(() => new Promise<void>((done) => server.close(() => done())));

  const sandbox = () => new SandboxPayments({ webhookUrl: url, secret: SECRET, retryMs: 1 });

  it('opens its own checkout page, in the buyer’s language', async () => {
    const checkout = await sandbox().createCheckout(order, { userId: 7, name: null, ip: '127.0.0.1', language: 'zh' });
    expect(checkout.url).toBe(`/zh-CN/payment/sandbox?token=${checkout.token}`);
    expect(checkout.providerOrderId).toBe(checkout.token);
  });

  it('asks for the challenge, declines, and pays by telling the webhook what Xsolla would', async () => {
    received.length = 0;
    const payments = sandbox();
    expect(await payments.pay(order, SANDBOX_CARDS.challenge, undefined)).toBe('challenge');
    expect(await payments.pay(order, SANDBOX_CARDS.challenge, '0000')).toBe('declined');
    expect(await payments.pay(order, SANDBOX_CARDS.decline, undefined)).toBe('declined');
    expect(received).toHaveLength(0);
    expect(await payments.pay(order, SANDBOX_CARDS.challenge, SANDBOX_CHALLENGE_CODE)).toBe('paid');
    const changes = received.map(({ body, authorization }) => payments.readNotification(body, { authorization }));
    expect(
      changes.map((read) =>
        read.kind === 'order-change' ? [read.change.type, read.change.effect, read.change.orderId, read.change.userId, read.change.paid] : read,
      ),
    ).toEqual([
      ['payment', 'paid', 'ord_sandbox', '7', { amount: 199, currency: 'USD' }],
      ['order_paid', 'paid', 'ord_sandbox', '7', { amount: 199, currency: 'USD' }],
    ]);
  });

  it('refunds a paid order by sending the refund notification', async () => {
    received.length = 0;
    const payments = sandbox();
    await payments.refund({ ...order, providerTransactionId: '123456789' }, 'Requested by the player');
    const read = payments.readNotification(received[0]!.body, { authorization: received[0]!.authorization });
    expect(read).toMatchObject({ kind: 'order-change', change: { type: 'refund', effect: 'refunded', orderId: 'ord_sandbox', transactionId: '123456789' } });
    await expect(payments.refund(order, 'unpaid')).rejects.toThrow(PaymentProviderFailure);
  });

  it('fails the payment when the webhook keeps answering 5xx, after trying again', async () => {
    received.length = 0;
    answer = 503;
    try {
      await expect(sandbox().pay(order, SANDBOX_CARDS.success, undefined)).rejects.toThrow(PaymentProviderFailure);
      expect(received).toHaveLength(5);
    } finally {
      answer = 204;
    }
  });

  it('does not count a 4xx answer as delivered: it tries again, and the payment fails when the webhook keeps refusing', async () => {
    received.length = 0;
    answer = 400;
    try {
      await expect(sandbox().pay(order, SANDBOX_CARDS.success, undefined)).rejects.toThrow(PaymentProviderFailure);
      // The first notification, sent five times; the second never goes while the first is refused.
      expect(received).toHaveLength(5);
      expect(new Set(received.map(({ body }) => JSON.parse(body).notification_type))).toEqual(new Set(['payment']));
      received.length = 0;
      await expect(sandbox().refund({ ...order, providerTransactionId: '123456789' }, 'Requested by the player')).rejects.toThrow(PaymentProviderFailure);
      expect(received).toHaveLength(5);
    } finally {
      answer = 204;
    }
  });

  it('delivers once the webhook, after a refusal, answers 2xx', async () => {
    received.length = 0;
    nextAnswers.push(400);
    expect(await sandbox().pay(order, SANDBOX_CARDS.success, undefined)).toBe('paid');
    expect(received.map(({ body }) => JSON.parse(body).notification_type)).toEqual(['payment', 'payment', 'order_paid']);
  });
});
