import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startXsollaStandIn } from '#server/testing/xsolla-stand-in.ts';
import { type PayableOrder, PaymentProviderFailure } from './payment-provider.ts';
import { XsollaApi } from './xsolla-api.ts';
import { webhookSignature, XsollaNotifications } from './xsolla-notifications.ts';
import { XsollaPayments } from './xsolla-payments.ts';

/*
 * The Xsolla adapter against the loopback stand-in of Xsolla's server and merchant APIs: the
 * payment token, the refund call, and notifications read into order changes and answered in
 * Xsolla's format.
 */

const XSOLLA = { projectId: '301234', apiKey: 'xsolla-test-key', merchantId: '77001', secret: 'xsolla-webhook-secret' };
const order: PayableOrder = {
  id: 'ord_test',
  userId: 42,
  sku: 'alpha-gold-tiles',
  amount: 199,
  currency: 'USD',
  providerOrderId: '9000001',
  providerTransactionId: '880011',
};
const buyer = { userId: 42, name: 'Ann', ip: '203.0.113.9', language: 'en' };
const signed = (notification: object) => {
  const body = JSON.stringify(notification);
  return { body, headers: { authorization: `Signature ${webhookSignature(body, XSOLLA.secret)}` } };
};

const usd = (amount: number | string) => ({ currency: 'USD', amount });

describe('Xsolla payments', () => {
  let xsolla: Awaited<ReturnType<typeof startXsollaStandIn>>;
  let provider: XsollaPayments;
  beforeAll(async () => {
    xsolla = await startXsollaStandIn(XSOLLA);
    const api = new XsollaApi({
      apiUrl: xsolla.url,
      projectId: XSOLLA.projectId,
      apiKey: XSOLLA.apiKey,
      merchant: { id: XSOLLA.merchantId, apiUrl: xsolla.url },
    });
    provider = new XsollaPayments(api, { sandbox: true, payStationUrl: 'https://sandbox-secure.xsolla.com/paystation4/', webhookSecret: XSOLLA.secret });
  });
  afterAll(() => xsolla?.stop());

  const read = (notification: object) => {
    const { body, headers } = signed(notification);
    return provider.readNotification(body, headers);
  };

  /** The deductions a payment notification with these payment details states. */
  const deductionsOf = (details: object) => {
    const read_ = read({
      notification_type: 'payment',
      user: { id: '42' },
      purchase: { total: { currency: 'USD', amount: 1.99 } },
      payment_details: details,
    });
    return read_.kind === 'order-change' ? read_.change.deductions : read_.kind;
  };
  /** A refund notification with this refund code, as read. */
  const refund = (code: number) => {
    const read_ = read({ notification_type: 'refund', user: { external_id: '42' }, order: { id: 9000001 }, refund_details: { code, reason: 'Bank' } });
    return read_.kind === 'order-change' ? read_.change.refund : read_.kind;
  };

  it('opens Pay Station with a token for the order, the buyer and the item', async () => {
    const checkout = await provider.createCheckout(order, buyer);
    expect(checkout.url).toBe(`https://sandbox-secure.xsolla.com/paystation4/?token=${checkout.token}`);
    expect(checkout.providerOrderId).toMatch(/^\d+$/);
    expect(xsolla.requests.at(-1)).toMatchObject({
      userIp: '203.0.113.9',
      body: {
        user: { id: { value: '42' } },
        purchase: { items: [{ sku: 'alpha-gold-tiles', quantity: 1 }] },
        settings: { external_id: 'ord_test', currency: 'USD', mode: 'sandbox' },
        custom_parameters: { order_id: 'ord_test' },
      },
    });
  });

  it('fails with PaymentProviderFailure when Xsolla refuses the credentials or cannot be reached', async () => {
    const wrongKey = new XsollaPayments(new XsollaApi({ apiUrl: xsolla.url, projectId: XSOLLA.projectId, apiKey: 'wrong' }), {
      sandbox: true,
      payStationUrl: 'https://x.example/',
      webhookSecret: XSOLLA.secret,
    });
    await expect(wrongKey.createCheckout(order, buyer)).rejects.toThrow(PaymentProviderFailure);
    const away = new XsollaPayments(new XsollaApi({ apiUrl: 'http://127.0.0.1:1', projectId: XSOLLA.projectId, apiKey: XSOLLA.apiKey }), {
      sandbox: true,
      payStationUrl: 'https://x.example/',
      webhookSecret: XSOLLA.secret,
    });
    await expect(away.createCheckout(order, buyer)).rejects.toThrow(/Xsolla unreachable/);
  });

  it('asks the merchant API to refund the order’s transaction; without a merchant id or a transaction it refuses', async () => {
    await provider.refund(order, 'Requested by the player');
    expect(xsolla.refunds).toEqual([{ transactionId: '880011', description: 'Requested by the player' }]);
    // Xsolla refuses a second refund of the same transaction: the failure names its answer.
    await expect(provider.refund(order, 'again')).rejects.toThrow(/422 Transaction already refunded/);
    expect(xsolla.refunds).toHaveLength(1);
    await expect(provider.refund({ ...order, providerTransactionId: null }, 'x')).rejects.toThrow(PaymentProviderFailure);
    const noMerchant = new XsollaPayments(new XsollaApi({ apiUrl: xsolla.url, projectId: XSOLLA.projectId, apiKey: XSOLLA.apiKey }), {
      sandbox: true,
      payStationUrl: 'https://x.example/',
      webhookSecret: XSOLLA.secret,
    });
    await expect(noMerchant.refund(order, 'x')).rejects.toThrow(/XSOLLA_MERCHANT_ID/);
  });

  it('reads a signed payment into a paid order change, in the currency’s minor units', () => {
    const { body, headers } = signed({
      notification_type: 'payment',
      purchase: { total: { currency: 'USD', amount: 1.99 } },
      user: { id: '42' },
      transaction: { id: 880011, external_id: 'ord_test' },
      custom_parameters: { order_id: 'ord_test' },
    });
    expect(provider.readNotification(body, headers)).toEqual({
      kind: 'order-change',
      change: {
        effect: 'paid',
        type: 'payment',
        orderId: 'ord_test',
        providerOrderId: null,
        userId: '42',
        paid: { amount: 199, currency: 'USD' },
        eventKey: 'payment:880011',
        transactionId: '880011',
        refund: null,
        deductions: null,
        payload: JSON.parse(body),
      },
    });
  });

  it('reads the fee and withheld taxes of a payment in its currency, and a chargeback among refunds (decision 149)', () => {
    expect(deductionsOf({ payment: usd(1.99), xsolla_fee: usd(0.1), payment_method_fee: usd('0.05'), vat: usd(0.2), payout: usd(1.64) })).toEqual({
      amount: 35,
      currency: 'USD',
    });
    // A fee in the payout currency is not the purchase's: not added (the reconciliation shows it).
    expect(deductionsOf({ xsolla_fee: { currency: 'EUR', amount: 0.1 }, vat: usd(0) })).toEqual({ amount: 0, currency: 'USD' });
    expect(deductionsOf({ payout: usd(1.99) })).toBeNull();
    expect(deductionsOf({ xsolla_fee: usd(-1) })).toBeNull();
    expect(refund(2)).toEqual({ amount: null, reason: 'Bank', chargeback: true });
    expect(refund(12)).toMatchObject({ chargeback: true });
    expect(refund(9)).toEqual({ amount: null, reason: 'Bank' });
  });

  it('reads refunds, cancellations, declines, user checks and other types in the portal’s terms', () => {
    const effect = (type: string) => {
      const read_ = read({ notification_type: type, user: { external_id: '42' }, order: { id: 9000001 } });
      return read_.kind === 'order-change' ? [read_.change.effect, read_.change.providerOrderId, read_.change.paid] : read_.kind;
    };
    expect(effect('refund')).toEqual(['refunded', '9000001', null]);
    expect(effect('partial_refund')).toEqual(['partially-refunded', '9000001', null]);
    // What a refund gives back and why (decision 124): a partial one's amount as stated, a whole one's as null.
    const refundOf = (notification: object) => {
      const read_ = read({ user: { external_id: '42' }, order: { id: 9000001 }, ...notification });
      return read_.kind === 'order-change' ? read_.change.refund : read_.kind;
    };
    expect(refundOf({ notification_type: 'partial_refund', refund_details: { amount: 0.5, reason: 'Lag' } })).toEqual({ amount: 0.5, reason: 'Lag' });
    expect(refundOf({ notification_type: 'refund', refund_details: { amount: 9, reason: 'Asked' } })).toEqual({ amount: null, reason: 'Asked' });
    expect(refundOf({ notification_type: 'order_canceled' })).toEqual({ amount: null, reason: null });
    expect(refundOf({ notification_type: 'payment' })).toBeNull();
    // Two partial refunds of one amount are two; the same notification sent again is one.
    const keyOf = (notification: object) => {
      const read_ = read({ notification_type: 'partial_refund', user: { external_id: '42' }, transaction: { id: 5 }, ...notification });
      return read_.kind === 'order-change' ? read_.change.eventKey : read_.kind;
    };
    const first = { refund_details: { amount: 0.5, reason: 'Lag' } };
    expect(keyOf(first)).toBe(keyOf(first));
    expect(keyOf(first)).not.toBe(keyOf({ refund_details: { amount: 0.5, reason: 'Lag again' } }));
    expect(effect('order_canceled')).toEqual(['cancelled', '9000001', null]);
    expect(effect('ps_declined')).toEqual(['declined', '9000001', null]);
    expect(effect('order_paid')).toEqual(['paid', '9000001', null]);
    expect(read({ notification_type: 'user_validation', user: { id: '42' } })).toEqual({ kind: 'user-check', userId: '42' });
    expect(read({ notification_type: 'user_search' })).toEqual({ kind: 'ignored' });
  });

  it('refuses before reading: a wrong or missing signature, a body that is not a JSON object', () => {
    const { body } = signed({ notification_type: 'payment' });
    expect(provider.readNotification(body, { authorization: `Signature ${webhookSignature(body, 'another-secret')}` })).toMatchObject({
      kind: 'refused',
      refusal: { reason: 'signature' },
    });
    expect(provider.readNotification(body, {})).toMatchObject({ kind: 'refused', refusal: { reason: 'signature' } });
    expect(new XsollaNotifications(null).readNotification(body, signed({ notification_type: 'payment' }).headers)).toMatchObject({
      kind: 'refused',
      refusal: { reason: 'signature' },
    });
    for (const raw of ['not json', '42', `${'['.repeat(100)}${']'.repeat(100)}`]) {
      expect(provider.readNotification(raw, { authorization: `Signature ${webhookSignature(raw, XSOLLA.secret)}` }), raw.slice(0, 10)).toMatchObject({
        kind: 'refused',
        refusal: { reason: 'malformed' },
      });
    }
  });

  it('answers as Xsolla expects: 204, or 400 with its error code', () => {
    expect(provider.answer({ accepted: true })).toEqual({ status: 204 });
    const codes = (['signature', 'malformed', 'order', 'user', 'amount'] as const).map((reason) =>
      provider.answer({ accepted: false, refusal: { reason, message: 'm' } }),
    );
    expect(codes.map((answer) => [answer.status, answer.code])).toEqual([
      [400, 'INVALID_SIGNATURE'],
      [400, 'INVALID_PARAMETER'],
      [400, 'INVALID_PARAMETER'],
      [400, 'INVALID_USER'],
      [400, 'INCORRECT_AMOUNT'],
    ]);
    expect(codes[4]!.body).toEqual({ error: { code: 'INCORRECT_AMOUNT', message: 'm' } });
  });
});
