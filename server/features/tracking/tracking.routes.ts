import { PixelIdsQuerySchema, PixelIdsSchema } from '#common/api/tracking.schema.ts';
import type { ApiRouter } from '#server/http/api-router.ts';
import { clientFacts } from '#server/http/client-facts.ts';
import { AppError } from '#server/lib/app-error.ts';
import type { AdvertisingIdsService } from './advertising-ids.service.ts';

/** Advertising measurement (decision 065): the ids the pixel sends, computed here so they match the server's. */
export function trackingRoutes(api: ApiRouter, ids: AdvertisingIdsService | null): void {
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
}
