import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { Server as TusServer } from '@tus/server';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { AppIdSchema } from '#common/api/catalogue.schema.ts';
import type { ApiEnvelope } from '#common/api/envelope.ts';
import {
  BuildListSchema,
  BuildParamsSchema,
  BuildProblemSchema,
  BuildSchema,
  GameBuildParamsSchema,
  GameParamsSchema,
  OperatorRollbackBodySchema,
  RejectBodySchema,
  ReviewQueueSchema,
} from '#common/api/studio-builds.schema.ts';
import type { Locale } from '#common/locales.ts';
import { type IncomingUploads, removeIncomingUpload, withLocalCopy } from '#server/adapters/storage/incoming-uploads.ts';
import { errorEnvelope, statusOf } from '#server/http/errors.ts';
import type { ApiRouter } from '#server/http/api-router.ts';
import { parseOrThrow } from '#server/http/validation.ts';
import { translator } from '#server/i18n.ts';
import { AppError } from '#server/lib/app-error.ts';
import { isServiceOutage, OUTAGE_RETRY_AFTER_SECONDS, outageError } from '#server/lib/service-outage.ts';
import type { BuildUploadsService } from './build-uploads.service.ts';
import type { BuildsService } from './builds.service.ts';
import type { DevelopersService } from './developers.service.ts';

const STUDIO = ['studio: builds'];
const CONSOLE = ['console: reviews'];
const UPLOADS = '/studio/games/:app_id/uploads';
/** An upload's id names its game, so a request for it under another game's address finds nothing. */
const UPLOAD_PATH = /\/studio\/games\/(\d+)\/uploads(?:\/(\d+-[0-9a-f]{32}))?\/?$/;
/** Who sends each request handed to the upload server, in which language to answer, and the id of an upload it opens, as the portal found. */
const uploaders = new WeakMap<IncomingMessage, { userId: number; locale: Locale; opened?: string }>();
const uploaderOf = (req: { runtime?: { node?: { req: IncomingMessage } } }) => {
  const node = req.runtime?.node?.req;
  const uploader = node ? uploaders.get(node) : undefined;
  if (!uploader) throw new Error('an upload request the portal did not hand over');
  return uploader;
};

function uploadPath(url: string): { appId: number; uploadId: string | undefined } | null {
  const match = UPLOAD_PATH.exec(new URL(url, 'http://x').pathname);
  return match ? { appId: Number(match[1]), uploadId: match[2] } : null;
}

/**
 * The Studio's build calls and the Console's review calls (decision 097), and the resumable upload
 * (the tus protocol) of a build's zip: created, resumed and finished by the developer of that game
 * only, refused above the size cap before a byte is accepted, and checked when its last byte arrives.
 */
export async function buildsRoutes(
  api: ApiRouter,
  options: { builds: BuildsService; uploads: BuildUploadsService; developers: DevelopersService; incoming: IncomingUploads },
): Promise<void> {
  const { builds, uploads, developers, incoming } = options;
  // The store's ids are the uploads' ids after the store's prefix (in a bucket, the unfinished uploads' prefix).
  const { idPrefix } = incoming;
  const uploadIdOf = (storeId: string) => storeId.slice(idPrefix.length);
  const tus = new TusServer({
    path: '/serve/api/studio/games/uploads',
    datastore: incoming.datastore,
    maxSize: builds.maxArchiveBytes,
    relativeLocation: true,
    respectForwardedHeaders: false,
    // The id opened under the studio's limits; a random one only for an upload refused above the size cap.
    namingFunction: (req) => idPrefix + (uploaderOf(req as never).opened ?? `${uploadPath(req.url)!.appId}-${randomBytes(16).toString('hex')}`),
    generateUrl: (_req, { id }) => `/serve/api/studio/games/${uploadIdOf(id).split('-')[0]}/uploads/${uploadIdOf(id)}`,
    getFileIdFromRequest: (req) => {
      const uploadId = uploadPath(req.url)?.uploadId;
      return uploadId === undefined ? undefined : idPrefix + uploadId;
    },
    // A store that is away (the bucket, the folder's volume) answers as every API outage does: 503
    // with Retry-After in the API's envelope, so the Studio's uploader waits and resumes; any other
    // unknown failure is a 500 in the envelope, without the error's message.
    onResponseError: (req, error) => {
      const status = (error as { status_code?: number }).status_code;
      if (status !== undefined && status < 500) return undefined;
      const runtime = (req as { runtime?: { node?: { req: IncomingMessage; res?: { setHeader(name: string, value: string): void } } } }).runtime?.node;
      const locale = (runtime && uploaders.get(runtime.req)?.locale) ?? 'en';
      const outage = isServiceOutage(error);
      if (outage) runtime?.res?.setHeader('Retry-After', String(OUTAGE_RETRY_AFTER_SECONDS));
      const failure = outage ? outageError(error) : new AppError('internal');
      return { status_code: statusOf(failure.code), body: JSON.stringify(errorEnvelope(failure, locale)) };
    },
    onUploadFinish: async (req, upload) => {
      const { userId, locale } = uploaderOf(req as never);
      const id = uploadIdOf(upload.id);
      const appId = Number(id.split('-')[0]);
      const headers = { 'Content-Type': 'application/json; charset=utf-8' };
      try {
        const build = await withLocalCopy(incoming.files, id, (zipPath) =>
          builds.createFromArchive(userId, appId, zipPath, upload.size ?? upload.offset, locale),
        );
        const envelope: ApiEnvelope = { code: 201, message: translator(locale)('errors:ok'), data: build };
        return { status_code: 200, headers, body: JSON.stringify(envelope) };
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        return { status_code: statusOf(error.code), headers, body: JSON.stringify(errorEnvelope(error, locale)) };
      } finally {
        await removeIncomingUpload(incoming, id).catch(() => undefined);
        await uploads.close(id);
      }
    },
  });

  // The upload's bytes are read by the upload server itself, never parsed.
  api.app.addContentTypeParser('application/offset+octet-stream', (_request, _payload, done) => done(null));
  const handOver = async (request: FastifyRequest, reply: FastifyReply) => {
    const where = uploadPath(request.url);
    // An upload belongs to the game its id names: under another game's address it is not found.
    if (!where || (where.uploadId !== undefined && where.uploadId.split('-')[0] !== String(where.appId))) throw new AppError('not_found');
    parseOrThrow(AppIdSchema, String(where.appId), request.locale);
    const userId = await developers.requireDeveloperOf(request.caller, where.appId);
    const uploader: { userId: number; locale: Locale; opened?: string } = { userId, locale: request.locale };
    if (where.uploadId === undefined) {
      // Decision 109: every upload announces its size, which is charged to the studio's day before a byte arrives.
      const announced = request.headers['upload-length'];
      if (typeof announced !== 'string' || !/^\d{1,15}$/.test(announced)) throw new AppError('bad_request');
      const bytes = Number(announced);
      if (bytes <= builds.maxArchiveBytes) uploader.opened = await uploads.open(userId, where.appId, bytes);
    } else if (request.method === 'PATCH') {
      await uploads.receiving(where.uploadId);
    } else if (request.method === 'HEAD') {
      await uploads.requireOpen(where.uploadId);
    } else {
      await uploads.close(where.uploadId);
    }
    uploaders.set(request.raw, uploader);
    reply.hijack();
    try {
      await tus.handle(request.raw, reply.raw);
    } finally {
      // An upload the upload server did not create does not hold one of the studio's places.
      if (uploader.opened !== undefined && reply.raw.statusCode !== 201) await uploads.close(uploader.opened);
    }
  };
  api.app.route({ method: ['POST'], url: UPLOADS, config: { auth: 'required', csrf: true, studioKey: true }, handler: handOver });
  api.app.route({ method: ['PATCH', 'DELETE'], url: `${UPLOADS}/:upload_id`, config: { auth: 'required', csrf: true, studioKey: true }, handler: handOver });
  api.app.route({ method: ['HEAD'], url: `${UPLOADS}/:upload_id`, config: { auth: 'required', csrf: false, studioKey: true }, handler: handOver });

  const uploadDescription =
    'The tus 1.0 resumable upload protocol (creation, core, termination), with a session token or a Studio key (decision 102): `POST` with `Upload-Length` (required; refused with 413 above the cap before any byte, and with 429 `upload_limit` past the studio’s open uploads or bytes of the day, `data.limit` `open_uploads` or `daily_bytes`, decision 109) and `Tus-Resumable: 1.0.0`, then `PATCH` the bytes to the `Location` answered, `HEAD` to learn the offset after a dropped connection. An upload that received nothing for a day is removed: its `HEAD` and `PATCH` then answer 404, and the client starts again. The developer of the game only (404 to anyone else). ' +
    'The last `PATCH` answers 200 with the new build in the envelope, or 422 `validation` with `data.problems`: every problem of the archive at once.';
  api.documented({
    method: 'POST',
    url: UPLOADS,
    summary: "Start a resumable upload of a build's zip",
    description: uploadDescription,
    tags: STUDIO,
    auth: 'required',
    studioKey: true,
    params: GameParamsSchema,
    rawResponses: {
      '201': {
        description: 'Created; `Location` is the upload to send the bytes to',
        contentType: 'text/plain',
        schema: z.string().max(0).meta({ description: 'No body' }),
      },
      '413': { description: 'Larger than a build may be' },
      '429': {
        description:
          "`upload_limit`: the studio's unfinished uploads at once (`open_uploads`) or megabytes of the day (`daily_bytes`, with `Retry-After`); nothing was opened",
        schema: z.object({ data: z.object({ limit: z.enum(['open_uploads', 'daily_bytes']), max: z.number() }).loose() }).loose(),
      },
    },
  });
  api.documented({
    method: 'DELETE',
    url: `${UPLOADS}/:upload_id`,
    summary: 'Abandon an unfinished upload',
    description:
      "Its bytes are removed and it no longer counts against the studio's open uploads (decision 109). The developer of the game only (404 to anyone else).",
    tags: STUDIO,
    auth: 'required',
    studioKey: true,
    params: GameParamsSchema.extend({ upload_id: z.string() }),
    rawResponses: { '204': { description: 'Removed' }, '404': { description: 'No such upload of this game, or not the caller’s game' } },
  });
  api.documented({
    method: 'PATCH',
    url: `${UPLOADS}/:upload_id`,
    summary: "Send bytes of a build's zip",
    description: uploadDescription,
    tags: STUDIO,
    auth: 'required',
    studioKey: true,
    params: GameParamsSchema.extend({ upload_id: z.string() }),
    rawResponses: {
      '200': { description: 'The last bytes: the build, in the envelope', schema: z.object({ data: BuildSchema }).loose() },
      '204': { description: 'Bytes received; more to come' },
      '422': { description: 'Every problem of the archive', schema: z.object({ data: z.object({ problems: z.array(BuildProblemSchema) }) }).loose() },
    },
  });

  api.route(
    {
      method: 'GET',
      url: '/studio/games/:app_id/builds',
      summary: "A developer's builds of their game, newest first",
      description:
        'Each with its status, the reason when rejected, whether it is live, and its private preview link. 404 for a game the caller does not own. Accepts a Studio key.',
      tags: STUDIO,
      auth: 'required',
      studioKey: true,
      params: GameParamsSchema,
      response: BuildListSchema,
    },
    ({ caller, params }) => builds.list(caller, params.app_id),
  );

  api.route(
    {
      method: 'POST',
      url: '/studio/games/:app_id/builds/:build_id/submit',
      summary: 'Send a build for review',
      description: 'An uploaded or rejected build; 409 for one in review or approved. Accepts a Studio key.',
      tags: STUDIO,
      auth: 'required',
      studioKey: true,
      params: GameBuildParamsSchema,
      response: BuildSchema,
    },
    ({ caller, params }) => builds.submit(caller, params.app_id, params.build_id),
  );

  api.route(
    {
      method: 'POST',
      url: '/studio/games/:app_id/rollback',
      summary: 'Make the approved build before the live one live again',
      description: '409 when there is no earlier approved build.',
      tags: STUDIO,
      auth: 'required',
      params: GameParamsSchema,
      response: BuildSchema,
    },
    ({ caller, params }) => builds.rollback(caller, params.app_id),
  );

  api.route(
    {
      method: 'POST',
      url: '/studio/games/:app_id/builds/:build_id/live',
      summary: 'Make an approved build live: back to an earlier one, or forward to a later one',
      description:
        'Any approved build of the game (decision 122); the live build again changes nothing. 409 for a build that is not approved, 404 for a build of another game. Not with a Studio key: a pipeline uploads, people choose what plays.',
      tags: STUDIO,
      auth: 'required',
      params: GameBuildParamsSchema,
      response: BuildSchema,
    },
    ({ caller, params }) => builds.makeLive(caller, params.app_id, params.build_id),
  );

  api.route(
    {
      method: 'GET',
      url: '/console/reviews',
      summary: 'Builds waiting for review, oldest first',
      description: 'Operators only (403 to members).',
      tags: CONSOLE,
      auth: 'required',
      response: ReviewQueueSchema,
    },
    async ({ caller, locale }) => ({ builds: await builds.queue(caller, locale) }),
  );

  api.route(
    {
      method: 'POST',
      url: '/console/builds/:build_id/approve',
      summary: 'Approve a build: the game is published with it live at once',
      description: 'Operators only; recorded in the audit log. 409 for a build not in review.',
      tags: CONSOLE,
      auth: 'required',
      params: BuildParamsSchema,
      response: BuildSchema,
    },
    ({ caller, params }) => builds.approve(caller, params.build_id),
  );

  api.route(
    {
      method: 'POST',
      url: '/console/builds/:build_id/reject',
      summary: 'Reject a build with a reason the developer reads',
      description: 'Operators only; recorded in the audit log. 409 for a build not in review.',
      tags: CONSOLE,
      auth: 'required',
      params: BuildParamsSchema,
      body: RejectBodySchema,
      response: BuildSchema,
    },
    ({ caller, params, body }) => builds.reject(caller, params.build_id, body.reason),
  );

  api.route(
    {
      method: 'POST',
      url: '/console/games/:app_id/rollback',
      summary: "Make a game's previous approved build live again",
      description: 'Operators only; recorded in the audit log with the optional reason. 409 when there is no earlier approved build.',
      tags: CONSOLE,
      auth: 'required',
      params: GameParamsSchema,
      body: OperatorRollbackBodySchema,
      response: BuildSchema,
    },
    ({ caller, params, body }) => builds.rollbackAsOperator(caller, params.app_id, body.reason),
  );
}
