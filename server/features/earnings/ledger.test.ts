import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { correctionPosting, feePosting, type LedgerPosting, payoutPosting, paymentPosting, postingSum, refundPosting, studioPart } from './ledger.ts';

/** An order's money events as a provider might send them: a fee, refunds in pieces, a chargeback. */
const orderEvents = fc.record({
  gross: fc.integer({ min: 1, max: 5_000_000 }),
  shareBp: fc.option(fc.integer({ min: 0, max: 10_000 }), { nil: null }),
  feeBp: fc.integer({ min: 0, max: 3_000 }),
  refunds: fc.array(fc.record({ amount: fc.integer({ min: 1, max: 5_000_000 }), chargeback: fc.boolean() }), { maxLength: 6 }),
});

const studioOf = (postings: LedgerPosting[]) =>
  postings
    .flatMap((p) => p.lines)
    .filter((l) => l.account === 'studio')
    .reduce((s, l) => s + l.amount, 0);

/** What the ledger service does with an order's events, without the database. */
function post(events: { gross: number; shareBp: number | null; feeBp: number; refunds: { amount: number; chargeback: boolean }[] }) {
  const postings = [paymentPosting(events.gross, events.shareBp), feePosting(Math.floor((events.gross * events.feeBp) / 10_000), events.shareBp)];
  let refunded = 0;
  for (const refund of events.refunds) {
    const amount = Math.min(refund.amount, events.gross - refunded);
    if (amount <= 0) continue;
    postings.push(refundPosting(refund.chargeback ? 'chargeback' : 'refund', amount, refunded, events.gross, events.shareBp));
    refunded += amount;
  }
  return { postings, refunded };
}

describe('the ledger arithmetic (decision 149)', () => {
  it('every posting sums to zero, and its split matches its lines', () => {
    fc.assert(
      fc.property(orderEvents, fc.integer({ min: -1_000_000, max: 1_000_000 }), fc.integer({ min: 1, max: 1_000_000 }), (events, correction, payout) => {
        const { postings } = post(events);
        postings.push(
          correctionPosting(correction),
          ...(['payout', 'payout-sent', 'payout-failed', 'payout-returned'] as const).map((k) => payoutPosting(k, payout)),
        );
        for (const p of postings) {
          expect(postingSum(p)).toBe(0);
          expect(p.lines.filter((l) => l.account === 'studio').reduce((s, l) => s + l.amount, 0)).toBe(p.studio);
          expect(p.lines.filter((l) => l.account === 'platform').reduce((s, l) => s + l.amount, 0)).toBe(p.platform);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('refunds never give back more than was paid, and refunding all of it in pieces reverses the shares exactly', () => {
    fc.assert(
      fc.property(orderEvents, (events) => {
        const { postings, refunded } = post(events);
        const back = postings.filter((p) => p.kind === 'refund' || p.kind === 'chargeback').reduce((s, p) => s - p.gross, 0);
        expect(back).toBe(refunded);
        expect(back).toBeLessThanOrEqual(events.gross);
        const fee = postings[1]!;
        const studio = studioOf(postings);
        // The studio keeps its share of what was not given back, less its share of the fee, and never more than it was paid.
        expect(studio).toBeLessThanOrEqual(events.shareBp === null ? 0 : studioPart(events.gross, events.shareBp));
        if (refunded === events.gross) expect(studio).toBe(fee.studio);
      }),
      { numRuns: 1000 },
    );
  });

  it('gives the worked example of docs/payments.md', () => {
    const postings = [
      paymentPosting(999, 7000),
      feePosting(49, 7000),
      refundPosting('refund', 400, 0, 999, 7000),
      refundPosting('refund', 599, 400, 999, 7000),
    ];
    expect(postings.map((p) => [p.platform, p.studio])).toEqual([
      [300, 699],
      [-15, -34],
      [-121, -279],
      [-179, -420],
    ]);
  });

  it('a house game leaves everything to the platform; a studio at 70% gets 70% rounded down', () => {
    expect(paymentPosting(199, null).lines).toEqual([
      { account: 'buyers', amount: -199, held: false },
      { account: 'platform', amount: 199, held: false },
    ]);
    const payment = paymentPosting(199, 7000);
    expect([payment.studio, payment.platform]).toEqual([139, 60]);
    expect(feePosting(9, 7000)).toMatchObject({ studio: -6, platform: -3, deductions: 9 });
  });
});
