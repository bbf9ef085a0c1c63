import { z } from 'zod';

/* Studios' payouts (decision 149): where a studio is paid, its payouts, and the Console's approval. */

/** ISO 3166-1 alpha-2: the officially assigned codes. */
const COUNTRIES = new Set(
  (
    'AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY BZ ' +
    'CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR ' +
    'GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP ' +
    'KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT ' +
    'MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO RS RU RW ' +
    'SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG ' +
    'UM US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW'
  ).split(' '),
);

export const PAYOUT_METHODS = ['paypal', 'stand-in'] as const;
export const PAYOUT_STATUSES = ['proposed', 'approved', 'sent', 'paid', 'failed', 'returned', 'rejected'] as const;

export const PayoutDetailsBodySchema = z.object({
  method: z.enum(PAYOUT_METHODS, { error: 'studio:payouts.errors.method' }),
  receiver: z.email({ error: 'studio:payouts.errors.receiver' }).max(254, 'studio:payouts.errors.receiver'),
  legalName: z.string().trim().min(2, 'studio:payouts.errors.legalName').max(200, 'studio:payouts.errors.legalName'),
  country: z
    .string()
    .trim()
    .toUpperCase()
    .refine((code) => COUNTRIES.has(code), 'studio:payouts.errors.country')
    .meta({ description: 'ISO 3166-1 alpha-2' }),
  taxId: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9][A-Za-z0-9 ./-]{3,39}$/, 'studio:payouts.errors.taxId')
    .nullable()
    .optional()
    .meta({ description: 'Sealed under APP_SECRET and never answered whole: left out, the one stored stays; null removes it' }),
});
export type PayoutDetailsBody = z.infer<typeof PayoutDetailsBodySchema>;

export const PayoutDetailsSchema = z.object({
  details: z
    .object({
      method: z.enum(PAYOUT_METHODS),
      receiver: z.string(),
      legalName: z.string(),
      country: z.string(),
      taxIdLast4: z.string().nullable().meta({ description: 'The last 4 characters of the tax id, or null without one' }),
      updatedAt: z.string(),
    })
    .nullable(),
  /** The methods this portal sends payouts with (none when payouts are off). */
  methods: z.array(z.enum(PAYOUT_METHODS)),
  /** The smallest available balance proposed for a payout, in major units of its currency. */
  minimum: z.number(),
});
export type PayoutDetails = z.infer<typeof PayoutDetailsSchema>;

const PayoutSchema = z.object({
  id: z.string(),
  month: z.string(),
  currency: z.string(),
  amountMinor: z.number().int(),
  status: z.enum(PAYOUT_STATUSES),
  method: z.string(),
  proposedAt: z.string(),
  approvedAt: z.string().nullable(),
  sentAt: z.string().nullable(),
  settledAt: z.string().nullable(),
  failure: z.string().nullable(),
});
export type StudioPayout = z.infer<typeof PayoutSchema>;

export const StudioPayoutListSchema = z.object({ items: z.array(PayoutSchema) });

export const ConsolePayoutSchema = PayoutSchema.extend({
  studio: z.object({ id: z.number().int(), name: z.string().nullable() }),
  attempts: z.number().int(),
  /** Whether the studio still has payout details (an erased studio has none). */
  hasDetails: z.boolean(),
});
export type ConsolePayout = z.infer<typeof ConsolePayoutSchema>;

export const ConsolePayoutListSchema = z.object({ items: z.array(ConsolePayoutSchema) });
export const ConsolePayoutQuerySchema = z.object({ status: z.enum(PAYOUT_STATUSES).optional() });
export const ConsolePayoutParamsSchema = z.object({ payout_id: z.string().regex(/^po_[A-Za-z0-9]{1,40}$/) });

const Reason = z.string().trim().min(3, 'console:ops.errors.reasonShort').max(500, 'console:ops.errors.reasonLong');
export const PayoutDecisionBodySchema = z.object({ reason: Reason.meta({ description: 'Why: 3–500 characters, kept in the audit log' }) });
export const ProposeResultSchema = z.object({ proposed: z.number().int(), month: z.string() });
