import type { FastifyInstance } from 'fastify';
import {
  PhoneCodeRequestSchema,
  PhoneCodeSentSchema,
  PlatformParamsSchema,
  SocialMessageSchema,
  SocialSessionSchema,
  UnbindBodySchema,
  UnbindResultSchema,
} from '#common/api/social.schema.ts';
import { GUEST_MERGE_NOTE } from '#common/api/accounts.schema.ts';
import type { ApiRouter } from '#server/http/api-router.ts';
import { clientFacts } from '#server/http/client-facts.ts';
import { isSocialPlatform, OAUTH_BROWSER_COOKIE } from '#common/social-platforms.ts';
import type { SocialService } from './social.service.ts';
import type { DevelopmentInbox } from '#server/adapters/whatsapp/code-sender.ts';

const TAGS = ['social'];
const BINDINGS =
  'OAuth providers: the state works once, within 10 minutes, only for the session (bearer token, or none) and the browser (its oauth_browser cookie) that opened the pop-up; ' +
  'the code is exchanged with PKCE where the provider takes it, and ID tokens are verified (keys, issuer, audience, expiry, nonce). ' +
  'WhatsApp: phone and the 6-digit code sent to it (5 minutes, single use, 5 guesses). Refusals are 400; 30 refusals per 15 minutes per client, then 429.';

/** Social sign-in (spec sections 3, 4 and 7; decision 063). */
export function socialRoutes(api: ApiRouter, social: SocialService): void {
  api.route(
    {
      method: 'POST',
      url: '/oauth/login/:platform',
      summary: 'Sign in with a social account',
      description:
        `The pop-up message's data with login "force"; the session is in data.data. ${BINDINGS} ` +
        'A provider account nobody has: a guest becomes that member in place (same uid; the session rotates), anyone else gets a new member account. ' +
        `A provider account a member has: signs in as that member. ${GUEST_MERGE_NOTE}`,
      tags: TAGS,
      auth: 'optional',
      params: PlatformParamsSchema,
      body: SocialMessageSchema,
      response: SocialSessionSchema,
    },
    ({ caller, params, body, request }) => social.signIn(caller, params.platform, body, clientFacts(request), request.cookies[OAUTH_BROWSER_COOKIE] ?? null),
  );

  api.route(
    {
      method: 'POST',
      url: '/oauth/link/:platform',
      summary: 'Bind a social account to the signed-in account',
      description:
        `The pop-up message's data; the new session is in data.data (binding rotates the session: every earlier token of the account stops working). ${BINDINGS} ` +
        '409 when the provider account is bound to another member, or the account has another account of that platform bound.',
      tags: TAGS,
      auth: 'required',
      params: PlatformParamsSchema,
      body: SocialMessageSchema,
      response: SocialSessionSchema,
    },
    ({ caller, params, body, request }) => social.link(caller!, params.platform, body, clientFacts(request), request.cookies[OAUTH_BROWSER_COOKIE] ?? null),
  );

  api.route(
    {
      method: 'PATCH',
      url: '/member/social/unbind/:platform',
      summary: 'Unbind a social account',
      description: "404 when the platform is not bound; 409 when it is the account's last way to sign in (no password, passkey or other social account).",
      tags: TAGS,
      auth: 'required',
      params: PlatformParamsSchema,
      body: UnbindBodySchema,
      response: UnbindResultSchema,
    },
    ({ caller, params }) => social.unbind(caller!, params.platform),
  );

  api.route(
    {
      method: 'POST',
      url: '/oauth/whatsapp/code/',
      summary: 'Send a sign-in code to a WhatsApp number',
      description:
        'Sends a 6-digit code through the WhatsApp Cloud API (an authentication template with a copy-code button); it works for 5 minutes, once, and a new code replaces the earlier one. ' +
        '5 codes per number and 20 per client an hour, then 429; 503 when WhatsApp does not take the message.',
      tags: TAGS,
      auth: 'optional',
      body: PhoneCodeRequestSchema,
      response: PhoneCodeSentSchema,
    },
    ({ body, request }) => social.sendPhoneCode(body.phone, clientFacts(request)),
  );
}

/** The fields of a provider's answer the callback page reads. */
const ANSWER_FIELDS = ['code', 'state', 'user', 'error'] as const;

/**
 * Apple answers with a cross-site form POST to the callback (response_mode=form_post). The answer
 * becomes the callback page's query (303), so one page serves every provider and the pages keep
 * refusing cross-site form posts; no cookie is needed on the way (decision 063).
 */
export async function formPostCallbackRoute(app: FastifyInstance): Promise<void> {
  await app.register(async (scope) => {
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 16_384 }, (_request, body, done) =>
      done(null, new URLSearchParams(body as string)),
    );
    scope.post<{ Params: { platform: string } }>('/oauth/:platform/callback', async (request, reply) => {
      if (!isSocialPlatform(request.params.platform) || !(request.body instanceof URLSearchParams)) return reply.code(404).type('text/plain').send('Not found');
      const answer = new URLSearchParams();
      for (const field of ANSWER_FIELDS) {
        const value = request.body.get(field);
        if (value && value.length <= 4096) answer.set(field, value);
      }
      return reply
        .header('cache-control', 'no-store')
        .header('referrer-policy', 'no-referrer')
        .redirect(`/oauth/${request.params.platform}/callback?${answer}`, 303);
    });
  });
}

/** The development sender's inbox (never in production: the configuration refuses that sender there). */
export function whatsappInboxRoute(app: FastifyInstance, inbox: DevelopmentInbox): void {
  app.get('/dev/whatsapp-inbox', async (_request, reply) => {
    const rows = inbox
      .messages()
      .map(
        (m) =>
          `<tr data-testid="inbox-message"><td>${escapeHtml(m.sentAt)}</td><td data-testid="inbox-phone">${escapeHtml(m.phone)}</td><td data-testid="inbox-code">${escapeHtml(m.code)}</td></tr>`,
      )
      .join('');
    return reply
      .header('cache-control', 'no-store')
      .header('x-robots-tag', 'noindex')
      .type('text/html; charset=utf-8')
      .send(
        '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>WhatsApp inbox (development)</title></head>' +
          '<body style="font-family:system-ui;margin:2rem"><h1>WhatsApp inbox (development)</h1><p>Codes the development sender would have sent, newest first.</p>' +
          `<table><thead><tr><th>Sent</th><th>Number</th><th>Code</th></tr></thead><tbody>${rows}</tbody></table></body></html>`,
      );
  });
}

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
