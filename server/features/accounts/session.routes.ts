import { z } from 'zod';
import { SessionsEndedSchema, SignedInSessionIdParamsSchema, SignedInSessionListSchema } from '#common/api/sessions.schema.ts';
import type { ApiRouter } from '#server/http/api-router.ts';
import type { AccessTokensService } from './access-tokens.service.ts';

const SessionCheckSchema = z.object({ valid: z.boolean(), uid: z.number().nullable() });
const TAGS = ['session'];

/** Session calls: the token's validity, and the member's list of signed-in sessions (decision 142). */
export function sessionRoutes(api: ApiRouter, tokens: AccessTokensService): void {
  api.route(
    {
      method: 'POST',
      url: '/session/check',
      summary: 'Tell whether the bearer token is valid',
      tags: TAGS,
      auth: 'optional',
      response: SessionCheckSchema,
    },
    ({ caller }) => ({ valid: caller !== null, uid: caller?.userId ?? null }),
  );

  api.route(
    {
      method: 'GET',
      url: '/session/list/',
      summary: "Where the account is signed in: the account's sessions",
      description:
        'Each session (access token) with how it was signed in, the browser and system read from the User-Agent at sign-in, its sign-in and last use ' +
        '(last use is written at most once a minute), when it ends, and which one is the calling token (current). No place is given.',
      tags: TAGS,
      auth: 'required',
      response: SignedInSessionListSchema,
    },
    ({ caller }) => tokens.listSessions(caller!),
  );

  api.route(
    {
      method: 'DELETE',
      url: '/session/:id',
      summary: 'End one of the account’s sessions',
      description: "Its token answers 401 from the next call on. The calling session may end itself (a sign-out). 404 for a session that is not the caller's.",
      tags: TAGS,
      auth: 'required',
      params: SignedInSessionIdParamsSchema,
      response: SessionsEndedSchema,
    },
    ({ caller, params }) => tokens.endSession(caller!, params.id),
  );

  api.route(
    {
      method: 'POST',
      url: '/session/end-others/',
      summary: 'End every session of the account but the calling one',
      tags: TAGS,
      auth: 'required',
      response: SessionsEndedSchema,
    },
    ({ caller }) => tokens.endOtherSessions(caller!),
  );
}
