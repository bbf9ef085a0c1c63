import { GameChangeParamsSchema, GameChangeQueueSchema, GameChangeReviewedSchema, PriceHistorySchema } from '#common/api/game-changes.schema.ts';
import { RejectBodySchema } from '#common/api/studio-builds.schema.ts';
import type { ApiRouter } from '#server/http/api-router.ts';
import type { GameChangesService } from './game-changes.service.ts';
import type { StudioGamesService } from './studio-games.service.ts';
import { StudioGameParamsSchema } from '#common/api/studio.schema.ts';

const STUDIO = ['studio'];
const CONSOLE = ['console: reviews'];
const OPERATORS =
  "Operators only (403 to members and developers); the game's own developer, and whoever sent the change, get 403 too. 409 for a change no longer pending.";

/** A live game's changes in review (decision 112): the studio's withdrawal and price history, the operators' queue and decisions. */
export function gameChangesRoutes(api: ApiRouter, options: { changes: GameChangesService; studio: StudioGamesService }): void {
  const { changes, studio } = options;

  api.route(
    {
      method: 'DELETE',
      url: '/studio/games/:id/change',
      summary: "Withdraw a live game's change waiting for review",
      description:
        "The live game stays as players see it; the form shows the live values again. 409 when nothing is pending; 404 for a game that is not the caller's.",
      tags: STUDIO,
      auth: 'required',
      params: StudioGameParamsSchema,
      response: studio.schemas.game,
    },
    async ({ caller, params }) => {
      await changes.withdraw(caller, params.id);
      return studio.game(caller, params.id);
    },
  );

  api.route(
    {
      method: 'GET',
      url: '/studio/games/:id/prices',
      summary: "The history of a game's item prices",
      description:
        'Every price an approved change set, newest first (at most 200): the item, the old price (null for a new item) and the new, and when it took effect. ' +
        "An order keeps the price it was made at. 404 for a game that is not the caller's.",
      tags: STUDIO,
      auth: 'required',
      params: StudioGameParamsSchema,
      response: PriceHistorySchema,
    },
    async ({ caller, params }) => ({ changes: await changes.priceHistory(caller, params.id) }),
  );

  api.route(
    {
      method: 'GET',
      url: '/console/game-changes',
      summary: "Live games' changes waiting for review, oldest first",
      description:
        'Each with the fields it changes, their values before and after, and each item added, removed, repriced or renamed. Operators only (403 to members).',
      tags: CONSOLE,
      auth: 'required',
      response: GameChangeQueueSchema,
    },
    async ({ caller, locale }) => ({ changes: await changes.queue(caller, locale) }),
  );

  api.route(
    {
      method: 'POST',
      url: '/console/game-changes/:change_id/approve',
      summary: "Approve a live game's change: players see it at once",
      description: `Applied in one transaction; recorded in the audit log, with an \`item.price_change\` entry for each price it sets. ${OPERATORS}`,
      tags: CONSOLE,
      auth: 'required',
      params: GameChangeParamsSchema,
      response: GameChangeReviewedSchema,
    },
    ({ caller, params }) => changes.approve(caller, params.change_id),
  );

  api.route(
    {
      method: 'POST',
      url: '/console/game-changes/:change_id/reject',
      summary: "Reject a live game's change with a reason its studio reads",
      description: `The live game stays as it is; recorded in the audit log. ${OPERATORS}`,
      tags: CONSOLE,
      auth: 'required',
      params: GameChangeParamsSchema,
      body: RejectBodySchema,
      response: GameChangeReviewedSchema,
    },
    ({ caller, params, body }) => changes.reject(caller, params.change_id, body.reason),
  );
}
