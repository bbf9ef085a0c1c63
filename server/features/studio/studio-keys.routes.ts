import {
  NewStudioKeySchema,
  STUDIO_KEYS_MAX,
  StudioGameSlugParamsSchema,
  StudioKeyBodySchema,
  StudioKeyGameSchema,
  StudioKeyListSchema,
  StudioKeyParamsSchema,
} from '#common/api/studio-keys.schema.ts';
import type { ApiRouter } from '#server/http/api-router.ts';
import type { DevelopersService } from './developers.service.ts';
import type { StudioKeysService } from './studio-keys.service.ts';

const TAGS = ['studio: keys'];
const SESSION_ONLY =
  'With a session token only: a Studio key is refused here (401), so a leaked key cannot make or list keys. Without a studio profile 403 (decision 102).';

/** A developer's Studio keys for build pipelines, and the one lookup the command-line upload makes first (decision 102). */
export function studioKeysRoutes(api: ApiRouter, keys: StudioKeysService, developers: DevelopersService): void {
  api.route(
    {
      method: 'GET',
      url: '/studio/keys/',
      summary: "The developer's Studio keys",
      description: `Name, creation and last use of each; never the key itself. ${SESSION_ONLY}`,
      tags: TAGS,
      auth: 'required',
      response: StudioKeyListSchema,
    },
    ({ caller }) => keys.list(caller),
  );

  api.route(
    {
      method: 'POST',
      url: '/studio/keys/',
      summary: 'Make a Studio key',
      description: `The whole key is in this answer only; it is stored as a SHA-256. At most ${STUDIO_KEYS_MAX} keys per developer (409 beyond). ${SESSION_ONLY}`,
      tags: TAGS,
      auth: 'required',
      body: StudioKeyBodySchema,
      response: NewStudioKeySchema,
      status: 201,
    },
    ({ caller, body }) => keys.create(caller, body.name),
  );

  api.route(
    {
      method: 'DELETE',
      url: '/studio/keys/:key_id',
      summary: 'Revoke a Studio key',
      description: `It stops working at once. 404 for a key that is not the caller's. ${SESSION_ONLY}`,
      tags: TAGS,
      auth: 'required',
      params: StudioKeyParamsSchema,
    },
    async ({ caller, params }) => {
      await keys.revoke(caller, params.key_id);
      return null;
    },
  );

  api.route(
    {
      method: 'GET',
      url: '/studio/games/by-slug/:slug',
      summary: "The developer's game with this slug",
      description: "Accepts a Studio key. 404 for a game that is not the caller's, as for one that does not exist.",
      tags: ['studio: builds'],
      auth: 'required',
      studioKey: true,
      params: StudioGameSlugParamsSchema,
      response: StudioKeyGameSchema,
    },
    ({ caller, params, locale }) => developers.requireOwnGameBySlug(caller, params.slug, locale),
  );
}
