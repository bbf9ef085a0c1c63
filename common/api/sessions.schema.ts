import { z } from 'zod';

/* Schemas of "Where you're signed in" (decision 142): kept apart from accounts.schema.ts, which every page loads. */

/** How a session was opened: the way of signing in its token was issued for. */
export const SIGN_IN_METHODS = ['password', 'device', 'passkey', 'guest', 'google', 'apple', 'discord', 'facebook', 'x', 'whatsapp', 'unknown'] as const;
export type SignInMethod = (typeof SIGN_IN_METHODS)[number];

/** One of the member's sessions (access tokens); no place is given, there is no local database to find one. */
export const SignedInSessionSchema = z.object({
  id: z.number().int(),
  method: z.enum(SIGN_IN_METHODS).meta({ description: 'How the session was signed in' }),
  browser: z.string().nullable().meta({ description: 'The browser, read from the User-Agent at sign-in; null when not recognised' }),
  system: z.string().nullable().meta({ description: 'The operating system, read from the User-Agent at sign-in; null when not recognised' }),
  createdAt: z.string().meta({ description: 'Sign-in time (ISO 8601)' }),
  lastUsedAt: z.string().meta({ description: 'Last use, to within a minute (ISO 8601)' }),
  expiresAt: z
    .string()
    .meta({ description: 'When the session ends however active it is (SESSION_MAX_AGE_DAYS after sign-in), unless unused for a year before' }),
  current: z.boolean().meta({ description: 'true for the session of the token this call was made with' }),
});
export type SignedInSession = z.infer<typeof SignedInSessionSchema>;

export const SignedInSessionListSchema = z.object({ items: z.array(SignedInSessionSchema) });
export type SignedInSessionList = z.infer<typeof SignedInSessionListSchema>;

export const SignedInSessionIdParamsSchema = z.object({ id: z.coerce.number().int().min(1).max(2_147_483_647) });

export const SessionsEndedSchema = z.object({ ended: z.number().int().meta({ description: 'How many sessions ended' }) });
export type SessionsEnded = z.infer<typeof SessionsEndedSchema>;
