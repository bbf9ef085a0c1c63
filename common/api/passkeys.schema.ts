import { z } from 'zod';
import { SessionSchema, UserInfoSchema } from './accounts.schema.ts';

/*
 * Schemas of the passkey calls (spec sections 3 and 7). The ceremony payloads are the JSON forms
 * of WebAuthn (base64url strings) that @simplewebauthn/browser produces; the server checks them
 * with @simplewebauthn/server. Rule messages are translation keys of the `passkeys` namespace.
 */

const Base64Url = z
  .string()
  .min(1)
  .max(16_384)
  .regex(/^[A-Za-z0-9_-]+$/, 'passkeys:errors.malformed');
export const PASSKEY_NAME_MAX = 64;

export const RegistrationResponseSchema = z
  .object({
    id: Base64Url,
    rawId: Base64Url,
    type: z.literal('public-key'),
    response: z.object({
      attestationObject: Base64Url,
      clientDataJSON: Base64Url,
      transports: z.array(z.string().max(32)).max(10).optional(),
      publicKeyAlgorithm: z.number().int().optional(),
      publicKey: Base64Url.optional(),
      authenticatorData: Base64Url.optional(),
    }),
    authenticatorAttachment: z.string().max(32).optional(),
    clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
  })
  .meta({ description: 'The result of navigator.credentials.create() in its JSON form' });
export type RegistrationResponseBody = z.infer<typeof RegistrationResponseSchema>;

export const AuthenticationResponseSchema = z
  .object({
    id: Base64Url,
    rawId: Base64Url,
    type: z.literal('public-key'),
    response: z.object({
      authenticatorData: Base64Url,
      clientDataJSON: Base64Url,
      signature: Base64Url,
      userHandle: Base64Url.optional(),
    }),
    authenticatorAttachment: z.string().max(32).optional(),
    clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
  })
  .meta({ description: 'The result of navigator.credentials.get() in its JSON form' });
export type AuthenticationResponseBody = z.infer<typeof AuthenticationResponseSchema>;

/** Options for the browser's ceremony, inside `data.data` as the spec reads them. */
export const CeremonyOptionsSchema = z.object({
  data: z.record(z.string(), z.unknown()).meta({ description: 'PublicKeyCredentialCreationOptionsJSON or …RequestOptionsJSON' }),
});
export type CeremonyOptions = z.infer<typeof CeremonyOptionsSchema>;

export const PasskeySchema = z.object({
  id: z.number().int(),
  name: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
  backedUp: z.boolean().meta({ description: 'synced to the provider’s cloud (a multi-device passkey)' }),
});
export type Passkey = z.infer<typeof PasskeySchema>;

export const PasskeyListSchema = z.object({ items: z.array(PasskeySchema) });
export type PasskeyList = z.infer<typeof PasskeyListSchema>;

export const PasskeyIdParamsSchema = z.object({ id: z.coerce.number().int().min(1).max(2_147_483_647) });

export const PasskeyRenameSchema = z.object({
  name: z.string().trim().min(1, 'passkeys:errors.nameRequired').max(PASSKEY_NAME_MAX, 'passkeys:errors.nameTooLong'),
});
export type PasskeyRename = z.infer<typeof PasskeyRenameSchema>;

/** A registered passkey: the new session (the token rotates, as on any new way to sign in) and the passkey. */
export const PasskeyCreatedSchema = SessionSchema.extend({ passkey: PasskeySchema });
export type PasskeyCreated = z.infer<typeof PasskeyCreatedSchema>;

export const PasskeyDeletedSchema = z.object({ userInfo: UserInfoSchema });
export type PasskeyDeleted = z.infer<typeof PasskeyDeletedSchema>;
