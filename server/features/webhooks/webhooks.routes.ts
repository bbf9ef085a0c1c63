import {
  BackendItemsBodySchema,
  BackendSecretSchema,
  BackendSecretStatusSchema,
  BackendItemsSchema,
  BackendPurchaseBodySchema,
  BackendPurchaseSchema,
  WebhookDeliverySchema,
  WebhookParamsSchema,
  WebhookSecretSchema,
  WebhookSettingsSchema,
  WebhookUrlBodySchema,
  WebhookUrlSchema,
} from '#common/api/game-webhooks.schema.ts';
import type { ApiRouter } from '#server/http/api-router.ts';
import { signedRoute, signedRoutes } from '#server/http/signed-routes.ts';
import type { PaymentsService } from '../payments/payments.service.ts';
import type { RecordsService } from '../games/records.service.ts';
import type { GameSecretsService } from '../game-secrets/game-secrets.service.ts';
import type { DevelopersService } from '../studio/developers.service.ts';
import type { WebhooksService } from './webhooks.service.ts';

const STUDIO_TAGS = ['studio: webhooks'];
const BACKEND_TAGS = ['game backend'];
const OWNER_ONLY = 'The caller must be the developer of the game (decision 095): 401 without a token, 404 for a game that is not theirs.';
const SIGNED =
  "Signed by the game's backend (decisions 092 and 100): `Playport-Timestamp` (Unix seconds, within 5 minutes of the portal's clock) and `Playport-Signature: v1={hex HMAC-SHA256 of \"{timestamp}.{raw body}\" with the game's secret}`; " +
  'a signature is accepted once. No token, no XSRF token. Refusals: 401 `signature_invalid` (data.reason: missing, expired, mismatch, replayed, no_secret).';

/** Server-to-server for a game's backend (decision 100): the Studio's webhook calls and the backend's signed look-ups. */
export async function webhooksRoutes(
  api: ApiRouter,
  deps: {
    webhooks: WebhooksService;
    developers: Pick<DevelopersService, 'requireDeveloperOf'>;
    records: Pick<RecordsService, 'verifySignedCall' | 'newBackendSecret'>;
    payments: Pick<PaymentsService, 'playerHoldings' | 'purchaseOf'>;
    secrets: Pick<GameSecretsService, 'status'>;
  },
): Promise<void> {
  const { webhooks, developers, records, payments, secrets } = deps;

  api.route(
    {
      method: 'GET',
      url: '/studio/games/:app_id/webhook',
      summary: "A game's webhook URL and its latest 50 deliveries",
      description: OWNER_ONLY,
      tags: STUDIO_TAGS,
      auth: 'required',
      params: WebhookParamsSchema,
      response: WebhookSettingsSchema,
    },
    async ({ caller, params }) => {
      return webhooks.settings(caller, params.app_id);
    },
  );

  api.route(
    {
      method: 'PUT',
      url: '/studio/games/:app_id/webhook',
      summary: "Set (or remove, with null) where a game's webhooks go",
      description: `${OWNER_ONLY} https only, to a host with public addresses only (http and private addresses on a development machine); 422 with \`data.reason\` (invalid, scheme, credentials, private_address) otherwise. The first time, the answer carries the webhook secret, shown this once.`,
      tags: STUDIO_TAGS,
      auth: 'required',
      params: WebhookParamsSchema,
      body: WebhookUrlBodySchema,
      response: WebhookUrlSchema,
    },
    async ({ caller, params, body }) => {
      return webhooks.setUrl(caller, params.app_id, body.url);
    },
  );

  api.route(
    {
      method: 'POST',
      url: '/studio/games/:app_id/webhook/secret',
      summary: 'Make a new webhook secret for a game (the previous one signs too for 24 hours)',
      description: `${OWNER_ONLY} The secret is shown this once. Until \`previousExpiresAt\` each webhook carries a \`v1\` signature with each secret, the new one first (decision 110).`,
      tags: STUDIO_TAGS,
      auth: 'required',
      params: WebhookParamsSchema,
      response: WebhookSecretSchema,
    },
    async ({ caller, params }) => {
      return webhooks.rotateSecret(caller, params.app_id);
    },
  );

  api.route(
    {
      method: 'GET',
      url: '/studio/games/:app_id/backend-secret',
      summary: 'Whether a game has a backend secret, when it was made, and until when the one before still verifies',
      description: `${OWNER_ONLY} Never the secret itself.`,
      tags: STUDIO_TAGS,
      auth: 'required',
      params: WebhookParamsSchema,
      response: BackendSecretStatusSchema,
    },
    async ({ caller, params }) => {
      await developers.requireDeveloperOf(caller, params.app_id);
      const status = await secrets.status(params.app_id, 'backend');
      return { hasSecret: status !== null, createdAt: status?.createdAt ?? null, previousExpiresAt: status?.previousExpiresAt ?? null };
    },
  );

  api.route(
    {
      method: 'POST',
      url: '/studio/games/:app_id/backend-secret',
      summary: "Make a new backend secret for a game's server (the previous one verifies too for 24 hours)",
      description: `${OWNER_ONLY} The secret is shown this once (decision 110).`,
      tags: STUDIO_TAGS,
      auth: 'required',
      params: WebhookParamsSchema,
      response: BackendSecretSchema,
    },
    async ({ caller, params }) => {
      await developers.requireDeveloperOf(caller, params.app_id);
      return records.newBackendSecret(params.app_id);
    },
  );

  api.route(
    {
      method: 'POST',
      url: '/studio/games/:app_id/webhook/test',
      summary: 'Send a `test` event to the game’s webhook now',
      description: `${OWNER_ONLY} Answers the delivery after its first attempt (retried like any other when it failed); 409 when no URL is set.`,
      tags: STUDIO_TAGS,
      auth: 'required',
      params: WebhookParamsSchema,
      response: WebhookDeliverySchema,
    },
    async ({ caller, params }) => {
      return webhooks.sendTest(caller, params.app_id);
    },
  );

  await signedRoutes(api, {
    params: WebhookParamsSchema,
    description: `${SIGNED} 404 for a player or an order that is not the game's (an account that is not a player of the game is a 404 like one that does not exist). \`livemode\` is false for test orders; with \`preview\` the item look-up answers test holdings (decision 111).`,
    tags: BACKEND_TAGS,
    // The signature first: nothing about the game is answered to a caller without its secret.
    verify: { before: 'parse', check: (appId, signature, raw) => records.verifySignedCall(appId, signature, raw) },
    routes: [
      signedRoute({
        url: '/game/backend/:app_id/items',
        summary: "A player's items of the game, for the game's backend",
        body: BackendItemsBodySchema,
        response: BackendItemsSchema,
        run: (appId, body) => payments.playerHoldings(appId, body.uid, body.preview),
      }),
      signedRoute({
        url: '/game/backend/:app_id/purchases/verify',
        summary: "Verify a purchase of the game by its order id, for the game's backend",
        body: BackendPurchaseBodySchema,
        response: BackendPurchaseSchema,
        run: (appId, body) => payments.purchaseOf(appId, body.orderId),
      }),
    ],
  });
}
