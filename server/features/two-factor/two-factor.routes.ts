import {
  IdentityBodySchema,
  RecoveryCodesSchema,
  TwoFactorCodeBodySchema,
  TwoFactorSetUpSchema,
  TwoFactorStatusSchema,
} from '#common/api/two-factor.schema.ts';
import type { ApiRouter } from '#server/http/api-router.ts';
import type { TwoFactorService } from './two-factor.service.ts';

const TAGS = ['accounts'];
const IDENTITY =
  "Needs the account's current password (422 when wrong, limited to 10 an hour), or for an account without one a sign-in of the last 10 minutes (403 `forbidden`, reason `reauthentication_required`).";

/** Two-step sign-in with an authenticator app (decision 145). */
export function twoFactorRoutes(api: ApiRouter, twoFactor: TwoFactorService): void {
  api.route(
    {
      method: 'GET',
      url: '/user/two-factor/',
      summary: 'Whether two-step sign-in is on for the caller',
      tags: TAGS,
      auth: 'required',
      response: TwoFactorStatusSchema,
    },
    ({ caller }) => twoFactor.status(caller!),
  );

  api.route(
    {
      method: 'POST',
      url: '/user/two-factor/set-up',
      summary: 'Start turning two-step sign-in on: a new key for the authenticator app',
      description:
        'Members only (403 `account_not_secured` for a guest); 409 when it is on already. The key, its otpauth URI and a QR code; it is asked for at sign-in only once a code of it is confirmed.',
      tags: TAGS,
      auth: 'required',
      response: TwoFactorSetUpSchema,
      status: 201,
    },
    ({ caller }) => twoFactor.beginSetUp(caller!),
  );

  api.route(
    {
      method: 'POST',
      url: '/user/two-factor/confirm',
      summary: 'Turn two-step sign-in on with the first code from the app',
      description: 'A wrong code gets 422 on `code`; 5 wrong codes in 15 minutes, 429. Answers the ten recovery codes, shown this once.',
      tags: TAGS,
      auth: 'required',
      body: TwoFactorCodeBodySchema,
      response: RecoveryCodesSchema,
    },
    ({ caller, body }) => twoFactor.confirmSetUp(caller!, body.code),
  );

  api.route(
    {
      method: 'POST',
      url: '/user/two-factor/recovery-codes',
      summary: 'New recovery codes in place of the old ones',
      description: `${IDENTITY} 409 when two-step sign-in is off.`,
      tags: TAGS,
      auth: 'required',
      body: IdentityBodySchema,
      response: RecoveryCodesSchema,
    },
    ({ caller, body }) => twoFactor.newRecoveryCodes(caller!, body.currentPassword),
  );

  api.route(
    {
      method: 'POST',
      url: '/user/two-factor/disable',
      summary: 'Turn two-step sign-in off',
      description: `${IDENTITY} 409 when it is off already.`,
      tags: TAGS,
      auth: 'required',
      body: IdentityBodySchema,
      response: TwoFactorStatusSchema,
    },
    ({ caller, body }) => twoFactor.disable(caller!, body.currentPassword),
  );
}
