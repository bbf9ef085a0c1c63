import { GUEST_MERGE_NOTE, SessionSchema } from '#common/api/accounts.schema.ts';
import {
  AuthenticationResponseSchema,
  CeremonyOptionsSchema,
  PasskeyCreatedSchema,
  PasskeyDeletedSchema,
  PasskeyIdParamsSchema,
  PasskeyListSchema,
  PasskeyRenameSchema,
  PasskeySchema,
  RegistrationResponseSchema,
} from '#common/api/passkeys.schema.ts';
import type { ApiRouter } from '#server/http/api-router.ts';
import { clientFacts } from '#server/http/client-facts.ts';
import type { PasskeysService } from './passkeys.service.ts';

const TAGS = ['passkeys'];
const CEREMONY =
  'The challenge is stored for any instance to check, expires after 5 minutes, works once and only for the session (bearer token, or none) that asked for it.';

/** Passkeys (spec sections 3, 4 and 7; decision 062). */
export function passkeysRoutes(api: ApiRouter, passkeys: PasskeysService): void {
  api.route(
    {
      method: 'GET',
      url: '/webauthn/create/options/',
      summary: 'Options to register a passkey for the signed-in account',
      description: `Options for navigator.credentials.create() in data.data: the account's user handle (random, never the uid), its passkeys as excludeCredentials, resident key and user verification preferred, algorithms -8, -7, -257. ${CEREMONY}`,
      tags: TAGS,
      auth: 'required',
      response: CeremonyOptionsSchema,
    },
    ({ caller, request }) => passkeys.registrationOptions(caller!, clientFacts(request)),
  );

  api.route(
    {
      method: 'POST',
      url: '/webauthn/create/verification/',
      summary: 'Register a passkey',
      description:
        "Verifies the authenticator's answer (origin, relying party, challenge) and stores the passkey. A guest becomes a member in place; the session rotates: " +
        'the answer carries the new token and every earlier token of the account stops working. 400 when the ceremony is refused, 409 when the passkey is registered already.',
      tags: TAGS,
      auth: 'required',
      body: RegistrationResponseSchema,
      response: PasskeyCreatedSchema,
      status: 201,
    },
    ({ caller, body, request }) => passkeys.register(caller!, body, clientFacts(request)),
  );

  api.route(
    {
      method: 'GET',
      url: '/webauthn/login/options/',
      summary: 'Options to sign in with a passkey',
      description: `Options for navigator.credentials.get() in data.data, with no allowCredentials: the browser offers the passkeys it holds for this site. ${CEREMONY}`,
      tags: TAGS,
      auth: 'optional',
      response: CeremonyOptionsSchema,
    },
    ({ caller, request }) => passkeys.authenticationOptions(caller, clientFacts(request)),
  );

  api.route(
    {
      method: 'POST',
      url: '/webauthn/login/verification/',
      summary: 'Sign in with a passkey',
      description:
        'Checks the challenge, that the passkey is registered and the user handle names its account, the signature, and that the signature counter did not go backwards; ' +
        `then returns a new session (token and user info). ${GUEST_MERGE_NOTE} Refusals are 400; 30 refusals per 15 minutes per client, then 429.`,
      tags: TAGS,
      auth: 'optional',
      body: AuthenticationResponseSchema,
      response: SessionSchema,
    },
    ({ caller, body, request }) => passkeys.signIn(caller, body, clientFacts(request)),
  );

  api.route(
    {
      method: 'GET',
      url: '/webauthn/credential/list/',
      summary: "The signed-in account's passkeys",
      tags: TAGS,
      auth: 'required',
      response: PasskeyListSchema,
    },
    ({ caller }) => passkeys.list(caller!),
  );

  api.route(
    {
      method: 'PATCH',
      url: '/webauthn/credential/:id',
      summary: 'Rename a passkey',
      description: "404 for a passkey that is not the caller's.",
      tags: TAGS,
      auth: 'required',
      params: PasskeyIdParamsSchema,
      body: PasskeyRenameSchema,
      response: PasskeySchema,
    },
    ({ caller, params, body }) => passkeys.rename(caller!, params.id, body.name),
  );

  api.route(
    {
      method: 'DELETE',
      url: '/webauthn/credential/:id',
      summary: 'Delete a passkey',
      description: "409 when it is the account's only way to sign in (no password, no social account); 404 for a passkey that is not the caller's.",
      tags: TAGS,
      auth: 'required',
      params: PasskeyIdParamsSchema,
      response: PasskeyDeletedSchema,
    },
    ({ caller, params, request }) => passkeys.remove(caller!, params.id, clientFacts(request)),
  );
}
