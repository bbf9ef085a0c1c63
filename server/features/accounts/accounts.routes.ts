import multipart from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import {
  AVATAR_FIELD,
  AVATAR_MAX_BYTES,
  AvatarUploadResultSchema,
  AvatarUploadSchema,
  FingerprintLoginBodySchema,
  GUEST_MERGE_NOTE,
  GuestDeviceBodySchema,
  GuestDeviceSchema,
  GuestEmptinessSchema,
  GuestChallengeSchema,
  GuestLoginBodySchema,
  GuestSessionSchema,
  LogoutSchema,
  MemberUpdateSchema,
  NicknameBodySchema,
  PasswordBodySchema,
  PasswordUpdateSchema,
  ProfileSchema,
  SessionSchema,
  UsernameLoginBodySchema,
} from '#common/api/accounts.schema.ts';
import { TwoFactorLoginBodySchema } from '#common/api/two-factor.schema.ts';
import { EmailChangeBodySchema, PhoneChangeBodySchema } from '#common/api/account-recovery.schema.ts';
import { ApiRouter } from '#server/http/api-router.ts';
import { clientFacts } from '#server/http/client-facts.ts';
import { AppError, fieldError } from '#server/lib/app-error.ts';
import type { AccountsService } from './accounts.service.ts';
import { avatarTooLarge } from './avatars.service.ts';

const TAGS = ['accounts'];
const MULTIPART_LOG_REDACTIONS = ['busboyOptions.headers.authorization', 'busboyOptions.headers.cookie', 'busboyOptions.headers["x-xsrf-token"]'];
const RATE_LIMITED = 'Answers 429 with a Retry-After header (seconds, also in the message and data.retryAfter) when the limit is reached.';

/** Sign-in, sign-out, user info and the profile fields (spec sections 3, 4 and 7). */
export async function accountsRoutes(api: ApiRouter, accounts: AccountsService): Promise<void> {
  api.route(
    {
      method: 'GET',
      url: '/guest/challenge/',
      summary: 'A proof-of-work challenge for a new guest account',
      description:
        'Returns a signed challenge, valid for 10 minutes and usable once, and its difficulty: find a nonce (at most 16 characters) such that ' +
        'SHA-256 of "{challenge}:{nonce}" starts with `difficulty` zero bits, and send both to /guest/login/.',
      tags: TAGS,
      auth: 'none',
      response: GuestChallengeSchema,
    },
    () => accounts.guestChallenge(),
  );

  api.route(
    {
      method: 'POST',
      url: '/guest/login/',
      summary: 'Anonymous sign-in: create a guest account',
      description:
        'Without a valid bearer token: needs a solved challenge of /guest/challenge/ (challenge and nonce; 403 without one, and nothing is created), ' +
        'then creates a guest account with a nickname generated in the request’s language (its Locale header) and returns its token (created: true). ' +
        'The optional fingerprint, with the device id it then needs, links the guest to its device for a later device sign-in. With a valid token: returns that session (created: false). ' +
        `New guests are limited to 1000 an hour per client (IPv4 address or IPv6 /64). ${RATE_LIMITED}`,
      tags: TAGS,
      auth: 'optional',
      body: GuestLoginBodySchema,
      response: GuestSessionSchema,
      status: 201,
    },
    ({ body, request, caller, locale }) => accounts.guestLogin(body, clientFacts(request), caller, caller ? bearerToken(request) : null, locale),
  );

  api.route(
    {
      method: 'POST',
      url: '/username/login/',
      summary: 'Sign in with username and password',
      description:
        'Username is case-insensitive. A wrong username or password gets 401 with one message either way. ' +
        'Failed attempts are limited to 10 per 15 minutes per username from one client (IPv4 address or IPv6 /64) and 30 per 15 minutes per client, across all instances; ' +
        'a client over its own limit gets 429 before the password is checked. After 100 consecutive failures for a username from anywhere, a wrong password gets 429 ' +
        '(and its client one check an hour for that username) instead of 401, while a right one from a client without failures of its own still signs in. ' +
        'With two-step sign-in on, the right password gets 401 `unauthenticated`, reason `two_factor_required`, with data.ticket: send it with a code to /username/login/two-factor/. ' +
        `${GUEST_MERGE_NOTE} ${RATE_LIMITED}`,
      tags: TAGS,
      auth: 'optional',
      body: UsernameLoginBodySchema,
      response: SessionSchema,
    },
    ({ body, request, caller }) => accounts.usernameLogin(body, clientFacts(request), caller),
  );

  api.route(
    {
      method: 'POST',
      url: '/username/login/two-factor/',
      summary: 'Complete a password sign-in with a code from the authenticator app',
      description:
        'The ticket of /username/login/ (valid 5 minutes) and a 6-digit code of the app (each code works once), or one of the ten recovery codes (each works once). ' +
        'An expired or altered ticket gets 401 (sign in again); a wrong code 400 `sign_in_code_invalid`; 5 wrong codes an account in 15 minutes, 429. ' +
        `${GUEST_MERGE_NOTE} ${RATE_LIMITED}`,
      tags: TAGS,
      auth: 'optional',
      body: TwoFactorLoginBodySchema,
      response: SessionSchema,
    },
    ({ body, request, caller }) => accounts.twoFactorLogin(body, clientFacts(request), caller),
  );

  api.route(
    {
      method: 'POST',
      url: '/guest/device/',
      summary: "Record the guest's device: fingerprint and device id",
      description:
        "Links the caller's guest account to its device for a later device sign-in (/fingerprint/login/): the fingerprint and the device id, a random value the browser " +
        'keeps in localStorage. The browser sends them once the page has been idle for a while rather than with /guest/login/, because computing the fingerprint is heavy ' +
        'on slow phones (decision 066). Recorded once: an account that has a device id, or is no longer a guest, is left as it is (recorded: false).',
      tags: TAGS,
      auth: 'required',
      body: GuestDeviceBodySchema,
      response: GuestDeviceSchema,
    },
    ({ body, caller }) => accounts.recordGuestDevice(caller!.userId, body),
  );

  api.route(
    {
      method: 'GET',
      url: '/guest/empty/',
      summary: "Tell whether the caller's account is a guest holding nothing",
      description:
        'empty: true for a guest with no plays, favourites, cloud saves, orders, password, email, phone, uploaded avatar, social account or passkey; ' +
        'false otherwise, and always for a member. The browser asks before a token from a link replaces such a session without a question (decision 050).',
      tags: TAGS,
      auth: 'required',
      response: GuestEmptinessSchema,
    },
    ({ caller }) => accounts.guestEmptiness(caller!.userId),
  );

  api.route(
    {
      method: 'POST',
      url: '/fingerprint/login/',
      summary: 'Sign in with the device fingerprint',
      description:
        "Signs into the guest account that recorded this fingerprint and this device id first (see /guest/device/) that was last used from the caller's network " +
        '(IPv4 /24, IPv6 /48) and holds nothing private: no password, email, phone, uploaded avatar, social account, passkey, order, cloud save or favourite. ' +
        'Otherwise 404 "No guest account is linked to this device", the same answer whether no guest or only a refused one exists. ' +
        `${GUEST_MERGE_NOTE} ` +
        `Attempts are limited to 10 an hour per fingerprint and 20 per 15 minutes per client; misses count towards the client's failed sign-ins. ${RATE_LIMITED}`,
      tags: TAGS,
      auth: 'optional',
      body: FingerprintLoginBodySchema,
      response: SessionSchema,
    },
    ({ body, request, caller }) => accounts.fingerprintLogin(body, clientFacts(request), caller),
  );

  api.route(
    {
      method: 'POST',
      url: '/logout/',
      summary: 'Sign out: revoke the bearer token',
      description: 'The token stops working at once, on every instance. Without a valid token there is nothing to revoke (revoked: false).',
      tags: TAGS,
      auth: 'optional',
      response: LogoutSchema,
    },
    ({ caller }) => accounts.logout(caller),
  );

  api.route(
    {
      method: 'GET',
      url: '/member/info/',
      summary: 'User info of the bearer token',
      description:
        'Returns the token as sent and the user info (uid, nickname, avatar, social_providers, webauthn). 401 "Token is missing or invalid" without a valid token.',
      tags: TAGS,
      auth: 'required',
      response: SessionSchema,
    },
    async ({ caller, request }) => {
      await accounts.noteSeen(caller!.userId, clientFacts(request));
      return { token: bearerToken(request), userInfo: await accounts.userInfo(caller!.userId) };
    },
  );

  api.route(
    {
      method: 'GET',
      url: '/member/profile/',
      summary: 'Profile fields of the signed-in user',
      description: 'Username, nickname, avatar (with its sizes), email, phone, whether a password is set and whether the account is still a guest.',
      tags: TAGS,
      auth: 'required',
      response: ProfileSchema,
    },
    ({ caller }) => accounts.profile(caller!.userId),
  );

  api.route(
    {
      method: 'PATCH',
      url: '/member/nickname/',
      summary: 'Change the nickname',
      description:
        'Trimmed; 2–24 characters: letters of any script, digits, spaces, `_`, `-`, `.`. A bad value gets 422 with data.errors.nickname and changes nothing.',
      tags: TAGS,
      auth: 'required',
      body: NicknameBodySchema,
      response: MemberUpdateSchema,
    },
    ({ caller, body }) => accounts.updateNickname(caller!.userId, body.nickname),
  );

  api.route(
    {
      method: 'PATCH',
      url: '/member/password/',
      summary: 'Set username and password (a guest becomes a member), or change the password',
      description:
        'A guest sends username and password and becomes a member on the same account: played games and purchases stay. ' +
        'Username: 3–20 letters a–z (any case), digits or underscores, unique regardless of case (422 when taken). Password: 8–128 characters. ' +
        'When a password is already set, currentPassword is required. Either way the answer carries a new token and every earlier token of the account, ' +
        'the one that made this call included, stops working (a token planted in the browser before registration is worth nothing after it). ' +
        `Wrong current passwords are limited to 10 per 15 minutes per account, counted apart from sign-in failures, so others' failed sign-ins never block the change. ${RATE_LIMITED}`,
      tags: TAGS,
      auth: 'required',
      body: PasswordBodySchema,
      response: PasswordUpdateSchema,
    },
    async ({ caller, body, request }) => {
      const { userInfo, profile, token } = await accounts.setPassword(caller!, body, clientFacts(request));
      return { userInfo, profile, token };
    },
  );

  api.route(
    {
      method: 'PATCH',
      url: '/member/email/',
      summary: 'Save the email address',
      description:
        'Trimmed, at most 254 characters; an empty string removes it. A new address is not confirmed: a member gets a mail with a code for it ' +
        '(POST /member/email/verify/); a guest keeps it unconfirmed. Changing or removing a confirmed address needs `currentPassword` ' +
        '(422 when wrong), or for an account without a password a sign-in of the last 10 minutes (403 `forbidden`, reason `reauthentication_required`). ' +
        'Never used for sign-in (decision 146).',
      tags: TAGS,
      auth: 'required',
      body: EmailChangeBodySchema,
      response: MemberUpdateSchema,
    },
    ({ caller, body, request }) => accounts.recovery.saveEmail(caller!, body, clientFacts(request)),
  );

  api.route(
    {
      method: 'PATCH',
      url: '/member/phone/',
      summary: 'Save the phone number',
      description:
        'International form with + and the country code; spaces, dashes, dots and brackets are dropped (stored as +4420…); an empty string removes it. ' +
        'A member changing or removing a saved number gives `currentPassword` (422 when wrong), or without a password has signed in within 10 minutes (403 `forbidden`, reason `reauthentication_required`). Not used for sign-in or recovery.',
      tags: TAGS,
      auth: 'required',
      body: PhoneChangeBodySchema,
      response: MemberUpdateSchema,
    },
    ({ caller, body, request }) => accounts.updatePhone(caller!, body, clientFacts(request)),
  );

  // Multipart parsing exists only in this scope: every other route keeps rejecting multipart bodies.
  await api.app.register(async (scope) => {
    await scope.register(multipart, { limits: { fileSize: AVATAR_MAX_BYTES, files: 1, fields: 5, parts: 6 } });
    // At trace level the multipart plugin logs every request header, bearer token included.
    scope.addHook('onRequest', async (request) => {
      request.log = request.log.child({}, { redact: MULTIPART_LOG_REDACTIONS });
    });
    const uploads = new ApiRouter(scope);
    uploads.route(
      {
        method: 'POST',
        url: '/member/avatar/',
        summary: 'Upload a new avatar',
        description:
          `multipart/form-data with one file part (named "${AVATAR_FIELD}"): PNG, JPEG, WebP or GIF, recognised from its bytes, at most 5 MB and 32–10000 px a side. ` +
          'It is cropped square and re-encoded as webp at 64, 128 and 256 px under new URLs (cached for a year); user info shows the 256 px one. ' +
          `Anything else gets 422 with data.errors.${AVATAR_FIELD} and nothing is stored. 20 uploads an hour per user. ${RATE_LIMITED}`,
        tags: TAGS,
        auth: 'required',
        multipart: AvatarUploadSchema,
        response: AvatarUploadResultSchema,
      },
      async ({ caller, request }) => accounts.setAvatar(caller!.userId, await readAvatarFile(request)),
    );
    api.routes.push(...uploads.routes);
  });
}

/** The bytes of the upload's file part; stops reading at the size limit. */
async function readAvatarFile(request: FastifyRequest): Promise<Buffer> {
  const errors = request.server.multipartErrors;
  try {
    const file = await request.file();
    if (!file) throw fieldError({ [AVATAR_FIELD]: ['accounts:avatar.required'] });
    return await file.toBuffer();
  } catch (error) {
    if (error instanceof AppError) throw error;
    if (error instanceof errors.RequestFileTooLargeError) throw avatarTooLarge();
    if (error instanceof errors.InvalidMultipartContentTypeError) throw new AppError('unsupported_media_type', { cause: error });
    if (error instanceof errors.FilesLimitError || error instanceof errors.PartsLimitError || error instanceof errors.FieldsLimitError) {
      throw new AppError('bad_request', { cause: error });
    }
    // Anything else here is the parser failing on the body the client sent (no boundary, a form cut short).
    throw new AppError('bad_request', { cause: error });
  }
}

/** The token as the client sent it (the auth hook has already verified it). */
function bearerToken(request: FastifyRequest): string {
  return (request.headers.authorization ?? '').slice('Bearer '.length).trim();
}
