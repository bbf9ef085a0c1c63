// The payouts area of the configuration: how studios' payouts are sent (decision 149): PayPal's
// Payouts API, a stand-in that records transfers in a file (never in production), or none.
import { z } from 'zod';
import { OptionalText } from './env-values.ts';

export type PayoutsConfig = {
  /** The smallest available balance proposed for a payout, in major units of its currency. */
  minimumMajor: number;
} & ({ provider: 'paypal'; clientId: string; clientSecret: string; apiUrl: string } | { provider: 'stand-in'; file: string } | { provider: 'off' });

/** The variables of this area. */
export const payoutsEnvShape = {
  /** How payouts are sent: PayPal with its credentials, else the stand-in (never in production), or none. */
  PAYOUTS_PROVIDER: z
    .enum(['paypal', 'stand-in', 'off'])
    .optional()
    .or(z.literal('').transform(() => undefined)),
  PAYPAL_CLIENT_ID: OptionalText,
  PAYPAL_CLIENT_SECRET: OptionalText,
  PAYPAL_API_URL: z.url({ protocol: /^https?$/ }).default('https://api-m.paypal.com'),
  /** Where the stand-in records its transfers, one JSON line each. */
  PAYOUTS_STAND_IN_FILE: z.string().min(1).default('data/payouts-stand-in.jsonl'),
  PAYOUT_MINIMUM: z.coerce.number().positive().max(1_000_000).default(10),
};

type PayoutsEnv = z.infer<z.ZodObject<typeof payoutsEnvShape>> & { APP_ENV: string };

function payoutsProviderOf(env: PayoutsEnv): 'paypal' | 'stand-in' | 'off' {
  return env.PAYOUTS_PROVIDER ?? (env.PAYPAL_CLIENT_ID ? 'paypal' : env.APP_ENV === 'production' ? 'off' : 'stand-in');
}

/** The checks across this area's variables: PayPal's credentials together, no stand-in in production. */
export function checkPayoutsEnv(env: PayoutsEnv, ctx: z.RefinementCtx): void {
  const provider = payoutsProviderOf(env);
  if (provider === 'paypal' && (!env.PAYPAL_CLIENT_ID || !env.PAYPAL_CLIENT_SECRET)) {
    ctx.addIssue({ code: 'custom', path: ['PAYOUTS_PROVIDER'], message: 'paypal needs PAYPAL_CLIENT_ID and PAYPAL_CLIENT_SECRET' });
  }
  if (provider === 'stand-in' && env.APP_ENV === 'production') {
    ctx.addIssue({ code: 'custom', path: ['PAYOUTS_PROVIDER'], message: 'the stand-in only records transfers and pays nobody; it is refused in production' });
  }
}

export function payoutsConfigOf(env: PayoutsEnv): PayoutsConfig {
  const provider = payoutsProviderOf(env);
  const minimumMajor = env.PAYOUT_MINIMUM;
  if (provider === 'paypal')
    return { minimumMajor, provider, clientId: env.PAYPAL_CLIENT_ID!, clientSecret: env.PAYPAL_CLIENT_SECRET!, apiUrl: env.PAYPAL_API_URL.replace(/\/+$/, '') };
  if (provider === 'stand-in') return { minimumMajor, provider, file: env.PAYOUTS_STAND_IN_FILE };
  return { minimumMajor, provider };
}
