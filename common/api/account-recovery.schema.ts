import { z } from 'zod';
import { EmailBodySchema, PasswordSchema, PhoneBodySchema, UsernameSchema } from './accounts.schema.ts';
import { type Locale, LOCALE_CODES } from '../locales.ts';

/* Verified email and "Forgot password" (decision 146). Rule messages are translation keys of `accounts`. */

const MailLocaleSchema = z
  .enum(LOCALE_CODES as [Locale, ...Locale[]])
  .optional()
  .meta({ description: 'The language of the mail this sends; English when absent' });
const CurrentPasswordSchema = z
  .string()
  .max(1024)
  .optional()
  .meta({ description: "The account's password, when a confirmed address is changed or removed; without one, a sign-in of the last 10 minutes" });

/** PATCH /member/email/ body: the address, and what changing a confirmed one needs. */
export const EmailChangeBodySchema = EmailBodySchema.extend({ currentPassword: CurrentPasswordSchema, locale: MailLocaleSchema });

/** PATCH /member/phone/ body: the number, and what changing a member's saved one needs. */
export const PhoneChangeBodySchema = PhoneBodySchema.extend({
  currentPassword: CurrentPasswordSchema.meta({
    description: "A member's password, when a saved number is changed or removed; without one, a sign-in of the last 10 minutes",
  }),
});

export const EmailStatusSchema = z.object({
  email: z.string().nullable(),
  verified: z.boolean().describe('Whether the address is confirmed; only a confirmed address is used to recover the account'),
  codeSentTo: z.string().nullable().describe('The address a code waits for, while it can still be used'),
  codeExpiresAt: z.string().nullable(),
});
export type EmailStatus = z.infer<typeof EmailStatusSchema>;

export const EmailCodeRequestBodySchema = z.object({ locale: MailLocaleSchema });

export const EmailCodeBodySchema = z.object({
  code: z
    .string()
    .trim()
    .regex(/^\d{6}$/, 'accounts:email.codeWrong')
    .meta({ description: 'The 6 digits of the mail' }),
});

export const ForgotPasswordBodySchema = z.object({
  email: z.string().trim().min(1, 'accounts:email.invalid').max(254, 'accounts:email.invalid').pipe(z.email('accounts:email.invalid')),
  locale: MailLocaleSchema,
});

export const ForgotPasswordAnswerSchema = z.object({
  sent: z.literal(true).describe('Always true: the answer never tells whether an account has the address'),
});

const ResetTokenSchema = z
  .string()
  .regex(/^[A-Za-z0-9_-]{43}$/, 'accounts:reset.linkExpired')
  .meta({ description: 'The token of the link in the mail' });

export const ResetLinkBodySchema = z.object({ token: ResetTokenSchema });

export const ResetLinkSchema = z.object({
  account: z.string().describe('The account the link is for: its username, else its nickname'),
  needsUsername: z.boolean().describe('true when the account has no username yet: the reset chooses one, to sign in with'),
});
export type ResetLink = z.infer<typeof ResetLinkSchema>;

export const PasswordResetBodySchema = z.object({
  token: ResetTokenSchema,
  password: PasswordSchema,
  username: UsernameSchema.optional().meta({ description: 'Required when the account has no username yet' }),
});
export type PasswordResetBody = z.output<typeof PasswordResetBodySchema>;

export const PasswordResetSchema = z.object({
  username: z.string().describe('The username to sign in with'),
  sessionsEnded: z.number().int().describe('The sessions the reset ended: every one of the account'),
});
export type PasswordReset = z.infer<typeof PasswordResetSchema>;

export const NotMeBodySchema = z.object({
  key: z
    .string()
    .regex(/^[A-Za-z0-9_-]{43}$/, 'accounts:reset.linkExpired')
    .meta({ description: 'The key of a notice\'s "this wasn\'t me" link' }),
});

export const NotMeSchema = z.object({
  resetKey: z.string().describe('The key of a new reset link (30 minutes): the page goes on to /login/reset?key=…'),
  sessionsEnded: z.number().int().describe('Every session of the account, ended'),
});
