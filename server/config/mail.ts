import { z } from 'zod';

/** Where the development stand-in (`smtp-server`, started with the server in development) listens. */
export const DEVELOPMENT_SMTP_URL = 'smtp://127.0.0.1:2525';

/** Outgoing mail (decision 141). */
export const mailEnvShape = {
  /** smtp://user:pass@host:port, or smtps:// for TLS from the start. */
  SMTP_URL: z
    .string()
    .trim()
    .refine((value) => /^smtps?:\/\/[^/]+\/?$/.test(value) && URL.canParse(value), 'must be smtp://[user:pass@]host[:port] or smtps://…')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  MAIL_FROM: z.string().trim().min(3).max(200).default('Playport <no-reply@playport.localhost>'),
};

/** The mail server: SMTP_URL, else the local stand-in outside production; null (mail off) in production without it. */
export interface MailConfig {
  smtpUrl: string | null;
  from: string;
}

export function mailConfigOf(env: { APP_ENV: string; SMTP_URL?: string | undefined; MAIL_FROM: string }): MailConfig {
  return { smtpUrl: env.SMTP_URL ?? (env.APP_ENV === 'production' ? null : DEVELOPMENT_SMTP_URL), from: env.MAIL_FROM };
}
