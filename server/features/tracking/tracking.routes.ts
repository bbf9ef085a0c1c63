import { GameSessionListSchema, GameSessionParamsSchema, GameSessionReportSchema, GameSessionSchema } from '#common/api/game-stats.schema.ts';
import { PixelIdsQuerySchema, PixelIdsSchema } from '#common/api/tracking.schema.ts';
import type { ApiRouter } from '#server/http/api-router.ts';
import { clientFacts } from '#server/http/client-facts.ts';
import { AppError } from '#server/lib/app-error.ts';
import type { AdvertisingIdsService } from './advertising-ids.service.ts';
import type { GameSessionsService } from './game-sessions.service.ts';

/** Advertising measurement (decision 065): the ids the pixel sends, computed here so they match the server's. */
export function trackingRoutes(api: ApiRouter, ids: AdvertisingIdsService | null, sessions: GameSessionsService): void {
  api.route(
    {
      method: 'GET',
      url: '/tracking/ids/',
      summary: "The caller's advertising ids for the Meta pixel",
      description:
        'Keyed hashes (HMAC-SHA256) of the uid, of the registration and, with order_id, of the purchase: the pixel sends these, the Conversions API the same. ' +
        '403 for a visitor who is not from a facebook or meta campaign or has not consented; 404 when no pixel is configured.',
      tags: ['tracking'],
      auth: 'required',
      query: PixelIdsQuerySchema,
      response: PixelIdsSchema,
    },
    ({ caller, query, request }) => {
      if (!ids) throw new AppError('not_found');
      return ids.forPixel(caller!.userId, clientFacts(request), query.order_id);
    },
  );

  // Play statistics of games (SDK 1.1 `game` events; decision 093).
  api.route(
    {
      method: 'POST',
      url: '/tracking/game-sessions/:app_id',
      summary: 'Report a play session of a game',
      description:
        'The play page sends the whole of one visit so far, every 20 s and when the page is hidden; the latest report counts (first loading and gameplay figures stay, play time only grows). ' +
        'Refused: a session of another player or game (409), more play time than the session has lasted (422), more than 20 reports a minute or 200 sessions a game a day (429).',
      tags: ['tracking'],
      auth: 'required',
      params: GameSessionParamsSchema,
      body: GameSessionReportSchema,
      response: GameSessionSchema,
    },
    ({ caller, params, body }) => sessions.record(caller!, params.app_id, body),
  );

  api.route(
    {
      method: 'GET',
      url: '/tracking/game-sessions/:app_id',
      summary: "The caller's latest play sessions of a game",
      description: 'What was recorded about the caller for this game: the latest 20 sessions.',
      tags: ['tracking'],
      auth: 'required',
      params: GameSessionParamsSchema,
      response: GameSessionListSchema,
    },
    async ({ caller, params }) => ({ items: await sessions.mine(caller!, params.app_id) }),
  );
}
