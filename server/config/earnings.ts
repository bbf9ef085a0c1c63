// The studios' earnings area of the configuration (decision 149): the default revenue share and the hold before a payment's share can be paid out.
import { z } from 'zod';

export interface EarningsConfig {
  /** The studio's default share of what an order leaves after the provider's deductions, in basis points. */
  defaultShareBp: number;
  /** Days a payment's studio share waits before it can be paid out (refunds come within it). */
  holdDays: number;
}

/** The variables of this area. */
export const earningsEnvShape = {
  /** Percent of what remains after the payment provider's fee and withheld taxes that goes to the studio, unless an operator set other terms. */
  EARNINGS_STUDIO_SHARE_PERCENT: z.coerce.number().min(0).max(100).default(70),
  EARNINGS_HOLD_DAYS: z.coerce.number().int().min(0).max(365).default(30),
};

type EarningsEnv = z.infer<z.ZodObject<typeof earningsEnvShape>>;

export function earningsConfigOf(env: EarningsEnv): EarningsConfig {
  return { defaultShareBp: Math.round(env.EARNINGS_STUDIO_SHARE_PERCENT * 100), holdDays: env.EARNINGS_HOLD_DAYS };
}
