// The payments area of the configuration: Xsolla, the built-in sandbox, or no card payments (decision 064).
import { createHmac } from 'node:crypto';
import { z } from 'zod';
import { booleanFromEnv, OptionalHttpUrl, OptionalText } from './env-values.ts';

function paymentsProviderOf(env: { PAYMENTS_PROVIDER?: 'xsolla' | 'sandbox' | 'off' | undefined; XSOLLA_API_KEY?: string | undefined; APP_ENV: string }) {
  return env.PAYMENTS_PROVIDER ?? (env.XSOLLA_API_KEY ? 'xsolla' : env.APP_ENV === 'production' ? 'off' : 'sandbox');
}

export type PaymentsConfig =
  | {
      provider: 'xsolla';
      projectId: string;
      apiKey: string;
      webhookSecret: string;
      sandbox: boolean;
      apiUrl: string;
      payStationUrl: string;
      /** Refunds through the merchant API; null without XSOLLA_MERCHANT_ID. */
      merchant: { id: string; apiUrl: string } | null;
    }
  | { provider: 'sandbox'; webhookSecret: string; webhookUrl: string }
  | { provider: 'off' };

/** The variables of this area. */
export const paymentsEnvShape = {
  /** Card payments: Xsolla when its credentials are set, the built-in sandbox otherwise (never in production), or none. */
  PAYMENTS_PROVIDER: z
    .enum(['xsolla', 'sandbox', 'off'])
    .optional()
    .or(z.literal('').transform(() => undefined)),
  XSOLLA_PROJECT_ID: z
    .string()
    .regex(/^\d+$/, 'must be the numeric project id')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  XSOLLA_API_KEY: OptionalText,
  /** The project's secret key: webhooks are signed with it. */
  XSOLLA_WEBHOOK_SECRET: OptionalText,
  /** Pay Station in sandbox mode (test cards) instead of live payments. */
  XSOLLA_SANDBOX: booleanFromEnv.default(false),
  XSOLLA_API_URL: z.url({ protocol: /^https?$/ }).default('https://store.xsolla.com/api'),
  XSOLLA_PAYSTATION_URL: z.url({ protocol: /^https?$/ }).default('https://secure.xsolla.com/paystation4/'),
  XSOLLA_SANDBOX_PAYSTATION_URL: z.url({ protocol: /^https?$/ }).default('https://sandbox-secure.xsolla.com/paystation4/'),
  /** The merchant account: refunds through Xsolla's merchant API need it (optional). */
  XSOLLA_MERCHANT_ID: z
    .string()
    .regex(/^\d+$/, 'must be the numeric merchant id')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  XSOLLA_MERCHANT_API_URL: z.url({ protocol: /^https?$/ }).default('https://api.xsolla.com'),
  /** Where the sandbox checkout sends its notifications: this server's webhook. */
  PAYMENT_WEBHOOK_URL: OptionalHttpUrl,
};

type PaymentsEnv = z.infer<z.ZodObject<typeof paymentsEnvShape>> & { APP_ENV: string; APP_SECRET: string };

/** The checks across this area's variables: Xsolla's credentials together, no sandbox in production. */
export function checkPaymentsEnv(env: PaymentsEnv, ctx: z.RefinementCtx): void {
  const payments = paymentsProviderOf(env);
  if (payments === 'xsolla' && (!env.XSOLLA_PROJECT_ID || !env.XSOLLA_API_KEY || !env.XSOLLA_WEBHOOK_SECRET)) {
    ctx.addIssue({ code: 'custom', path: ['PAYMENTS_PROVIDER'], message: 'xsolla needs XSOLLA_PROJECT_ID, XSOLLA_API_KEY and XSOLLA_WEBHOOK_SECRET' });
  }
  if (payments === 'sandbox' && env.APP_ENV === 'production') {
    ctx.addIssue({ code: 'custom', path: ['PAYMENTS_PROVIDER'], message: 'the sandbox grants items for test cards; it is refused in production' });
  }
}

/** The payments provider and its settings; `origin` is the public origin the sandbox's webhook defaults to. */
export function paymentsConfigOf(env: PaymentsEnv, origin: string): PaymentsConfig {
  const provider = paymentsProviderOf(env);
  if (provider === 'off') return { provider };
  if (provider === 'sandbox') {
    // The sandbox signs its notifications as Xsolla would, with a key only this deployment knows.
    const webhookSecret = createHmac('sha256', env.APP_SECRET).update('sandbox-payments-webhook').digest('hex');
    return { provider, webhookSecret, webhookUrl: env.PAYMENT_WEBHOOK_URL ?? `${origin}/serve/api/payment/xsolla/webhook/` };
  }
  return {
    provider,
    projectId: env.XSOLLA_PROJECT_ID!,
    apiKey: env.XSOLLA_API_KEY!,
    webhookSecret: env.XSOLLA_WEBHOOK_SECRET!,
    sandbox: env.XSOLLA_SANDBOX,
    apiUrl: env.XSOLLA_API_URL.replace(/\/+$/, ''),
    payStationUrl: env.XSOLLA_SANDBOX ? env.XSOLLA_SANDBOX_PAYSTATION_URL : env.XSOLLA_PAYSTATION_URL,
    merchant: env.XSOLLA_MERCHANT_ID ? { id: env.XSOLLA_MERCHANT_ID, apiUrl: env.XSOLLA_MERCHANT_API_URL.replace(/\/+$/, '') } : null,
  };
}
