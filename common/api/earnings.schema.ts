import { z } from 'zod';

/*
 * A studio's earnings in the Studio (decision 149): balances per currency, the share in force, and
 * monthly statements (UTC months, closed after they end and never changed). Amounts are integer
 * minor units of their currency; a negative amount is money that went back or out.
 */

/** A UTC month, `YYYY-MM`. */
export const MONTH_PATTERN = /^\d{4}-(0[1-9]|1[0-2])$/;
/** An ISO 4217 code as the ledger keeps it. */
export const CURRENCY_PATTERN = /^[A-Z]{3}$/;

export const StatementParamsSchema = z.object({
  currency: z.string().regex(CURRENCY_PATTERN).meta({ description: 'ISO 4217 code, upper case (USD)' }),
  month: z.string().regex(MONTH_PATTERN).meta({ description: 'UTC month, YYYY-MM' }),
});

const minor = z.number().int();

export const EarningsBalanceSchema = z.object({
  currency: z.string(),
  availableMinor: minor.meta({ description: 'Owed to the studio and past the hold: what a payout can take' }),
  pendingMinor: minor.meta({ description: "Payments' studio share still in the hold (refunds come out of it)" }),
  pendingUntil: z.string().nullable().meta({ description: 'When the last amount pending now leaves the hold; null when nothing is pending' }),
  nextAvailableAt: z.string().nullable().meta({ description: 'When the next pending amount leaves the hold; null when nothing is pending' }),
  inTransitMinor: minor.meta({ description: 'Payouts approved and not yet confirmed by the payout provider' }),
  paidOutMinor: minor.meta({ description: 'Payouts the provider confirmed, over all time' }),
});
export type EarningsBalance = z.infer<typeof EarningsBalanceSchema>;

export const StatementStatusSchema = z.enum(['closed', 'open']).meta({
  description: '`closed`: frozen after the month ended; `open`: the current month (or one not closed yet), computed from the ledger at the time of the call',
});

export const StatementMonthSchema = z.object({
  currency: z.string(),
  month: z.string().meta({ description: 'UTC month, YYYY-MM' }),
  status: StatementStatusSchema,
  closingMinor: minor.meta({ description: "The studio's balance at the month's end (at the time of the call for an open month)" }),
});
export type StatementMonth = z.infer<typeof StatementMonthSchema>;

export const EarningsOverviewSchema = z.object({
  balances: z.array(EarningsBalanceSchema).meta({ description: 'One per currency the studio has earned in, by code' }),
  share: z.object({
    percent: z.number().meta({ description: "The studio's share in force now of what an order leaves after the provider's fee and withheld taxes" }),
    since: z.string().nullable().meta({ description: 'When those terms started; null for the default share' }),
    custom: z.boolean().meta({ description: 'Whether an operator set terms for this studio (else the default share)' }),
  }),
  holdDays: z.number().int().meta({ description: "Days a payment's studio share stays pending" }),
  months: z.array(StatementMonthSchema).meta({ description: 'Every statement, the newest month first, per month by currency' }),
});
export type EarningsOverview = z.infer<typeof EarningsOverviewSchema>;

export const STATEMENT_LINE_KINDS = [
  'payment',
  'provider-fee',
  'refund',
  'chargeback',
  'correction',
  'payout',
  'payout-sent',
  'payout-failed',
  'payout-returned',
] as const;

export const StatementLineSchema = z.object({
  kind: z.enum(STATEMENT_LINE_KINDS),
  appId: z.number().int().nullable(),
  gameTitle: z
    .string()
    .nullable()
    .meta({ description: "The game's title in the request's language (English, else its slug); null for payouts and corrections" }),
  itemId: z.number().int().nullable(),
  itemSku: z.string().nullable(),
  itemName: z.string().nullable().meta({ description: "The item's name in the request's language (English, else the SKU)" }),
  entries: z.number().int().min(0).meta({ description: 'Ledger entries of this kind, game and item in the month' }),
  grossMinor: minor.meta({ description: 'What buyers paid (negative: got back)' }),
  deductionsMinor: minor.meta({ description: "The payment provider's fee and withheld taxes" }),
  platformMinor: minor.meta({ description: "The portal's share" }),
  studioMinor: minor.meta({ description: "The studio's share: what the line adds to the balance" }),
});
export type StatementLine = z.infer<typeof StatementLineSchema>;

export const EarningsStatementSchema = z.object({
  currency: z.string(),
  month: z.string(),
  status: StatementStatusSchema,
  closedAt: z.string().nullable().meta({ description: 'When the statement was closed; null while open' }),
  monthEnd: z.string().meta({ description: "The month's end (the first instant of the next month, UTC): an open statement is closed after it" }),
  openingMinor: minor.meta({ description: "The balance at the month's start: the previous month's closing" }),
  earnedMinor: minor.meta({ description: "Payments' studio share less its part of the provider's fees" }),
  refundedMinor: minor.meta({ description: 'Refunds and chargebacks (negative)' }),
  correctionsMinor: minor.meta({ description: "Operators' corrections" }),
  payoutsMinor: minor.meta({ description: 'Payouts taken from the balance (negative), and failed or returned ones given back' }),
  closingMinor: minor.meta({ description: 'opening + earned + refunded + corrections + payouts' }),
  lines: z.array(StatementLineSchema).meta({ description: 'Per kind, game and item, grouped by when the entries were posted' }),
});
export type EarningsStatement = z.infer<typeof EarningsStatementSchema>;
