import {
  ConsolePayoutListSchema,
  ConsolePayoutParamsSchema,
  ConsolePayoutQuerySchema,
  ConsolePayoutSchema,
  PayoutDecisionBodySchema,
  PayoutDetailsBodySchema,
  PayoutDetailsSchema,
  ProposeResultSchema,
  StudioPayoutListSchema,
} from '#common/api/payouts.schema.ts';
import type { ApiRouter } from '#server/http/api-router.ts';
import type { PayoutsService } from './payouts.service.ts';

const DEVELOPERS_ONLY = '401 without a session, 403 for a member without a studio profile.';
const OPERATORS_ONLY = '401 without a session, 403 for anyone who is not an operator (decision 095).';

/** Studios' payouts (decision 149): the Studio's payout details and payouts, the Console's approval. */
export function payoutsRoutes(api: ApiRouter, payouts: PayoutsService): void {
  api.route(
    {
      method: 'GET',
      url: '/studio/earnings/payout-details/',
      summary: "Where the caller's studio is paid",
      description: `The receiver, legal name and country, and only the last 4 characters of the tax id. ${DEVELOPERS_ONLY}`,
      tags: ['studio'],
      auth: 'required',
      response: PayoutDetailsSchema,
    },
    ({ caller }) => payouts.details(caller),
  );

  api.route(
    {
      method: 'PUT',
      url: '/studio/earnings/payout-details/',
      summary: "Set where the caller's studio is paid",
      description:
        'The method must be one this portal sends with (`methods`), else 422. The tax id is sealed under APP_SECRET and never answered or logged whole; left out, the stored one stays. ' +
        'Payouts proposed and not yet approved are proposed again under new ids; the change is in the audit log (the fields, never their values). ' +
        `409 while a payout is approved and not yet sent. ${DEVELOPERS_ONLY}`,
      tags: ['studio'],
      auth: 'required',
      body: PayoutDetailsBodySchema,
      response: PayoutDetailsSchema,
    },
    ({ caller, body }) => payouts.saveDetails(caller, body),
  );

  api.route(
    {
      method: 'GET',
      url: '/studio/earnings/payouts/',
      summary: "The caller's studio's payouts",
      description: `Newest first, with their state: proposed, approved, sent, paid, failed, returned or rejected. ${DEVELOPERS_ONLY}`,
      tags: ['studio'],
      auth: 'required',
      response: StudioPayoutListSchema,
    },
    ({ caller }) => payouts.studioPayouts(caller),
  );

  api.route(
    {
      method: 'GET',
      url: '/console/payouts/',
      summary: "Studios' payouts",
      description: `The newest 200, optionally in one state. ${OPERATORS_ONLY}`,
      tags: ['console'],
      query: ConsolePayoutQuerySchema,
      response: ConsolePayoutListSchema,
    },
    ({ caller, query }) => payouts.forOperator(caller, query.status),
  );

  api.route(
    {
      method: 'POST',
      url: '/console/payouts/propose',
      summary: 'Propose the last month’s payouts now',
      description: `What the worker does after each month: a payout of each studio's available balance that reaches PAYOUT_MINIMUM, once per studio, currency and month; with the reason in the audit log. ${OPERATORS_ONLY}`,
      tags: ['console'],
      body: PayoutDecisionBodySchema,
      response: ProposeResultSchema,
    },
    ({ caller, body }) => payouts.proposeForOperator(caller, body.reason),
  );

  api.route(
    {
      method: 'POST',
      url: '/console/payouts/:payout_id/approve',
      summary: 'Approve a proposed payout',
      description:
        'The amount (as proposed, or what is available now when that is less) moves from the studio’s balance into transit in the ledger, with the reason in the audit log, in one transaction; the worker then sends it. ' +
        `404 for an unknown payout; 409 when it is not proposed any more, its studio has no payout details, or nothing is available. ${OPERATORS_ONLY}`,
      tags: ['console'],
      params: ConsolePayoutParamsSchema,
      body: PayoutDecisionBodySchema,
      response: ConsolePayoutSchema,
    },
    ({ caller, params, body }) => payouts.approve(caller, params.payout_id, body.reason),
  );

  api.route(
    {
      method: 'POST',
      url: '/console/payouts/:payout_id/reject',
      summary: 'Reject a proposed payout',
      description: `The money stays in the studio's balance for a later proposal; the reason goes to the audit log. 404 for an unknown payout, 409 when it is not proposed any more. ${OPERATORS_ONLY}`,
      tags: ['console'],
      params: ConsolePayoutParamsSchema,
      body: PayoutDecisionBodySchema,
      response: ConsolePayoutSchema,
    },
    ({ caller, params, body }) => payouts.reject(caller, params.payout_id, body.reason),
  );
}
