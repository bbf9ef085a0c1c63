import { AppParamsSchema, GameLoginSchema, JwksSchema, SaveBodySchema, SaveParamsSchema, SaveSchema } from '#common/api/game-store.schema.ts';
import type { FastifyReply } from 'fastify';
import type { ApiRouter } from '#server/http/api-router.ts';
import { PREVIEW_HEADER_NOTE, previewLabelOf } from '#server/http/preview-header.ts';
import type { GamesService } from './games.service.ts';

const TAGS = ['game bridge'];

/** The game bridge (spec section 7; decision 064): the play page calls these for the game in its frame. */
export function gamesRoutes(api: ApiRouter, games: GamesService): void {
  api.route(
    {
      method: 'POST',
      url: '/game/login/:app_id',
      summary: 'A sign-in token for a game',
      description:
        'An EdDSA (Ed25519) JWT for the caller and this app, valid 10 minutes: iss the portal origin, aud "app:{app_id}", sub the uid, nickname, guest. ' +
        "A game's backend verifies it offline with the keys at /serve/api/game/jwks.json." +
        PREVIEW_HEADER_NOTE,
      tags: TAGS,
      auth: 'required',
      params: AppParamsSchema,
      response: GameLoginSchema,
    },
    ({ caller, params, request }) => games.login(caller!, params.app_id, previewLabelOf(request)),
  );

  api.documented({
    method: 'GET',
    url: '/game/jwks.json',
    summary: 'The keys game tokens are signed with (JWKS)',
    description:
      'A plain RFC 7517 key set, not the envelope, so that JWT libraries read it as it is (jose.createRemoteJWKSet). Also at /.well-known/jwks.json.',
    tags: TAGS,
    auth: 'none',
    rawResponses: {
      '200': { description: 'The key set', schema: JwksSchema, contentType: JWKS_CONTENT_TYPE },
      '400': { description: 'Malformed request URL, in the envelope' },
    },
  });
  api.app.get('/game/jwks.json', { config: { auth: 'none', csrf: false } }, async (_request, reply) => sendKeySet(reply, games));

  api.route(
    {
      method: 'GET',
      url: '/game/saves/:app_id/:key',
      summary: "A value of the caller's cloud save for a game",
      description: PREVIEW_HEADER_NOTE.trim(),
      tags: TAGS,
      auth: 'required',
      params: SaveParamsSchema,
      response: SaveSchema,
    },
    ({ caller, params, request }) => games.getSave(caller!, params.app_id, params.key, previewLabelOf(request)),
  );

  api.route(
    {
      method: 'PUT',
      url: '/game/saves/:app_id/:key',
      summary: "Store a value in the caller's cloud save for a game",
      description:
        'Any JSON value, at most 64 KB as JSON text; all keys of one app together at most 256 KB. Past either: 413 `save_too_large` or `saves_full`.' +
        PREVIEW_HEADER_NOTE,
      tags: TAGS,
      auth: 'required',
      params: SaveParamsSchema,
      body: SaveBodySchema,
      response: SaveSchema,
    },
    ({ caller, params, body, request }) => games.putSave(caller!, params.app_id, params.key, body.value, previewLabelOf(request)),
  );

  api.route(
    {
      method: 'DELETE',
      url: '/game/saves/:app_id/:key',
      summary: "Remove a value of the caller's cloud save",
      description: PREVIEW_HEADER_NOTE.trim(),
      tags: TAGS,
      auth: 'required',
      params: SaveParamsSchema,
      response: SaveSchema,
    },
    ({ caller, params, request }) => games.deleteSave(caller!, params.app_id, params.key, previewLabelOf(request)),
  );
}

const JWKS_CONTENT_TYPE = 'application/jwk-set+json';

/** The key set as RFC 7517 has it; caches may keep it an hour, and a new key id makes verifiers fetch it again. */
export function sendKeySet(reply: FastifyReply, games: Pick<GamesService, 'jwks'>): FastifyReply {
  return reply.type(JWKS_CONTENT_TYPE).header('cache-control', 'public, max-age=3600').send(games.jwks());
}
