import { z } from 'zod';
import { StudioStatsParamsSchema, StudioStatsQuerySchema, StudioStatsSchema } from '#common/api/studio-stats.schema.ts';
import type { ApiRouter } from '#server/http/api-router.ts';
import type { StudioStatsService } from './studio-stats.service.ts';

/** A developer's statistics of their game (decision 101): figures for the Studio's page, and CSV. */
export function studioStatsRoutes(api: ApiRouter, stats: StudioStatsService): void {
  api.route(
    {
      method: 'GET',
      url: '/studio/games/:id/stats',
      summary: "A developer's statistics of their game",
      description:
        'Per UTC day over the last 7, 30 or 90 days: plays, players, average play time, median time to gameplay, new players, and sales and refunds per item. ' +
        'Only for the developer of the game: 401 without a token, 404 for any other caller (a game of another developer is not revealed).',
      tags: ['studio'],
      auth: 'required',
      params: StudioStatsParamsSchema,
      query: StudioStatsQuerySchema,
      response: StudioStatsSchema,
    },
    ({ caller, params, query, locale }) => stats.stats(caller, params.id, query.days, locale),
  );

  api.route(
    {
      method: 'GET',
      url: '/studio/games/:id/stats/csv',
      summary: "A developer's statistics of their game, as CSV",
      description:
        'The same figures as `/studio/games/{id}/stats` as a CSV file (RFC 4180, UTF-8, a header row, CRLF line ends): a row per day for the game, then a row per day and item sold; ' +
        'amounts in major units of the row’s currency. Refusals come in the JSON envelope.',
      tags: ['studio'],
      auth: 'required',
      params: StudioStatsParamsSchema,
      query: StudioStatsQuerySchema,
      rawResponses: {
        '200': { description: 'The statistics as a CSV attachment', contentType: 'text/csv', schema: z.string() },
        '400': { description: 'Malformed request URL, in the envelope' },
        '401': { description: 'Token is missing or invalid, in the envelope' },
        '404': { description: 'Not a game of the caller, in the envelope' },
        '422': { description: 'Invalid input: data.errors maps each field to its messages, in the envelope' },
      },
    },
    async ({ caller, params, query, locale, reply }) => {
      const file = await stats.csv(caller, params.id, query.days, locale);
      return reply
        .type('text/csv; charset=utf-8')
        .header('Content-Disposition', `attachment; filename="${file.filename}"`)
        .header('Cache-Control', 'private, no-store')
        .send(file.body);
    },
  );
}
