/*
 * The ledger's arithmetic (decision 149), apart from the database so that generated event
 * sequences can check it: each money event becomes lines, one per account, whose amounts (minor
 * units of one currency, positive: the account is owed or holds more) sum to zero.
 */

/** The ledger's accounts; `studio`, `payouts-in-transit` and `payouts-sent` are kept per studio. */
export type LedgerAccount = 'buyers' | 'provider-deductions' | 'platform' | 'studio' | 'payouts-in-transit' | 'payouts-sent';

export type LedgerEntryKind =
  'payment' | 'provider-fee' | 'refund' | 'chargeback' | 'correction' | 'payout' | 'payout-sent' | 'payout-failed' | 'payout-returned';

export interface LedgerLine {
  account: LedgerAccount;
  amount: number;
  /** Whether the line waits for the hold before it can be paid out (a payment's studio share and its fee). */
  held: boolean;
}

/** A money event as it is posted: the lines, and how the buyer's money was split, for statements. */
export interface LedgerPosting {
  kind: LedgerEntryKind;
  lines: LedgerLine[];
  gross: number;
  deductions: number;
  platform: number;
  studio: number;
}

/** Basis points of a whole: 10,000. */
export const WHOLE_BP = 10_000;

/** The studio's part of `amount` at `shareBp`, rounded down: the platform keeps the odd minor unit. */
export function studioPart(amount: number, shareBp: number): number {
  return Math.floor((amount * shareBp) / WHOLE_BP);
}

/**
 * The part of `total` that `portion` of `whole` carries, so that parts taken one after another
 * add up to exactly `total` once the portions reach `whole`: the difference of the rounded
 * cumulative shares. A refund given back in three pieces reverses exactly what one whole refund would.
 */
export function proRata(total: number, before: number, portion: number, whole: number): number {
  if (whole <= 0) return 0;
  return Math.floor((total * (before + portion)) / whole) - Math.floor((total * before) / whole);
}

const line = (account: LedgerAccount, amount: number, held = false): LedgerLine => ({ account, amount, held });

/** `-n` without JavaScript's negative zero, which compares unequal to 0 in tests and JSON. */
const neg = (n: number) => (n === 0 ? 0 : -n);

/** Lines with an amount; a split where one side is zero writes no empty line. */
const nonZero = (lines: LedgerLine[]) => lines.filter((l) => l.amount !== 0);

/**
 * A paid order: the buyer's `gross` goes to the studio (its share, held) and the platform (the
 * rest). A house game (no studio) leaves it all to the platform.
 */
export function paymentPosting(gross: number, shareBp: number | null): LedgerPosting {
  const studio = shareBp === null ? 0 : studioPart(gross, shareBp);
  return {
    kind: 'payment',
    lines: nonZero([line('buyers', neg(gross)), line('studio', studio, true), line('platform', gross - studio)]),
    gross,
    deductions: 0,
    platform: gross - studio,
    studio,
  };
}

/** The provider's fee and withheld taxes of a paid order, borne by studio and platform in their shares. */
export function feePosting(deductions: number, shareBp: number | null): LedgerPosting {
  const studio = shareBp === null ? 0 : studioPart(deductions, shareBp);
  return {
    kind: 'provider-fee',
    lines: nonZero([line('provider-deductions', deductions), line('studio', neg(studio), true), line('platform', neg(deductions - studio))]),
    gross: 0,
    deductions,
    platform: neg(deductions - studio),
    studio: neg(studio),
  };
}

/**
 * Money given back to the buyer: `amount` of an order of `gross` of which `refundedBefore` was
 * given back already. Studio and platform give back their shares of the payment pro rata, so a
 * whole order given back in pieces reverses its payment exactly. The provider keeps its fee.
 */
export function refundPosting(kind: 'refund' | 'chargeback', amount: number, refundedBefore: number, gross: number, shareBp: number | null): LedgerPosting {
  const paidToStudio = shareBp === null ? 0 : studioPart(gross, shareBp);
  const studio = proRata(paidToStudio, refundedBefore, amount, gross);
  return {
    kind,
    lines: nonZero([line('buyers', amount), line('studio', neg(studio)), line('platform', neg(amount - studio))]),
    gross: neg(amount),
    deductions: 0,
    platform: neg(amount - studio),
    studio: neg(studio),
  };
}

/** An operator's correction of a studio's balance, against the platform's. */
export function correctionPosting(amount: number): LedgerPosting {
  return {
    kind: 'correction',
    lines: nonZero([line('studio', amount), line('platform', neg(amount))]),
    gross: 0,
    deductions: 0,
    platform: neg(amount),
    studio: amount,
  };
}

/**
 * A payout's steps: approved, the amount leaves the studio's balance for transit; sent and
 * confirmed, it is paid out; failed (never left) or returned (came back), it goes back to the balance.
 */
export function payoutPosting(kind: 'payout' | 'payout-sent' | 'payout-failed' | 'payout-returned', amount: number): LedgerPosting {
  const lines =
    kind === 'payout'
      ? [line('studio', neg(amount)), line('payouts-in-transit', amount)]
      : kind === 'payout-sent'
        ? [line('payouts-in-transit', neg(amount)), line('payouts-sent', amount)]
        : kind === 'payout-failed'
          ? [line('payouts-in-transit', neg(amount)), line('studio', amount)]
          : [line('payouts-sent', neg(amount)), line('studio', amount)];
  const studio = lines.find((l) => l.account === 'studio')?.amount ?? 0;
  return { kind, lines, gross: 0, deductions: 0, platform: 0, studio };
}

/** The sum of a posting's lines: zero for every posting this module makes. */
export const postingSum = (posting: LedgerPosting) => posting.lines.reduce((sum, l) => sum + l.amount, 0);
