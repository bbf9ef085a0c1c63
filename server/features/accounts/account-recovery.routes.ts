import {
  EmailCodeBodySchema,
  EmailCodeRequestBodySchema,
  EmailStatusSchema,
  ForgotPasswordAnswerSchema,
  ForgotPasswordBodySchema,
  NotMeBodySchema,
  NotMeSchema,
  PasswordResetBodySchema,
  PasswordResetSchema,
  ResetLinkBodySchema,
  ResetLinkSchema,
} from '#common/api/account-recovery.schema.ts';
import type { ApiRouter } from '#server/http/api-router.ts';
import { clientFacts } from '#server/http/client-facts.ts';
import type { AccountNoticesService } from './account-notices.service.ts';
import type { AccountRecoveryService } from './account-recovery.service.ts';

const TAGS = ['accounts'];

/** Verified email and "Forgot password" (decision 146). */
export function accountRecoveryRoutes(api: ApiRouter, recovery: AccountRecoveryService, notices: AccountNoticesService): void {
  api.route(
    {
      method: 'GET',
      url: '/member/email/status/',
      summary: 'Whether the saved email address is confirmed, and where a code waits',
      tags: TAGS,
      auth: 'required',
      response: EmailStatusSchema,
    },
    ({ caller }) => recovery.emailStatus(caller!),
  );

  api.route(
    {
      method: 'POST',
      url: '/member/email/code/',
      summary: 'Send a new code for the saved address',
      description:
        'Members only (403 `account_not_secured` for a guest); 422 on `email` without an address, 409 when it is confirmed already. ' +
        'The code works for 30 minutes and replaces the one before; 5 codes an hour (429).',
      tags: TAGS,
      auth: 'required',
      body: EmailCodeRequestBodySchema,
      response: EmailStatusSchema,
    },
    ({ caller, body }) => recovery.requestCode(caller!, body.locale),
  );

  api.route(
    {
      method: 'POST',
      url: '/member/email/verify/',
      summary: 'Confirm the saved address with the code of its mail',
      description:
        'A wrong code gets 422 on `code` (`accounts:email.codeWrong`); after 5 wrong codes, or 30 minutes, or once the address changed, ' +
        'the code is used up (`accounts:email.codeExpired`) and a new one is asked for. A code works once.',
      tags: TAGS,
      auth: 'required',
      body: EmailCodeBodySchema,
      response: EmailStatusSchema,
    },
    ({ caller, body }) => recovery.verifyEmail(caller!, body.code),
  );

  api.route(
    {
      method: 'POST',
      url: '/username/password/forgot/',
      summary: 'Forgot password: mail a reset link to a confirmed address',
      description:
        'Each member account whose confirmed address this is gets a mail with a link that works once, for 30 minutes. The answer is the same ' +
        'whether or not an account has the address; 10 requests per client in 15 minutes and 3 per address an hour (429).',
      tags: TAGS,
      auth: 'none',
      body: ForgotPasswordBodySchema,
      response: ForgotPasswordAnswerSchema,
    },
    ({ body, request }) => recovery.forgotPassword(body.email, body.locale ?? 'en', clientFacts(request)),
  );

  api.route(
    {
      method: 'POST',
      url: '/username/password/reset/check/',
      summary: 'The account a reset link is for, before the new password is typed',
      description: 'A used, expired or unknown link gets 422 on `token` (`accounts:reset.linkExpired`). 20 tries per client in 15 minutes.',
      tags: TAGS,
      auth: 'none',
      body: ResetLinkBodySchema,
      response: ResetLinkSchema,
    },
    ({ body, request }) => recovery.resetLink(body.token, clientFacts(request)),
  );

  api.route(
    {
      method: 'POST',
      url: '/username/password/reset/',
      summary: 'Choose a new password through a reset link',
      description:
        'Uses the link (and every other link of the account) and ends every session of the account; two-step sign-in, when on, is still ' +
        'asked at the next sign-in. An account without a username chooses one here (`username`, 422 when missing or taken). The password ' +
        'rules are those of PATCH /member/password/.',
      tags: TAGS,
      auth: 'none',
      body: PasswordResetBodySchema,
      response: PasswordResetSchema,
    },
    ({ body, request }) => recovery.resetPassword(body, clientFacts(request)),
  );

  api.route(
    {
      method: 'POST',
      url: '/username/not-me/',
      summary: '"This wasn\'t me": end every session, then choose a new password',
      description:
        'For the link of a notice mail (decision 148): valid 7 days, once. Ends every session of the account and answers the key of a new ' +
        'reset link (30 minutes) for /username/password/reset/. A used, expired or unknown key gets 422 on `key`; 20 tries per client in 15 minutes.',
      tags: TAGS,
      auth: 'none',
      body: NotMeBodySchema,
      response: NotMeSchema,
    },
    ({ body, request }) => notices.notMe(body.key, clientFacts(request)),
  );
}
