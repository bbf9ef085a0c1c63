import multipart from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { ApiRouter } from '#server/http/api-router.ts';
import { AppError, fieldError } from '#server/lib/app-error.ts';
import {
  DeveloperProfileAnswerSchema,
  DeveloperProfileBodySchema,
  DeveloperProfileSchema,
  STUDIO_IMAGE_FIELD,
  STUDIO_IMAGE_MAX_BYTES,
  StudioGameListSchema,
  StudioGameParamsSchema,
  StudioImageSchema,
  StudioImageUploadSchema,
} from '#common/api/studio.schema.ts';
import type { StudioGamesService } from './studio-games.service.ts';

const TAGS = ['studio'];
const ROLES =
  'Without a token 401. The profile calls are for members (a guest gets 403); the list and a new game need a studio profile (403 without one); ' +
  "a game's calls answer 404 for a game that is not the caller's, as for one that does not exist (decision 095).";
const MULTIPART_LOG_REDACTIONS = ['busboyOptions.headers.authorization', 'busboyOptions.headers.cookie', 'busboyOptions.headers["x-xsrf-token"]'];

/** The Studio's calls about the developer's profile and games' metadata (decision 096). */
export async function studioRoutes(api: ApiRouter, studio: StudioGamesService): Promise<void> {
  const { create, metadata, game } = studio.schemas;

  api.route(
    {
      method: 'GET',
      url: '/studio/profile/',
      summary: "The caller's studio profile",
      description: ROLES,
      tags: TAGS,
      auth: 'required',
      response: DeveloperProfileAnswerSchema,
    },
    async ({ caller }) => ({ profile: await studio.profile(caller) }),
  );

  api.route(
    {
      method: 'PUT',
      url: '/studio/profile/',
      summary: 'Create or change the studio profile',
      description: `A member becomes a developer by creating one. ${ROLES}`,
      tags: TAGS,
      auth: 'required',
      body: DeveloperProfileBodySchema,
      response: DeveloperProfileSchema,
    },
    ({ caller, body }) => studio.saveProfile(caller, body),
  );

  api.route(
    {
      method: 'GET',
      url: '/studio/games/',
      summary: "The developer's games",
      description: ROLES,
      tags: TAGS,
      auth: 'required',
      response: StudioGameListSchema,
    },
    async ({ caller, locale }) => ({ games: await studio.list(caller, locale) }),
  );

  api.route(
    {
      method: 'POST',
      url: '/studio/games/',
      summary: 'Create a game',
      description:
        'A draft game of the caller: unpublished (not listed, searched or playable until an operator approves a build of it), its files to come at /games/{slug}/index.html. ' +
        `A slug that is taken gets 422 with data.errors.slug. 20 new games a day per developer (429 beyond). ${ROLES}`,
      tags: TAGS,
      auth: 'required',
      body: create,
      response: game,
      status: 201,
    },
    ({ caller, body }) => studio.create(caller, body),
  );

  api.route(
    {
      method: 'GET',
      url: '/studio/games/:id/',
      summary: "One of the developer's games",
      description: ROLES,
      tags: TAGS,
      auth: 'required',
      params: StudioGameParamsSchema,
      response: game,
    },
    ({ caller, params }) => studio.game(caller, params.id),
  );

  api.route(
    {
      method: 'PUT',
      url: '/studio/games/:id/',
      summary: "Replace a game's metadata",
      description:
        'The fields of a catalogue entry (docs/catalogue-entry.schema.json) with images uploaded through POST /studio/games/{id}/images/. ' +
        `Every problem is answered at once (422, data.errors by field) and nothing changes. ${ROLES}`,
      tags: TAGS,
      auth: 'required',
      params: StudioGameParamsSchema,
      body: metadata,
      response: game,
    },
    ({ caller, params, body }) => studio.save(caller, params.id, body),
  );

  // Multipart parsing exists only in this scope: every other route keeps rejecting multipart bodies.
  await api.app.register(async (scope) => {
    await scope.register(multipart, { limits: { fileSize: STUDIO_IMAGE_MAX_BYTES, files: 1, fields: 5, parts: 6 } });
    // At trace level the multipart plugin logs every request header, bearer token included.
    scope.addHook('onRequest', async (request) => {
      request.log = request.log.child({}, { redact: MULTIPART_LOG_REDACTIONS });
    });
    const uploads = new ApiRouter(scope);
    uploads.route(
      {
        method: 'POST',
        url: '/studio/games/:id/images/',
        summary: 'Upload an image for a game',
        description:
          `multipart/form-data with one file part (named "${STUDIO_IMAGE_FIELD}"): PNG, JPEG, WebP, GIF or AVIF, recognised from its bytes, at most 5 MB and 10000 px a side; ` +
          'stored as WebP under a content-hash name in the uploads (served at /uploads/catalogue/, resized by the image endpoint). ' +
          `Anything else gets 422 with data.errors.${STUDIO_IMAGE_FIELD}. 200 uploads an hour per developer (429 beyond). ${ROLES}`,
        tags: TAGS,
        auth: 'required',
        params: StudioGameParamsSchema,
        multipart: StudioImageUploadSchema,
        response: StudioImageSchema,
        status: 201,
      },
      async ({ caller, params, request }) => {
        // The role is checked before the body is read.
        await studio.game(caller, params.id);
        return studio.uploadImage(caller, params.id, await readImage(request));
      },
    );
    api.routes.push(...uploads.routes);
  });
}

/** The bytes of the upload's file part; stops reading at the size limit. */
async function readImage(request: FastifyRequest): Promise<Buffer> {
  const errors = request.server.multipartErrors;
  try {
    const file = await request.file();
    if (!file) throw fieldError({ [STUDIO_IMAGE_FIELD]: ['studio:games.errors.imageRequired'] });
    return await file.toBuffer();
  } catch (error) {
    if (error instanceof AppError) throw error;
    if (error instanceof errors.RequestFileTooLargeError) throw fieldError({ [STUDIO_IMAGE_FIELD]: ['studio:games.errors.imageTooLarge'] }, error);
    if (error instanceof errors.InvalidMultipartContentTypeError) throw new AppError('unsupported_media_type', { cause: error });
    // Anything else here is the parser failing on the body the client sent (no boundary, a form cut short, too many parts).
    throw new AppError('bad_request', { cause: error });
  }
}
