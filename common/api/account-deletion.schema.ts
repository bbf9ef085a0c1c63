import { z } from 'zod';

/* Schemas of account deletion (decision 147): closing an account, restored by a sign-in within the grace period, erased after it. */

export const AccountDeletionSchema = z.object({
  graceDays: z.number().int().describe('Days a closed account waits before it is erased; a sign-in within them restores it'),
  liveGames: z.number().int().describe('Published games the member is the developer of: they stay listed after the erasure'),
  hasPassword: z.boolean().describe('Whether deleting asks for the password (else a sign-in of the last 10 minutes)'),
  restoredAt: z.string().nullable().describe('When a sign-in restored the account after a deletion request, within the last day; else null'),
});
export type AccountDeletion = z.infer<typeof AccountDeletionSchema>;

export const AccountDeletionBodySchema = z.object({
  currentPassword: z
    .string()
    .max(128)
    // No password holds a NUL: refused as a wrong one, never passed on.
    .refine((password) => !password.includes('\u0000'), 'accounts:password.currentIncorrect')
    .optional()
    .describe("The account's password; without one, a sign-in of the last 10 minutes"),
});

export const AccountDeletionRequestedSchema = z.object({
  requestedAt: z.string().describe('ISO-8601 UTC'),
  erasedAfter: z.string().describe('When the account is erased unless its member signs in again before (ISO-8601 UTC)'),
});
export type AccountDeletionRequested = z.infer<typeof AccountDeletionRequestedSchema>;
