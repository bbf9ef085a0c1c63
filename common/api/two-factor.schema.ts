import { z } from 'zod';

/* Schemas of two-step sign-in (decision 145). Rule messages are translation keys of `accounts`. */

export const TwoFactorStatusSchema = z.object({
  enabled: z.boolean(),
  enabledAt: z.string().nullable(),
  recoveryCodesLeft: z.number().int().describe('Unused recovery codes; 0 when it is off'),
});
export type TwoFactorStatus = z.infer<typeof TwoFactorStatusSchema>;

export const TwoFactorSetUpSchema = z.object({
  secret: z.string().describe('The key in base32, for typing into the app by hand'),
  uri: z.string().describe('The otpauth:// key URI the QR code holds'),
  qrCode: z.string().describe('The QR code as a data: URL of an SVG image'),
});
export type TwoFactorSetUp = z.infer<typeof TwoFactorSetUpSchema>;

export const TwoFactorCodeBodySchema = z.object({ code: z.string().trim().min(1, 'accounts:twoFactor.codeRequired').max(32, 'accounts:twoFactor.codeWrong') });

export const RecoveryCodesSchema = z.object({ recoveryCodes: z.array(z.string()).describe('Ten single-use codes, shown this once') });

export const IdentityBodySchema = z.object({
  currentPassword: z.string().max(128).optional().describe("The account's password; without one, a sign-in of the last 10 minutes"),
});

export const TwoFactorLoginBodySchema = z.object({
  ticket: z.string().min(1).max(200),
  code: z.string().trim().min(1, 'accounts:twoFactor.codeRequired').max(32, 'accounts:twoFactor.codeWrong'),
});

export const TwoFactorRequiredSchema = z.object({ ticket: z.string().describe('Sent back with the code to /username/login/two-factor/ within 5 minutes') });
