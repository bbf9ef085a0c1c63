import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPayPalStandIn, type PayPalStandIn } from '#server/testing/paypal-stand-in.ts';
import { PayoutRefused } from './payout-provider.ts';
import { PayPalPayouts, PayPalUnavailable, stateOfItem } from './paypal-payouts.ts';

const transfer = (key: string) => ({ key, amountMinor: 12_345, currency: 'USD', receiver: 'studio@example.test' });

describe('PayPal payouts against the stand-in', () => {
  let paypal: PayPalStandIn;
  let payouts: PayPalPayouts;
  beforeAll(async () => {
    paypal = await startPayPalStandIn();
    payouts = new PayPalPayouts({ apiUrl: paypal.url, clientId: paypal.clientId, clientSecret: paypal.clientSecret });
  });
  afterAll(() => paypal.close());

  it('sends one batch with the amount in major units and the payout id as its sender_batch_id', async () => {
    const { reference } = await payouts.send(transfer('po_first'));
    const batch = paypal.batches.find((b) => b.senderBatchId === 'po_first')!;
    expect(batch.payoutBatchId).toBe(reference);
    expect(batch.item).toEqual({
      recipient_type: 'EMAIL',
      amount: { value: '123.45', currency: 'USD' },
      receiver: 'studio@example.test',
      sender_item_id: 'po_first',
    });
    expect(await payouts.status(reference)).toEqual({ state: 'pending' });
  });

  it('writes amounts with the currency’s own decimals', async () => {
    await payouts.send({ ...transfer('po_yen'), amountMinor: 1500, currency: 'JPY' });
    expect(paypal.batches.find((b) => b.senderBatchId === 'po_yen')!.item.amount).toEqual({ value: '1500', currency: 'JPY' });
  });

  it('sent again with the same key, finds the first batch instead of paying twice', async () => {
    const first = await payouts.send(transfer('po_again'));
    const [second, third] = await Promise.all([payouts.send(transfer('po_again')), payouts.send(transfer('po_again'))]);
    expect(second.reference).toBe(first.reference);
    expect(third.reference).toBe(first.reference);
    expect(paypal.batches.filter((b) => b.senderBatchId === 'po_again')).toHaveLength(1);
    expect(paypal.duplicatesRefused()).toBeGreaterThanOrEqual(2);
  });

  it('after an answer lost in a 5xx, the retry with the same key finds the batch made', async () => {
    paypal.loseNextAnswer();
    await expect(payouts.send(transfer('po_lost'))).rejects.toBeInstanceOf(PayPalUnavailable);
    const { reference } = await payouts.send(transfer('po_lost'));
    expect(paypal.batches.filter((b) => b.senderBatchId === 'po_lost').map((b) => b.payoutBatchId)).toEqual([reference]);
  });

  it('reads paid, failed and returned items', async () => {
    const { reference } = await payouts.send(transfer('po_states'));
    paypal.setStatus('po_states', 'SUCCESS');
    expect(await payouts.status(reference)).toEqual({ state: 'paid' });
    paypal.setStatus('po_states', 'FAILED', 'RECEIVER_UNREGISTERED');
    expect(await payouts.status(reference)).toEqual({ state: 'failed', reason: 'RECEIVER_UNREGISTERED' });
    paypal.setStatus('po_states', 'RETURNED');
    expect(await payouts.status(reference)).toEqual({ state: 'returned', reason: 'RETURNED' });
    paypal.setStatus('po_states', 'UNCLAIMED');
    expect(await payouts.status(reference)).toEqual({ state: 'pending' });
  });

  it('a refused item is refused for good; wrong credentials and an unreachable API may be retried', async () => {
    await expect(payouts.send({ ...transfer('po_bad'), receiver: 'not an address' })).rejects.toBeInstanceOf(PayoutRefused);
    const wrong = new PayPalPayouts({ apiUrl: paypal.url, clientId: paypal.clientId, clientSecret: 'wrong' });
    await expect(wrong.send(transfer('po_wrong'))).rejects.toBeInstanceOf(PayPalUnavailable);
    const away = new PayPalPayouts({ apiUrl: 'http://127.0.0.1:9', clientId: 'x', clientSecret: 'y' });
    await expect(away.send(transfer('po_away'))).rejects.toBeInstanceOf(PayPalUnavailable);
    expect(paypal.batches.some((b) => b.senderBatchId === 'po_wrong' || b.senderBatchId === 'po_bad')).toBe(false);
  });

  it('maps every documented transaction status', () => {
    expect(
      ['SUCCESS', 'FAILED', 'PENDING', 'UNCLAIMED', 'RETURNED', 'ONHOLD', 'BLOCKED', 'REFUNDED', 'REVERSED'].map((s) => stateOfItem(s, undefined).state),
    ).toEqual(['paid', 'failed', 'pending', 'pending', 'returned', 'pending', 'failed', 'returned', 'returned']);
  });
});
