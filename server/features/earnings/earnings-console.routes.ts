import { z } from 'zod';
import {
  LedgerCorrectionBodySchema,
  LedgerCorrectionSchema,
  ReconciliationQuerySchema,
  ReconciliationResultSchema,
  SetRevenueTermsBodySchema,
  StudioParamsSchema,
  StudioRevenueTermsSchema,
} from '#common/api/earnings-console.schema.ts';
import { ApiRouter, type RouteDefinition } from '#server/http/api-router.ts';
import type { ReconciliationService } from './reconciliation.service.ts';
import type { RevenueTermsService } from './revenue-terms.service.ts';

const OPERATORS_ONLY = '401 without a session, 403 for anyone who is not an operator (decision 095).';

/** The largest report the Console takes: some 30,000 transactions. */
export const REPORT_BODY_LIMIT = 8 * 1024 * 1024;

const ReportBodySchema = z.string().min(1).meta({ description: 'The report as Xsolla exports it (CSV, UTF-8, with or without a byte-order mark)' });

/** The Console's part of studios' earnings (decision 149): revenue terms and the reconciliation with the provider's report. */
export async function earningsConsoleRoutes(api: ApiRouter, services: { terms: RevenueTermsService; reconciliation: ReconciliationService }): Promise<void> {
  const tags = ['console'];
  api.route(
    {
      method: 'GET',
      url: '/console/studios/:user_id/terms',
      summary: "A studio's revenue terms",
      description: `The share in force now, the default and every terms set, the latest start first. For a member without a studio profile (or no member), \`studio\` is null and there are no terms. ${OPERATORS_ONLY}`,
      tags,
      params: StudioParamsSchema,
      response: StudioRevenueTermsSchema,
    },
    ({ caller, params }) => services.terms.terms(caller, params.user_id),
  );

  api.route(
    {
      method: 'POST',
      url: '/console/studios/:user_id/terms',
      summary: 'Set a studio’s revenue share from a start',
      description:
        'Orders paid from the start on are split at the new share; an order keeps the share in force when it was paid, and so do its refunds, so the start cannot be in the past (422; earlier today means from now on). ' +
        `The reason goes to the audit log (studio.revenue_terms) in the same transaction. 404 for a member without a studio profile. ${OPERATORS_ONLY}`,
      tags,
      params: StudioParamsSchema,
      body: SetRevenueTermsBodySchema,
      response: StudioRevenueTermsSchema,
      status: 201,
    },
    ({ caller, params, body }) => services.terms.setTerms(caller, params.user_id, body),
  );

  api.route(
    {
      method: 'POST',
      url: '/console/studios/:user_id/corrections',
      summary: "Correct a studio's balance",
      description:
        "A new ledger entry (decision 149): the amount to the studio's balance (negative: from it), against the platform's, available at once; nothing in the ledger is ever changed. " +
        `The reason is kept on the entry and in the audit log (studio.ledger_correction) in the same transaction; the same \`idempotencyKey\` posts it once (then \`posted\` is false). 404 for a member without a studio profile. ${OPERATORS_ONLY}`,
      tags,
      params: StudioParamsSchema,
      body: LedgerCorrectionBodySchema,
      response: LedgerCorrectionSchema,
      status: 201,
    },
    ({ caller, params, body }) => services.terms.correct(caller, params.user_id, body),
  );

  const reconciliation: RouteDefinition<typeof ReportBodySchema, typeof ReconciliationQuerySchema, undefined> = {
    method: 'POST',
    url: '/console/earnings/reconciliation',
    summary: "Compare the payment provider's transaction report with the ledger",
    description:
      'Xsolla\'s transaction report (the registry, CSV; docs/payments.md, "Reconciliation") compared with the ledger: every difference with its kind. ' +
      'The report as `text/csv` (up to 8 MB), or as one JSON string (`application/json`, up to 1 MB: the Console’s page). ' +
      `Reads only. Over the limit: 413; another content type: 415. ${OPERATORS_ONLY}`,
    tags,
    query: ReconciliationQuerySchema,
    body: ReportBodySchema,
    bodyContentType: 'text/csv',
    response: ReconciliationResultSchema,
  };
  api.documented(reconciliation);
  // The report is read as text in a scope of its own, so no other route accepts CSV.
  await api.app.register(async (scope) => {
    scope.addContentTypeParser('text/csv', { parseAs: 'string', bodyLimit: REPORT_BODY_LIMIT }, (_request, body, done) => done(null, body));
    new ApiRouter(scope).route(reconciliation, ({ caller, body, query }) => services.reconciliation.reconcileForOperator(caller, body, query));
  });
}
