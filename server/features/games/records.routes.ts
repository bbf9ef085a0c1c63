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
import type { ApiRouter } from '#server/http/api-router.ts';
import { PREVIEW_HEADER_NOTE, previewLabelOf } from '#server/http/preview-header.ts';
import { signedRoute, signedRoutes } from '#server/http/signed-routes.ts';
import type { Recorder, RecordsService } from './records.service.ts';

const TAGS = ['leaderboards and achievements'];
const SIGNED =
  "Signed by the game's backend (decision 092): `Playport-Timestamp` (Unix seconds, within 5 minutes of the portal's clock) and `Playport-Signature: v1={hex HMAC-SHA256 of \"{timestamp}.{raw body}\" with the game's secret}`; " +
  'a signature is accepted once. No token, no XSRF token. Refusals: 401 `signature_invalid` (data.reason: missing, expired, mismatch, replayed, no_secret). ' +
  'Only for players of the game: any other `uid`, whether the account exists or not, is the same 404. ' +
  "With `preview` (a label of one of the game's build previews) the call is in test mode: it works before the game is published, and writes test boards live reads never show (decision 111).";

/** Leaderboards and achievements (SDK 1.1; decision 092): the play page's calls for the game, the app page's and My area's reads, and the game backend's signed calls. */
export async function recordsRoutes(api: ApiRouter, records: RecordsService): Promise<void> {
  api.route(
    {
      method: 'POST',
      url: '/game/leaderboards/:app_id/:board/scores',
      summary: "Submit the caller's score to a board",
      description:
        "Kept when it beats the caller's best of each period the board keeps. 404 for a board the game does not declare, 403 `backend_only` for a board only the game's backend may write, 422 `score_out_of_bounds` outside the board's bounds, 429 past 30 submissions and unlocks a minute per player and game." +
        PREVIEW_HEADER_NOTE,
      tags: TAGS,
      auth: 'required',
      params: BoardParamsSchema,
      body: SubmitScoreBodySchema,
      response: SubmitScoreSchema,
    },
    ({ caller, params, body, request }) =>
      records.submit({ kind: 'player', userId: caller!.userId }, params.app_id, params.board, body.score, { caller, preview: previewLabelOf(request) }),
  );

  api.route(
    {
      method: 'GET',
      url: '/game/leaderboards/:app_id/:board',
      summary: 'The best scores of a board in a period',
      description: "Ties share a rank; the earlier score is listed first. With a token, `me` is the caller's own rank." + PREVIEW_HEADER_NOTE,
      tags: TAGS,
      auth: 'optional',
      params: BoardParamsSchema,
      query: BoardQuerySchema,
      response: LeaderboardSchema,
    },
    ({ caller, params, query, locale, request }) =>
      records.top(locale, params.app_id, params.board, query.period, query.limit, caller?.userId ?? null, { caller, preview: previewLabelOf(request) }),
  );

  api.route(
    {
      method: 'GET',
      url: '/game/leaderboards/:app_id/:board/around',
      summary: "The caller's rank and the players around it",
      description: 'Up to `limit` rows centred on the caller; empty entries and `me: null` when the caller has no score in the period.' + PREVIEW_HEADER_NOTE,
      tags: TAGS,
      auth: 'required',
      params: BoardParamsSchema,
      query: BoardQuerySchema,
      response: LeaderboardSchema,
    },
    ({ caller, params, query, locale, request }) =>
      records.around(locale, params.app_id, params.board, query.period, query.limit, caller!.userId, { caller, preview: previewLabelOf(request) }),
  );

  api.route(
    {
      method: 'POST',
      url: '/game/achievements/:app_id/:achievement',
      summary: 'Unlock an achievement for the caller',
      description:
        'Once per player: a repeated unlock answers the first time, with `newlyUnlocked: false`. 403 `backend_only` for an achievement only the backend may unlock.' +
        PREVIEW_HEADER_NOTE,
      tags: TAGS,
      auth: 'required',
      params: AchievementParamsSchema,
      response: UnlockSchema,
    },
    ({ caller, params, request }) =>
      records.unlock({ kind: 'player', userId: caller!.userId }, params.app_id, params.achievement, { caller, preview: previewLabelOf(request) }),
  );

  api.route(
    {
      method: 'GET',
      url: '/game/achievements/:app_id',
      summary: "A game's achievements, with the caller's unlock times",
      description: PREVIEW_HEADER_NOTE.trim(),
      tags: TAGS,
      auth: 'required',
      params: RecordsAppParamsSchema,
      response: AchievementSchema.array(),
    },
    ({ caller, params, locale, request }) => records.achievements(locale, params.app_id, caller!.userId, { caller, preview: previewLabelOf(request) }),
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

  await signedRoutes(api, {
    params: RecordsAppParamsSchema,
    description: SIGNED,
    tags: TAGS,
    // The body first: the check needs the player it names.
    verify: {
      before: 'run',
      check: (appId, signature, raw, body: { uid: number; preview?: string | undefined }) => records.verifyBackendCall(appId, signature, raw, body),
    },
    routes: [
      signedRoute({
        url: '/game/backend/:app_id/scores',
        summary: "Submit a player's score from the game's backend",
        body: BackendScoreBodySchema,
        response: SubmitScoreSchema,
        run: (appId, body, recorder: Recorder) => records.submit(recorder, appId, body.board, body.score),
      }),
      signedRoute({
        url: '/game/backend/:app_id/achievements',
        summary: 'Unlock an achievement for a player from the game’s backend',
        body: BackendUnlockBodySchema,
        response: UnlockSchema,
        run: (appId, body, recorder: Recorder) => records.unlock(recorder, appId, body.achievement),
      }),
    ],
  });
}
