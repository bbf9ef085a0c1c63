import { z } from 'zod';
import { EarningsOverviewSchema, EarningsStatementSchema, StatementParamsSchema } from '#common/api/earnings.schema.ts';
import type { ApiRouter } from '#server/http/api-router.ts';
import type { EarningsService } from './earnings.service.ts';

/** A studio's earnings in the Studio (decision 149): its balances and months, a statement as JSON and CSV. Its own studio only. */
export function earningsRoutes(api: ApiRouter, earnings: EarningsService): void {
  api.route(
    {
      method: 'GET',
      url: '/studio/earnings/',
      summary: "The signed-in studio's balances, share and statements",
      description:
        'Per currency: available (past the hold), pending (in the hold, with when it ends), in transit and paid out, in minor units; the share in force and since when; the hold in days; ' +
        'every statement month, the newest first (closed ones as frozen, open ones as they stand). Only for a developer: 401 without a token, 403 for a member without a studio profile.',
      tags: ['studio'],
      auth: 'required',
      response: EarningsOverviewSchema,
    },
    ({ caller }) => earnings.overview(caller),
  );

  api.route(
    {
      method: 'GET',
      url: '/studio/earnings/statements/:currency/:month',
      summary: "A monthly statement of the signed-in studio's",
      description:
        'A closed month as it was frozen, or the current month (or one not closed yet) computed now (`status: open`); lines per kind, game and item. ' +
        "Only the caller's own studio: 404 for a currency it has no entries in, a month before its first or after the current one; 422 for a malformed currency or month.",
      tags: ['studio'],
      auth: 'required',
      params: StatementParamsSchema,
      response: EarningsStatementSchema,
    },
    ({ caller, params, locale }) => earnings.statementFor(caller, params.currency, params.month, locale),
  );

  api.route(
    {
      method: 'GET',
      url: '/studio/earnings/statements/:currency/:month.csv',
      summary: "A monthly statement of the signed-in studio's, as CSV",
      description:
        'The lines of `/studio/earnings/statements/{currency}/{month}` as a CSV file (RFC 4180, UTF-8, a header row, CRLF line ends): month, currency, kind, game, item SKU, entries, gross, ' +
        'fees and taxes, platform, studio, amounts in major units with the currency’s decimals. Refusals come in the JSON envelope.',
      tags: ['studio'],
      auth: 'required',
      params: StatementParamsSchema,
      rawResponses: {
        '200': { description: 'The statement as a CSV attachment', contentType: 'text/csv', schema: z.string() },
        '400': { description: 'Malformed request URL, in the envelope' },
        '401': { description: 'Token is missing or invalid, in the envelope' },
        '403': { description: 'Not a developer, in the envelope' },
        '404': { description: 'No such statement of the caller’s studio, in the envelope' },
        '422': { description: 'Invalid input: data.errors maps each field to its messages, in the envelope' },
      },
    },
    async ({ caller, params, locale, reply }) => {
      const file = await earnings.statementCsvFor(caller, params.currency, params.month, locale);
      return reply
        .type('text/csv; charset=utf-8')
        .header('Content-Disposition', `attachment; filename="${file.filename}"`)
        .header('Cache-Control', 'private, no-store')
        .send(file.body);
    },
  );
}
