import {
  AcquisitionQuerySchema,
  AcquisitionReportSchema,
  AuditPageSchema,
  AuditQuerySchema,
  ConsoleMemberDetailSchema,
  ConsoleMemberListSchema,
  ConsoleMemberParamsSchema,
  ConsoleMemberQuerySchema,
  ConsoleOrderDetailSchema,
  ConsoleOrderListSchema,
  ConsoleOrderParamsSchema,
  ConsoleOrderQuerySchema,
  ConsoleOverviewSchema,
  MemberActionBodySchema,
  RefundBodySchema,
  RefundResultSchema,
} from '#common/api/console-ops.schema.ts';
import type { ApiRouter } from '#server/http/api-router.ts';
import type { ConsoleOpsService } from './console-ops.service.ts';

const OPERATORS_ONLY = '401 without a session, 403 for anyone who is not an operator (decision 095).';

/** The Console's operations (decision 098): operators only, every change in the audit log. */
export function consoleOpsRoutes(api: ApiRouter, ops: ConsoleOpsService): void {
  const tags = ['console'];
  api.route(
    {
      method: 'GET',
      url: '/console/overview/',
      summary: 'Counts for the Console overview',
      description: OPERATORS_ONLY,
      tags,
      response: ConsoleOverviewSchema,
    },
    ({ caller }) => ops.overview(caller),
  );

  api.route(
    {
      method: 'GET',
      url: '/console/orders/',
      summary: 'Search orders',
      description: `By order id, provider transaction or order reference, member id, username or e-mail; the newest 50. ${OPERATORS_ONLY}`,
      tags,
      query: ConsoleOrderQuerySchema,
      response: ConsoleOrderListSchema,
    },
    ({ caller, query, locale }) => ops.orders(caller, query.q, locale),
  );

  api.route(
    {
      method: 'GET',
      url: '/console/orders/:order_id',
      summary: 'An order with its events',
      description: `404 for an unknown order. ${OPERATORS_ONLY}`,
      tags,
      params: ConsoleOrderParamsSchema,
      response: ConsoleOrderDetailSchema,
    },
    ({ caller, params, locale }) => ops.order(caller, params.order_id, locale),
  );

  api.route(
    {
      method: 'POST',
      url: '/console/orders/:order_id/refund',
      summary: 'Refund an order through the payment provider',
      description:
        'Asks the provider once, however many requests arrive; the order becomes refunded as a provider refund notification makes it, and the reason goes to the audit log in the same transaction. ' +
        'With an `amount` below what is left, a partial refund: the order stays paid and the amount counts when the provider’s partial refund notification arrives (decision 124); 422 for more than is left. ' +
        `Refunded already: 200 with refundedNow false. 409 for an order that is not paid; 503 when the provider refuses or does not answer (nothing changed). ${OPERATORS_ONLY}`,
      tags,
      params: ConsoleOrderParamsSchema,
      body: RefundBodySchema,
      response: RefundResultSchema,
    },
    ({ caller, params, body, locale }) => ops.refund(caller, params.order_id, body.reason, locale, body.amount),
  );

  api.route(
    {
      method: 'GET',
      url: '/console/members/',
      summary: 'Look up members',
      description: `By id, username, e-mail or phone (exact). ${OPERATORS_ONLY}`,
      tags,
      query: ConsoleMemberQuerySchema,
      response: ConsoleMemberListSchema,
    },
    ({ caller, query }) => ops.findMembers(caller, query.q),
  );

  api.route(
    {
      method: 'GET',
      url: '/console/members/:user_id',
      summary: "A member's sign-in methods, lock-out and recent failed sign-ins",
      description: `404 for an unknown member. ${OPERATORS_ONLY}`,
      tags,
      params: ConsoleMemberParamsSchema,
      response: ConsoleMemberDetailSchema,
    },
    ({ caller, params }) => ops.member(caller, params.user_id),
  );

  api.route(
    {
      method: 'POST',
      url: '/console/members/:user_id/clear-lockout',
      summary: "Clear the rate limits that hold a member's sign-in back",
      description: `Recorded in the audit log. ${OPERATORS_ONLY}`,
      tags,
      params: ConsoleMemberParamsSchema,
      response: ConsoleMemberDetailSchema,
    },
    ({ caller, params }) => ops.clearLockout(caller, params.user_id),
  );

  api.route(
    {
      method: 'POST',
      url: '/console/members/:user_id/disable',
      summary: 'Disable an account',
      description: `Every session of the account ends at once and every sign-in is refused (403 account_disabled) until it is enabled; with the reason in the audit log. 409 for the caller's own account. ${OPERATORS_ONLY}`,
      tags,
      params: ConsoleMemberParamsSchema,
      body: MemberActionBodySchema,
      response: ConsoleMemberDetailSchema,
    },
    ({ caller, params, body }) => ops.disable(caller, params.user_id, body.reason),
  );

  api.route(
    {
      method: 'POST',
      url: '/console/members/:user_id/two-factor/remove',
      summary: "Turn a member's two-step sign-in off",
      description: `For a member who lost both the authenticator app and the recovery codes, once the operator has checked who they are; with the reason in the audit log. 409 when it is off. ${OPERATORS_ONLY}`,
      tags,
      params: ConsoleMemberParamsSchema,
      body: MemberActionBodySchema,
      response: ConsoleMemberDetailSchema,
    },
    ({ caller, params, body }) => ops.removeTwoFactor(caller, params.user_id, body.reason),
  );

  api.route(
    {
      method: 'POST',
      url: '/console/members/:user_id/data-export',
      summary: "Prepare an archive of a member's data on their request",
      description: `For a member who asks by mail or phone (GDPR article 15): a new archive, prepared in the background; its signed link appears in dataExports of the member's detail once ready, for the operator to pass on. With the reason in the audit log. ${OPERATORS_ONLY}`,
      tags,
      params: ConsoleMemberParamsSchema,
      body: MemberActionBodySchema,
      response: ConsoleMemberDetailSchema,
      status: 201,
    },
    ({ caller, params, body }) => ops.requestDataExport(caller, params.user_id, body.reason),
  );

  api.route(
    {
      method: 'POST',
      url: '/console/members/:user_id/cancel-deletion',
      summary: 'Restore an account its member closed to delete it',
      description: `Takes the deletion request off (decision 147): the account is not erased and its member may sign in again; with the reason in the audit log (member.deletion_cancelled). Nothing changes for an account that is not closed. ${OPERATORS_ONLY}`,
      tags,
      params: ConsoleMemberParamsSchema,
      body: MemberActionBodySchema,
      response: ConsoleMemberDetailSchema,
    },
    ({ caller, params, body }) => ops.cancelDeletion(caller, params.user_id, body.reason),
  );

  api.route(
    {
      method: 'POST',
      url: '/console/members/:user_id/erase',
      summary: "Erase a closed account now, at its member's request",
      description: `For a member who closed the account and asks that it be erased without waiting the 30 days (decision 147): the same erasure as the hourly clean-up's, at once, with the reason in the audit log (member.erased). 409 when the account is not closed. ${OPERATORS_ONLY}`,
      tags,
      params: ConsoleMemberParamsSchema,
      body: MemberActionBodySchema,
      response: ConsoleMemberDetailSchema,
    },
    ({ caller, params, body }) => ops.eraseNow(caller, params.user_id, body.reason),
  );

  api.route(
    {
      method: 'POST',
      url: '/console/members/:user_id/enable',
      summary: 'Enable a disabled account',
      description: `The member may sign in again; with the reason in the audit log. ${OPERATORS_ONLY}`,
      tags,
      params: ConsoleMemberParamsSchema,
      body: MemberActionBodySchema,
      response: ConsoleMemberDetailSchema,
    },
    ({ caller, params, body }) => ops.enable(caller, params.user_id, body.reason),
  );

  api.route(
    {
      method: 'GET',
      url: '/console/acquisition/',
      summary: 'Sign-ups and paid orders per campaign',
      description: `The report of \`npm run report -- acquisition\`. ${OPERATORS_ONLY}`,
      tags,
      query: AcquisitionQuerySchema,
      response: AcquisitionReportSchema,
    },
    ({ caller, query }) => ops.acquisition(caller, query.since),
  );

  api.route(
    {
      method: 'GET',
      url: '/console/audit/',
      summary: 'The audit log, newest first',
      description: `50 entries a page; \`before\` is the previous page's nextBefore; target_type and target_id filter together. Read only. ${OPERATORS_ONLY}`,
      tags,
      query: AuditQuerySchema,
      response: AuditPageSchema,
    },
    ({ caller, query }) => ops.audit(caller, query),
  );
}
