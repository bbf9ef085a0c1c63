import { z } from 'zod';
import { DEVICE_ID_PATTERN, FINGERPRINT_PATTERN } from '../constants.ts';

/*
 * Schemas of the accounts calls, shared by the browser (form validation) and the server
 * (request validation, OpenAPI). Rule messages are translation keys of the `accounts`
 * namespace, so both sides show the same translated text.
 */

export const USERNAME_MIN = 3;
export const USERNAME_MAX = 20;
/** ASCII letters, digits and underscore: usernames are identifiers, so no look-alike letters. */
export const USERNAME_PATTERN = /^[A-Za-z0-9_]+$/;
const PASSWORD_MIN = 8;
const PASSWORD_MAX = 128;
const NICKNAME_MIN = 2;
const NICKNAME_MAX = 24;
/** Letters and combining marks of any script, decimal digits, space, `_`, `-` and `.`. */
const NICKNAME_PATTERN = /^[\p{L}\p{M}\p{Nd} _.-]+$/u;
const EMAIL_MAX = 254;
/** E.164: a plus sign, then 7 to 15 digits, the first not 0. */
const PHONE_PATTERN = /^\+[1-9]\d{6,14}$/;
export const AVATAR_MAX_BYTES = 5 * 1024 * 1024;
/** Shortest and longest side accepted, in pixels. */
export const AVATAR_MIN_PIXELS = 32;
export const AVATAR_MAX_PIXELS = 10_000;
/** Pixel count cap (a 48 MP phone photo fits): a small file must not decode into gigabytes. */
export const AVATAR_MAX_AREA = 64_000_000;
/** Square webp renditions of every avatar, in pixels; user info carries the largest. */
export const AVATAR_SIZES = [64, 128, 256] as const;
/** The multipart field that carries the avatar file. */
export const AVATAR_FIELD = 'avatar';

/** Length in characters a person would count (code points, not UTF-16 units). */
const length = (value: string) => [...value].length;

export const UsernameSchema = z
  .string()
  .trim()
  .refine((v) => length(v) >= USERNAME_MIN && length(v) <= USERNAME_MAX, 'accounts:username.length')
  .refine((v) => USERNAME_PATTERN.test(v), 'accounts:username.characters')
  .meta({
    description: '3–20 characters: letters a–z (any case), digits, underscore; unique regardless of case',
    minLength: USERNAME_MIN,
    maxLength: USERNAME_MAX,
    pattern: USERNAME_PATTERN.source,
    example: 'star_player',
  });

export const PasswordSchema = z
  .string()
  .refine((v) => length(v) >= PASSWORD_MIN && length(v) <= PASSWORD_MAX, 'accounts:password.length')
  .meta({ description: '8–128 characters, any characters; not trimmed', minLength: PASSWORD_MIN, maxLength: PASSWORD_MAX });

export const NicknameSchema = z
  .string()
  .transform((v) => v.normalize('NFC').trim())
  .refine((v) => length(v) >= NICKNAME_MIN && length(v) <= NICKNAME_MAX, 'accounts:nickname.length')
  .refine((v) => v === '' || NICKNAME_PATTERN.test(v), 'accounts:nickname.characters')
  .meta({ description: 'Trimmed; 2–24 characters: letters of any script, digits, spaces, `_`, `-`, `.`', minLength: NICKNAME_MIN, maxLength: NICKNAME_MAX });

const EmailFormat = z.email();

/** An email address, or an empty string to remove it. */
export const EmailSchema = z
  .string()
  .trim()
  .max(EMAIL_MAX)
  .refine((v) => v === '' || EmailFormat.safeParse(v).success, 'accounts:email.invalid')
  .transform((v) => (v === '' ? null : v))
  .meta({ description: 'An email address, or an empty string to remove it' });

/** A phone number in international form; spaces, dashes, dots and brackets are ignored. Empty removes it. */
export const PhoneSchema = z
  .string()
  .max(40)
  .transform((v) => v.replace(/[\s().-]/g, ''))
  .refine((v) => v === '' || PHONE_PATTERN.test(v), 'accounts:phone.invalid')
  .transform((v) => (v === '' ? null : v))
  .meta({
    description: 'International form starting with + and the country code (spaces, dashes, dots and brackets are ignored), or an empty string to remove it',
    example: '+44 20 7946 0958',
  });

const FingerprintSchema = z
  .string()
  .regex(FINGERPRINT_PATTERN)
  .meta({ description: 'The device fingerprint computed in the browser (FingerprintJS visitor id); the server keeps only a keyed hash' });

const DeviceIdSchema = z.string().regex(DEVICE_ID_PATTERN).meta({
  description:
    'A random value (at least 128 bits, base64url) the browser makes once and keeps in localStorage; device sign-in needs the same one as was recorded. The server keeps only a keyed hash',
  example: 'q3Jr6m0h8V5sKpYx2cNwE1fA9tLbUzGd4eHiOjQvR7M',
});

/** POST /guest/login/ body. */
/** GET /guest/challenge/: the proof of work a new guest account costs (decision 054). */
export const GuestChallengeSchema = z.object({ challenge: z.string(), difficulty: z.number().int() });
export type GuestChallenge = z.infer<typeof GuestChallengeSchema>;

/** POST /guest/login/ body: the solved challenge is required to create an account. */
export const GuestLoginBodySchema = z
  .object({
    fingerprint: FingerprintSchema.optional(),
    deviceId: DeviceIdSchema.optional().meta({ description: 'Required with fingerprint: the device is recorded only with both' }),
    challenge: z.string().max(200).optional(),
    nonce: z.string().max(16).optional(),
  })
  .refine((body) => !body.fingerprint || body.deviceId, { path: ['deviceId'], message: 'accounts:device.idRequired' });
export type GuestLoginBody = z.output<typeof GuestLoginBodySchema>;

/** POST /username/login/ body. Lenient on purpose: any mistake gets the same "incorrect" answer. */
export const UsernameLoginBodySchema = z.object({
  username: z.string().trim().min(1).max(64),
  password: z.string().min(1).max(1024),
});
export type UsernameLoginBody = z.output<typeof UsernameLoginBodySchema>;

/** POST /fingerprint/login/ body. */
export const FingerprintLoginBodySchema = z.object({ fingerprint: FingerprintSchema, deviceId: DeviceIdSchema });
export type FingerprintLoginBody = z.output<typeof FingerprintLoginBodySchema>;

/** POST /guest/device/ body: the guest's device fingerprint and device id, recorded once the page is idle. */
export const GuestDeviceBodySchema = z.object({ fingerprint: FingerprintSchema, deviceId: DeviceIdSchema });
export type GuestDeviceBody = z.output<typeof GuestDeviceBodySchema>;

/** POST /guest/device/ answer. */
export const GuestDeviceSchema = z.object({
  recorded: z.boolean().meta({ description: 'false when the account already had one, or is not a guest: nothing changed' }),
});

/** GET /guest/empty/ answer. */
export const GuestEmptinessSchema = z.object({
  empty: z.boolean().meta({
    description: 'true for a guest with nothing of its own: no plays, favourites, saves, orders, credential, email, phone, avatar, social account or passkey',
  }),
});

/** PATCH /member/nickname/ body. */
export const NicknameBodySchema = z.object({ nickname: NicknameSchema });

/** PATCH /member/password/ body. */
export const PasswordBodySchema = z.object({
  username: UsernameSchema.optional().meta({
    description: 'Required when the account has no username yet (a guest becoming a member); ignored when it equals the current one',
  }),
  password: PasswordSchema,
  currentPassword: z.string().max(1024).optional().meta({ description: 'Required when the account already has a password' }),
});
export type PasswordBody = z.output<typeof PasswordBodySchema>;

/** PATCH /member/email/ body. */
export const EmailBodySchema = z.object({ email: EmailSchema });

/** PATCH /member/phone/ body. */
export const PhoneBodySchema = z.object({ phone: PhoneSchema });

/** POST /member/avatar/ multipart body (documentation: the handler reads the file part itself). */
export const AvatarUploadSchema = z.object({
  [AVATAR_FIELD]: z
    .string()
    .meta({ format: 'binary', description: 'PNG, JPEG, WebP or GIF (first frame), at most 5 MB, 32–10000 px a side, at most 64 megapixels' }),
});

/** The signed-in user's info (spec section 3). */
export const UserInfoSchema = z.object({
  uid: z.number().int(),
  nickname: z.string().nullable().meta({ description: 'null when unset: show "ID:" followed by uid' }),
  avatar: z.string().nullable().meta({ description: 'URL of the 256 px avatar, or null' }),
  social_providers: z.array(z.string()).meta({ description: 'Platforms of the bound social accounts' }),
  webauthn: z.boolean().meta({ description: 'true when the account has a passkey' }),
  isGuest: z.boolean().meta({ description: 'true for an anonymous account until a username and password, social account or passkey is bound' }),
});
export type UserInfo = z.infer<typeof UserInfoSchema>;

/** The guest merge, as the description of every sign-in that reaches an existing account says it (decision 063). */
export const GUEST_MERGE_NOTE =
  'A guest caller (bearer token of a guest account) is merged into the account signed in to: played games add up, favourites join, ' +
  'cloud saves join (a key both have keeps the newer value, within the quota), orders move; the guest account is deleted and its token answers 401.';

/** A signed-in session: the token to send as `Authorization: Bearer …` and the user's info. */
export const SessionSchema = z.object({
  token: z.string().meta({ description: 'Access token `{id}|{random}`' }),
  userInfo: UserInfoSchema,
});
export type Session = z.infer<typeof SessionSchema>;

export const GuestSessionSchema = SessionSchema.extend({
  created: z.boolean().meta({ description: 'true when this call created the account' }),
});
export type GuestSession = z.infer<typeof GuestSessionSchema>;

export const AvatarSizesSchema = z
  .object({ 64: z.string(), 128: z.string(), 256: z.string() })
  .meta({ description: 'URLs of the avatar renditions by size in pixels' });
export type AvatarSizes = z.infer<typeof AvatarSizesSchema>;

/** The fields of the profile pages. */
export const ProfileSchema = z.object({
  uid: z.number().int(),
  username: z.string().nullable(),
  nickname: z.string().nullable(),
  avatar: z.string().nullable(),
  avatarSizes: AvatarSizesSchema.nullable().meta({ description: 'null unless the avatar was uploaded here' }),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  hasPassword: z.boolean(),
  isGuest: z.boolean().meta({ description: 'true until a username and password, social account or passkey is bound' }),
});
export type Profile = z.infer<typeof ProfileSchema>;

/** What every profile change answers: the new user info (for the session) and profile. */
export const MemberUpdateSchema = z.object({ userInfo: UserInfoSchema, profile: ProfileSchema });
export type MemberUpdate = z.infer<typeof MemberUpdateSchema>;
/** A credential change answers with a new token: every earlier token of the account stops working. */
export const PasswordUpdateSchema = MemberUpdateSchema.extend({ token: z.string() });
export type PasswordUpdate = z.infer<typeof PasswordUpdateSchema>;

/** What the avatar upload answers: the profile change plus the new avatar's URLs. */
export const AvatarUploadResultSchema = MemberUpdateSchema.extend({ avatar: z.object({ url: z.string(), sizes: AvatarSizesSchema }) });
export type AvatarUploadResult = z.infer<typeof AvatarUploadResultSchema>;

export const LogoutSchema = z.object({ revoked: z.boolean().meta({ description: 'false when there was no valid token to revoke' }) });

/** GET /member/workspaces/: where the member works besides playing, for the account menu's entries (decision 120). */
export const WorkspacesSchema = z.object({
  studio: z.boolean().meta({ description: 'true when the member has a studio profile: the Studio is theirs' }),
  console: z.boolean().meta({ description: 'true when the member is an operator: the Console is theirs' }),
});
export type Workspaces = z.infer<typeof WorkspacesSchema>;
