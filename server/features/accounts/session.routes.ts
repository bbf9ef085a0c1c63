import { z } from 'zod';
import type { ApiRouter } from '#server/http/api-router.ts';

const SessionCheckSchema = z.object({ valid: z.boolean(), uid: z.number().nullable() });

/** Session calls that need nothing but the token. */
export function sessionRoutes(api: ApiRouter): void {
  api.route(
    {
      method: 'POST',
      url: '/session/check',
      summary: 'Tell whether the bearer token is valid',
      tags: ['session'],
      auth: 'optional',
      response: SessionCheckSchema,
    },
    ({ caller }) => ({ valid: caller !== null, uid: caller?.userId ?? null }),
  );
}
