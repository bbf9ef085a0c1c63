import type { z } from 'zod';
import {
  AchievementParamsSchema,
  AchievementSchema,
  BackendScoreBodySchema,
  BackendUnlockBodySchema,
  BoardParamsSchema,
  BoardQuerySchema,
  GameRecordsSchema,
  LeaderboardSchema,
  MyAchievementsSchema,
  RecordsAppParamsSchema,
  SubmitScoreBodySchema,
  SubmitScoreSchema,
  UnlockSchema,
} from '#common/api/game-records.schema.ts';
import type { ApiEnvelope } from '#common/api/envelope.ts';
import type { ApiRouter } from '#server/http/api-router.ts';
import { parseOrThrow } from '#server/http/validation.ts';
import { translator } from '#server/i18n.ts';
import { AppError } from '#server/lib/app-error.ts';
import type { RecordsService } from './records.service.ts';

const TAGS = ['leaderboards and achievements'];
/** A backend call is one small JSON object. */
const BACKEND_BODY_LIMIT = 4 * 1024;
const SIGNED =
  "Signed by the game's backend (decision 092): `Playport-Timestamp` (Unix seconds, within 5 minutes of the portal's clock) and `Playport-Signature: v1={hex HMAC-SHA256 of \"{timestamp}.{raw body}\" with the game's secret}`; " +
  'a signature is accepted once. No token, no XSRF token. Refusals: 401 `signature_invalid` (data.reason: missing, expired, mismatch, replayed, no_secret).';

/** Leaderboards and achievements (SDK 1.1; decision 092): the play page's calls for the game, the app page's and My area's reads, and the game backend's signed calls. */
export async function recordsRoutes(api: ApiRouter, records: RecordsService): Promise<void> {
  api.route(
    {
      method: 'POST',
      url: '/game/leaderboards/:app_id/:board/scores',
      summary: "Submit the caller's score to a board",
      description:
        "Kept when it beats the caller's best of each period the board keeps. 404 for a board the game does not declare, 403 `backend_only` for a board only the game's backend may write, 422 `score_out_of_bounds` outside the board's bounds, 429 past 30 submissions and unlocks a minute per player and game.",
      tags: TAGS,
      auth: 'required',
      params: BoardParamsSchema,
      body: SubmitScoreBodySchema,
      response: SubmitScoreSchema,
    },
    ({ caller, params, body }) => records.submit({ kind: 'player', userId: caller!.userId }, params.app_id, params.board, body.score),
  );

  api.route(
    {
      method: 'GET',
      url: '/game/leaderboards/:app_id/:board',
      summary: 'The best scores of a board in a period',
      description: "Ties share a rank; the earlier score is listed first. With a token, `me` is the caller's own rank.",
      tags: TAGS,
      auth: 'optional',
      params: BoardParamsSchema,
      query: BoardQuerySchema,
      response: LeaderboardSchema,
    },
    ({ caller, params, query, locale }) => records.top(locale, params.app_id, params.board, query.period, query.limit, caller?.userId ?? null),
  );

  api.route(
    {
      method: 'GET',
      url: '/game/leaderboards/:app_id/:board/around',
      summary: "The caller's rank and the players around it",
      description: 'Up to `limit` rows centred on the caller; empty entries and `me: null` when the caller has no score in the period.',
      tags: TAGS,
      auth: 'required',
      params: BoardParamsSchema,
      query: BoardQuerySchema,
      response: LeaderboardSchema,
    },
    ({ caller, params, query, locale }) => records.around(locale, params.app_id, params.board, query.period, query.limit, caller!.userId),
  );

  api.route(
    {
      method: 'POST',
      url: '/game/achievements/:app_id/:achievement',
      summary: 'Unlock an achievement for the caller',
      description:
        'Once per player: a repeated unlock answers the first time, with `newlyUnlocked: false`. 403 `backend_only` for an achievement only the backend may unlock.',
      tags: TAGS,
      auth: 'required',
      params: AchievementParamsSchema,
      response: UnlockSchema,
    },
    ({ caller, params }) => records.unlock({ kind: 'player', userId: caller!.userId }, params.app_id, params.achievement),
  );

  api.route(
    {
      method: 'GET',
      url: '/game/achievements/:app_id',
      summary: "A game's achievements, with the caller's unlock times",
      tags: TAGS,
      auth: 'required',
      params: RecordsAppParamsSchema,
      response: AchievementSchema.array(),
    },
    ({ caller, params, locale }) => records.achievements(locale, params.app_id, caller!.userId),
  );

  api.route(
    {
      method: 'GET',
      url: '/game/records/:app_id',
      summary: "A game's boards (top ten of each period) and achievements (with how many players have each)",
      description: 'The same for every visitor (the app page polls it); may be up to 5 seconds old.',
      tags: TAGS,
      auth: 'none',
      params: RecordsAppParamsSchema,
      response: GameRecordsSchema,
    },
    async ({ params, locale, reply }) => {
      reply.header('cache-control', 'public, max-age=5');
      return records.records(locale, params.app_id);
    },
  );

  api.route(
    {
      method: 'GET',
      url: '/user/achievements',
      summary: "The caller's unlocked achievements, per game (My area)",
      tags: TAGS,
      auth: 'required',
      response: MyAchievementsSchema,
    },
    ({ caller, locale }) => records.myAchievements(locale, caller!.userId),
  );

  const backend = [
    {
      url: '/game/backend/:app_id/scores',
      summary: "Submit a player's score from the game's backend",
      body: BackendScoreBodySchema,
      response: SubmitScoreSchema,
      run: (appId: number, recorder: Parameters<RecordsService['submit']>[0], body: z.output<typeof BackendScoreBodySchema>) =>
        records.submit(recorder, appId, body.board, body.score),
    },
    {
      url: '/game/backend/:app_id/achievements',
      summary: 'Unlock an achievement for a player from the game’s backend',
      body: BackendUnlockBodySchema,
      response: UnlockSchema,
      run: (appId: number, recorder: Parameters<RecordsService['unlock']>[0], body: z.output<typeof BackendUnlockBodySchema>) =>
        records.unlock(recorder, appId, body.achievement),
    },
  ] as const;
  for (const route of backend)
    api.documented({
      method: 'POST',
      url: route.url,
      summary: route.summary,
      description: SIGNED,
      tags: TAGS,
      auth: 'none',
      csrf: false,
      params: RecordsAppParamsSchema,
      body: route.body,
      response: route.response,
    });
  // The signature covers the raw body, so these read it as text and parse it themselves.
  await api.app.register(async (scope) => {
    scope.removeContentTypeParser('application/json');
    scope.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: BACKEND_BODY_LIMIT }, (_request, body, done) => done(null, body));
    for (const route of backend) {
      scope.post(route.url, { config: { auth: 'none', csrf: false } }, async (request, reply) => {
        const locale = request.locale;
        const { app_id: appId } = parseOrThrow(RecordsAppParamsSchema, request.params, locale);
        const raw = typeof request.body === 'string' ? request.body : '';
        let json: unknown;
        try {
          json = JSON.parse(raw);
        } catch (cause) {
          throw new AppError('bad_request', { cause });
        }
        const body = parseOrThrow(route.body, json, locale);
        const header = (name: string) => (typeof request.headers[name] === 'string' ? (request.headers[name] as string) : undefined);
        const recorder = await records.verifyBackendCall(
          appId,
          { timestamp: header('playport-timestamp'), signature: header('playport-signature') },
          raw,
          body.uid,
        );
        const data = await route.run(appId, recorder, body as never);
        const envelope: ApiEnvelope = { code: 200, message: translator(locale)('errors:ok'), data };
        return reply.code(200).send(envelope);
      });
    }
  });
}
