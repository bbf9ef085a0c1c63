import {
  AppParamsSchema,
  CheckoutBodySchema,
  CheckoutSchema,
  ConsumeBodySchema,
  ConsumeSchema,
  DeliverySchema,
  InventorySchema,
  OrderListSchema,
  OrderParamsSchema,
  OrderSchema,
  PayBodySchema,
  SandboxCheckoutSchema,
  SandboxPayBodySchema,
  SandboxPaySchema,
} from '#common/api/game-store.schema.ts';
import { XSOLLA_WEBHOOK_DOCUMENT } from '#server/adapters/payments/xsolla-notifications.ts';
import type { ApiRouter } from '#server/http/api-router.ts';
import { clientFacts } from '#server/http/client-facts.ts';
import { PREVIEW_HEADER_NOTE, previewLabelOf } from '#server/http/preview-header.ts';
import type { PaymentsService } from './payments.service.ts';

const TAGS = ['payments'];
const WEBHOOK_BODY_LIMIT = 256 * 1024;

/** In-game purchases (spec section 7; decision 064). */
export async function paymentsRoutes(api: ApiRouter, payments: PaymentsService): Promise<void> {
  api.route(
    {
      method: 'POST',
      url: '/game/pay/:app_id',
      summary: 'Create an order for an item of a game',
      description:
        "The item by SKU at the server's price (a price sent by the client is ignored). The same idempotencyKey answers the same order. " +
        '403 `account_not_secured` for a guest (secure the account first), 404 for an unknown item, 409 `already_owned` for a permanent item the caller owns. ' +
        'An order of a permanent item still open is answered again, whatever the key: two tabs share one order. ' +
        'An unpublished game is 404. Through a preview an order is a test order (`livemode: false`) made with test payments only: 403 where the portal takes real payments. ' +
        'A preview label that is not a preview of this game the caller may use is 403 on a published game: nothing is ordered (decision 111).' +
        PREVIEW_HEADER_NOTE,
      tags: TAGS,
      auth: 'required',
      params: AppParamsSchema,
      body: PayBodySchema,
      response: OrderSchema,
      status: 201,
    },
    ({ caller, params, body, request, locale }) =>
      payments.createOrder(caller!, params.app_id, body, clientFacts(request).campaign ?? {}, locale, previewLabelOf(request)),
  );

  api.route(
    {
      method: 'GET',
      url: '/game/inventory/:app_id',
      summary: "The caller's consumable items of a game",
      description: 'Each consumable the caller holds (quantity above zero), with its name in the caller’s language (decision 091).' + PREVIEW_HEADER_NOTE,
      tags: TAGS,
      auth: 'required',
      params: AppParamsSchema,
      response: InventorySchema,
    },
    ({ caller, params, locale, request }) => payments.inventory(caller!, params.app_id, locale, previewLabelOf(request)),
  );

  api.route(
    {
      method: 'POST',
      url: '/game/inventory/:app_id/consume',
      summary: 'Use up a quantity of a consumable item',
      description:
        'Exactly once per idempotencyKey: a retry answers the same, the key with another item or quantity is 409 `idempotency_key_reused`. ' +
        '409 `not_enough_items` when the caller holds fewer (nothing is taken); 404 for an item of the game that is not a consumable. ' +
        'Through a preview, from what its test orders bought (decision 111).' +
        PREVIEW_HEADER_NOTE,
      tags: TAGS,
      auth: 'required',
      params: AppParamsSchema,
      body: ConsumeBodySchema,
      response: ConsumeSchema,
    },
    ({ caller, params, body, locale, request }) => payments.consume(caller!, params.app_id, body, locale, previewLabelOf(request)),
  );

  api.route(
    {
      method: 'POST',
      url: '/payment/xsolla/create/',
      summary: "Open the checkout of one of the caller's orders",
      description:
        "Creates the Xsolla Pay Station token through Xsolla's server API (or, without Xsolla credentials, the built-in sandbox's checkout) and answers the address to open. " +
        "404 for an order that is not the caller's; 409 for one that is paid, refunded or cancelled; 503 when Xsolla does not answer.",
      tags: TAGS,
      auth: 'required',
      body: CheckoutBodySchema,
      response: CheckoutSchema,
    },
    ({ caller, body, request, locale }) => payments.checkout(caller!, body.order_id, clientFacts(request), locale),
  );

  api.route(
    {
      method: 'GET',
      url: '/game/orders/:id',
      summary: "One of the caller's orders",
      tags: TAGS,
      auth: 'required',
      params: OrderParamsSchema,
      response: OrderSchema,
    },
    ({ caller, params, locale }) => payments.order(caller!, params.id, locale),
  );

  api.route(
    {
      method: 'POST',
      url: '/game/orders/:id/deliver',
      summary: 'Hand a paid order to the game',
      description: 'deliveredNow is true for exactly one call per paid order: the play page then sends the purchase event to the game and tracks the purchase.',
      tags: TAGS,
      auth: 'required',
      params: OrderParamsSchema,
      response: DeliverySchema,
    },
    ({ caller, params, locale, request }) => payments.deliver(caller!, params.id, locale, clientFacts(request)),
  );

  api.route(
    { method: 'GET', url: '/member/orders/', summary: "The caller's orders, newest first", tags: TAGS, auth: 'required', response: OrderListSchema },
    ({ caller, locale }) => payments.list(caller!, locale),
  );

  api.route(
    {
      method: 'GET',
      url: '/payment/sandbox/checkout/:token',
      summary: 'The sandbox checkout of an order (no Xsolla credentials)',
      tags: TAGS,
      auth: 'none',
      params: SandboxPayBodySchema.pick({ token: true }),
      response: SandboxCheckoutSchema,
    },
    ({ params, locale }) => payments.sandboxCheckout(params.token, locale),
  );

  api.route(
    {
      method: 'POST',
      url: '/payment/sandbox/pay/',
      summary: 'Pay a sandbox order with a test card',
      description:
        '4242 4242 4242 4242 pays; 4000 0000 0000 0002 is declined; 4000 0000 0000 3220 asks for a challenge (code 1234) first; an empty card number is refused (422) and changes nothing. A payment is notified to the webhook, signed as Xsolla signs.',
      tags: TAGS,
      auth: 'none',
      body: SandboxPayBodySchema,
      response: SandboxPaySchema,
    },
    ({ body }) => payments.sandboxPay(body.token, body.card, body.challenge),
  );

  api.documented({
    method: 'POST',
    url: '/payment/xsolla/webhook/',
    summary: "Xsolla's payment notifications",
    description:
      'Signed by Xsolla: `Authorization: Signature sha1(body + secret)`. No XSRF token and no envelope: the answer is what Xsolla expects (204, or 400 with its error codes). Bodies over 256 KB are refused with 413.',
    tags: TAGS,
    auth: 'none',
    csrf: false,
    body: XSOLLA_WEBHOOK_DOCUMENT.body,
    rawResponses: {
      '204': { description: 'Handled (or a type the portal does not act on)' },
      '400': { description: "Refused, in Xsolla's format", schema: XSOLLA_WEBHOOK_DOCUMENT.refusal },
    },
  });
  // The provider's webhook: the raw body is signed, so it is read as text; the answer is the provider's format, not the envelope.
  await api.app.register(async (scope) => {
    scope.removeContentTypeParser('application/json');
    scope.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: WEBHOOK_BODY_LIMIT }, (_request, body, done) => done(null, body));
    scope.post('/payment/xsolla/webhook/', { config: { auth: 'none', csrf: false } }, async (request, reply) => {
      const raw = typeof request.body === 'string' ? request.body : '';
      const answer = await payments.handleNotification(raw, { authorization: request.headers.authorization });
      if (answer.code) request.log.warn({ code: answer.code }, 'payment notification refused');
      return answer.body ? reply.code(answer.status).send(answer.body) : reply.code(answer.status).send();
    });
  });
}
