import { z } from 'zod';
import { FLOW_ID_PATTERN, SOCIAL_PLATFORMS } from '../social-platforms.ts';
import { PhoneSchema, SessionSchema, UserInfoSchema } from './accounts.schema.ts';

/*
 * Schemas of the social sign-in calls (spec sections 3 and 7; decision 063). The body of the login
 * and link calls is the pop-up's message data; WhatsApp's is the number and the code it received.
 * Rule messages are translation keys of the `social` namespace.
 */

export const PlatformParamsSchema = z.object({
  platform: z.enum(SOCIAL_PLATFORMS).meta({ description: 'google, apple, discord, facebook, x or whatsapp' }),
});

/** A phone number that is required (PhoneSchema turns an empty one into null). */
const RequiredPhoneSchema = PhoneSchema.refine((v): v is string => v !== null, 'social:whatsapp.phoneMissing');

/** POST /oauth/login/{platform} and /oauth/link/{platform}: the pop-up message's data. */
export const SocialMessageSchema = z
  .object({
    platform: z.enum(SOCIAL_PLATFORMS).optional().meta({ description: 'The platform, as in the path' }),
    code: z.string().min(1, 'social:errors.codeMissing').max(2048).meta({ description: "The provider's authorization code, or the 6-digit WhatsApp code" }),
    state: z
      .string()
      .regex(/^[A-Za-z0-9_-]{16,128}$/, 'social:errors.state')
      .optional()
      .meta({ description: 'The state the provider returned (OAuth providers)' }),
    flow: z
      .string()
      .regex(FLOW_ID_PATTERN, 'social:errors.state')
      .optional()
      .meta({ description: 'The flow id the page opened the pop-up with (OAuth providers)' }),
    user: z.string().max(4096).optional().meta({ description: "Apple's `user` field (the name, sent on the first sign-in only)" }),
    phone: RequiredPhoneSchema.optional().meta({ description: 'The WhatsApp number the code was sent to (international form)' }),
    login: z.literal('force').optional().meta({ description: '"force" on the login call' }),
  })
  .meta({ description: 'The data of the pop-up\'s "oauth" message, or a WhatsApp number and code' });
export type SocialMessage = z.output<typeof SocialMessageSchema>;

/** The login and link answers: the session in data.data (spec section 5: "social call token in data.data.token"). */
export const SocialSessionSchema = z.object({ data: SessionSchema });
export type SocialSession = z.infer<typeof SocialSessionSchema>;

/** PATCH /member/social/unbind/{platform}. */
export const UnbindBodySchema = z.object({ platform: z.enum(SOCIAL_PLATFORMS).optional() });
export const UnbindResultSchema = z.object({ userInfo: UserInfoSchema });
export type UnbindResult = z.infer<typeof UnbindResultSchema>;

/** POST /oauth/whatsapp/code/. */
export const PhoneCodeRequestSchema = z.object({ phone: RequiredPhoneSchema });
export const PhoneCodeSentSchema = z.object({
  expiresInSeconds: z.number().int().meta({ description: 'How long the code works' }),
});
export type PhoneCodeSent = z.infer<typeof PhoneCodeSentSchema>;

/** The WhatsApp code: six digits. */
export const PHONE_CODE_PATTERN = /^\d{6}$/;
