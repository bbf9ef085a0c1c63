import { z } from 'zod';

/*
 * Schemas of the Console's part of studios' earnings (decision 149): a studio's revenue terms and
 * the reconciliation of the payment provider's transaction report with the ledger. Operators
 * only; rule messages are translation keys of the `console` namespace.
 */

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/;

/** A percent with at most two decimals (a basis point), 0 to 100. */
const SharePercent = z
  .number()
  .min(0, 'console:earnings.errors.sharePercent')
  .max(100, 'console:earnings.errors.sharePercent')
  .refine((n) => Math.abs(n * 100 - Math.round(n * 100)) < 1e-6, 'console:earnings.errors.shareDecimals');

export const StudioParamsSchema = z.object({ user_id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) });

export const SetRevenueTermsBodySchema = z.object({
  sharePercent: SharePercent.meta({
    description: 'The studio’s percent of what an order leaves after the provider’s fee and withheld taxes: 0–100, at most 2 decimals',
  }),
  startsAt: z
    .string()
    .trim()
    .refine((s) => (DAY.test(s) || INSTANT.test(s)) && Number.isFinite(Date.parse(s)), 'console:earnings.errors.startsAtFormat')
    .meta({
      description:
        'When the terms start: a day (`YYYY-MM-DD`, from 00:00 UTC) or an ISO 8601 instant; today or later (a start earlier today means from now on), at most 5 years ahead. Orders keep the share in force when they were paid, so a start in the past would re-split nothing',
    }),
  reason: z
    .string()
    .trim()
    .min(3, 'console:ops.errors.reasonShort')
    .max(500, 'console:ops.errors.reasonLong')
    .meta({ description: 'Why: 3–500 characters, kept with the terms and in the audit log' }),
});
export type SetRevenueTermsBody = z.infer<typeof SetRevenueTermsBodySchema>;

export const LedgerCorrectionBodySchema = z.object({
  amount: z
    .number()
    .int('console:earnings.errors.correctionAmount')
    .min(-100_000_000, 'console:earnings.errors.correctionAmount')
    .max(100_000_000, 'console:earnings.errors.correctionAmount')
    .refine((n) => n !== 0, 'console:earnings.errors.correctionAmount')
    .meta({
      description: "Minor units added to the studio's balance (negative: taken from it), against the platform's; not zero, at most 1,000,000.00 either way",
    }),
  currency: z
    .string()
    .regex(/^[A-Z]{3}$/, 'console:earnings.errors.correctionCurrency')
    .meta({ description: 'ISO 4217 code, upper case' }),
  reason: z
    .string()
    .trim()
    .min(3, 'console:ops.errors.reasonShort')
    .max(500, 'console:ops.errors.reasonLong')
    .meta({ description: 'Why: 3–500 characters, kept on the entry and in the audit log' }),
  idempotencyKey: z
    .string()
    .regex(/^[A-Za-z0-9_-]{8,64}$/, 'console:earnings.errors.correctionKey')
    .meta({ description: 'Chosen by the client: the same key posts the correction once however often it is sent' }),
});
export type LedgerCorrectionBody = z.infer<typeof LedgerCorrectionBodySchema>;

export const LedgerCorrectionSchema = z.object({
  posted: z.boolean().meta({ description: 'false when this key had posted it already: nothing more was posted' }),
  amount: z.number().int(),
  currency: z.string(),
  postedAt: z.string(),
});
export type LedgerCorrection = z.infer<typeof LedgerCorrectionSchema>;

export const RevenueTermsEntrySchema = z.object({
  sharePercent: z.number(),
  startsAt: z.string(),
  reason: z.string(),
  createdAt: z.string(),
});
export const StudioRevenueTermsSchema = z.object({
  studio: z
    .object({ userId: z.number().int(), studioName: z.string() })
    .nullable()
    .meta({ description: 'Null for a member without a studio profile (or no member): no terms, and none can be set' }),
  defaultSharePercent: z.number().meta({ description: 'EARNINGS_STUDIO_SHARE_PERCENT: the share of a studio without terms of its own' }),
  currentSharePercent: z.number().meta({ description: 'The share an order paid now would be split at' }),
  terms: z.array(RevenueTermsEntrySchema).meta({ description: 'Every terms set, the latest start first; those starting later than now are scheduled' }),
});
export type StudioRevenueTerms = z.infer<typeof StudioRevenueTermsSchema>;

export const RECONCILIATION_KINDS = [
  'missing_from_ledger',
  'missing_from_report',
  'amount_differs',
  'fee_differs',
  'currency_differs',
  'refund_differs',
  'duplicate_row',
  'unknown_row',
] as const;
export type ReconciliationKind = (typeof RECONCILIATION_KINDS)[number];

const Side = z
  .object({ currency: z.string().nullable(), amount: z.number().int().nullable(), fee: z.number().int().nullable(), refunded: z.number().int().nullable() })
  .nullable();

export const ReconciliationDifferenceSchema = z.object({
  kind: z.enum(RECONCILIATION_KINDS),
  line: z.number().int().nullable().meta({ description: 'The report’s line (1: the header), null for a ledger payment the report lacks' }),
  transactionId: z.string().nullable(),
  orderId: z.string().nullable().meta({ description: 'The order’s public id (the report’s external id)' }),
  report: Side.meta({ description: 'What the report says, amounts in minor units of its currency' }),
  ledger: Side.meta({ description: 'What the ledger says, amounts in minor units of its currency' }),
  note: z.string().nullable(),
});
export type ReconciliationDifference = z.infer<typeof ReconciliationDifferenceSchema>;

export const ReconciliationQuerySchema = z.object({
  from: z
    .string()
    .regex(DAY, 'console:earnings.errors.dayFormat')
    .optional()
    .meta({ description: 'First day (UTC, `YYYY-MM-DD`); default: the report’s first' }),
  to: z.string().regex(DAY, 'console:earnings.errors.dayFormat').optional().meta({ description: 'Last day (UTC, included); default: the report’s last' }),
});

export const ReconciliationResultSchema = z.object({
  period: z.object({ from: z.string().nullable(), to: z.string().nullable() }),
  rows: z.number().int().meta({ description: 'Transaction rows read from the report' }),
  matched: z.number().int().meta({ description: 'Rows that agree with the ledger' }),
  ledgerPayments: z.number().int().meta({ description: 'Payments of the ledger in the period' }),
  differences: z.array(ReconciliationDifferenceSchema),
});
export type ReconciliationResult = z.infer<typeof ReconciliationResultSchema>;
