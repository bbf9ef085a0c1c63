import {
  AppDetailSchema,
  AppInfoQuerySchema,
  AppListQuerySchema,
  AppListSchema,
  CategoryInfoQuerySchema,
  CategoryListSchema,
  CategorySchema,
  FavouriteListSchema,
  FavouriteParamsSchema,
  FavouriteStateSchema,
  GameConfigParamsSchema,
  MemberListQuerySchema,
  PlayedBodySchema,
  PlayedListSchema,
  PlayedSchema,
  TagListQuerySchema,
  TagListSchema,
} from '#common/api/catalogue.schema.ts';
import { GameConfigWithItemsSchema } from '#common/api/game-store.schema.ts';
import type { ApiRouter } from '#server/http/api-router.ts';
import { PREVIEW_HEADER_NOTE, previewLabelOf } from '#server/http/preview-header.ts';
import { AppError } from '#server/lib/app-error.ts';
import type { PaymentsService } from '../payments/payments.service.ts';
import type { BuildsService } from '../studio/builds.service.ts';
import type { CatalogueService } from './catalogue.service.ts';
import type { MemberLibraryService } from './member-library.service.ts';

/** The catalogue's calls (spec section 7) and the member library of our own design. */
export function catalogueRoutes(
  api: ApiRouter,
  catalogue: CatalogueService,
  library: MemberLibraryService,
  payments: Pick<PaymentsService, 'items'>,
  preview: Pick<BuildsService, 'previewConfigFor'>,
): void {
  api.route(
    {
      method: 'GET',
      url: '/app/list/',
      summary: 'List apps and games',
      description:
        'Filter by type, category, tag or search text (titles, summaries, descriptions and tag titles in every locale; ' +
        'Chinese is found by any substring of one or more characters, other words by prefix); sort by popular, newest or name; ' +
        'page with the returned cursor. An unknown category or tag answers 404.',
      tags: ['catalogue'],
      query: AppListQuerySchema,
      response: AppListSchema,
    },
    ({ locale, query }) => catalogue.list(locale, query),
  );

  api.route(
    {
      method: 'GET',
      url: '/app/info/',
      summary: 'One app or game by slug',
      description:
        'Texts in the request locale (English where missing), screenshots, categories, tags, similar apps, and whether the caller marked it as a favourite.',
      tags: ['catalogue'],
      query: AppInfoQuerySchema,
      response: AppDetailSchema,
    },
    ({ locale, query, caller }) => catalogue.info(locale, query.slug, async (appId) => (caller ? library.isFavourite(caller.userId, appId) : null)),
  );

  api.route(
    {
      method: 'GET',
      url: '/app/tag/',
      summary: 'Tags with the number of published apps carrying each',
      tags: ['catalogue'],
      query: TagListQuerySchema,
      response: TagListSchema,
    },
    async ({ locale, query }) => ({ items: await catalogue.tags(locale, query.type) }),
  );

  api.route(
    {
      method: 'GET',
      url: '/app/category/',
      summary: 'Categories in display order with their number of published apps',
      tags: ['catalogue'],
      response: CategoryListSchema,
    },
    async ({ locale }) => ({ items: await catalogue.categories(locale) }),
  );

  api.route(
    {
      method: 'GET',
      url: '/app/category/info/',
      summary: 'One category by slug (its apps come from /app/list/?category=)',
      tags: ['catalogue'],
      query: CategoryInfoQuerySchema,
      response: CategorySchema,
    },
    ({ locale, query }) => catalogue.category(locale, query.slug),
  );

  api.route(
    {
      method: 'GET',
      url: '/game/config/:app_id',
      summary: 'What the play page needs to frame a game',
      description:
        "Game URL (with the locale), orientation, iframe sandbox and allow attributes, the settings of the game-to-portal messages, and the game's items with their prices and whether the caller owns each (a paid, unrefunded order)." +
        PREVIEW_HEADER_NOTE,
      tags: ['catalogue'],
      params: GameConfigParamsSchema,
      response: GameConfigWithItemsSchema,
    },
    async ({ locale, params, caller, request }) => {
      // An unpublished game answers only through its preview, to its developer or a QA test member (decision 097).
      const config = await catalogue.gameConfig(locale, { id: params.app_id }).catch(async (error: unknown) => {
        if (!(error instanceof AppError) || error.code !== 'not_found') throw error;
        const previewed = await preview.previewConfigFor(caller ?? null, locale, params.app_id, previewLabelOf(request));
        if (!previewed) throw error;
        return previewed;
      });
      return { ...config, items: await payments.items(params.app_id, caller ?? null, locale, previewLabelOf(request)) };
    },
  );

  api.route(
    {
      method: 'POST',
      url: '/member/played/',
      summary: 'Record that the caller started a game',
      description: "Counts the play for the account (guests included) and for the game's popularity; the account's count and last time come back.",
      tags: ['member library'],
      auth: 'required',
      body: PlayedBodySchema,
      response: PlayedSchema,
    },
    ({ caller, body }) => library.recordPlay(caller!.userId, body.app_id),
  );

  api.route(
    {
      method: 'GET',
      url: '/member/played/',
      summary: "The caller's recently played apps, most recent first",
      tags: ['member library'],
      auth: 'required',
      query: MemberListQuerySchema,
      response: PlayedListSchema,
    },
    ({ caller, locale, query }) => library.recentlyPlayed(caller!.userId, locale, query),
  );

  api.route(
    {
      method: 'GET',
      url: '/member/favourite/',
      summary: "The caller's favourite apps, newest first",
      tags: ['member library'],
      auth: 'required',
      query: MemberListQuerySchema,
      response: FavouriteListSchema,
    },
    ({ caller, locale, query }) => library.favourites(caller!.userId, locale, query),
  );

  api.route(
    {
      method: 'GET',
      url: '/member/favourite/:app_id',
      summary: 'Whether the caller marked an app as a favourite',
      tags: ['member library'],
      auth: 'required',
      params: FavouriteParamsSchema,
      response: FavouriteStateSchema,
    },
    async ({ caller, params }) => ({ appId: params.app_id, favourite: await library.isFavourite(caller!.userId, params.app_id) }),
  );

  api.route(
    {
      method: 'PUT',
      url: '/member/favourite/:app_id',
      summary: 'Mark an app as a favourite (again is a no-op)',
      tags: ['member library'],
      auth: 'required',
      params: FavouriteParamsSchema,
      response: FavouriteStateSchema,
    },
    ({ caller, params }) => library.setFavourite(caller!.userId, params.app_id, true),
  );

  api.route(
    {
      method: 'DELETE',
      url: '/member/favourite/:app_id',
      summary: 'Remove an app from the favourites (when absent, a no-op)',
      tags: ['member library'],
      auth: 'required',
      params: FavouriteParamsSchema,
      response: FavouriteStateSchema,
    },
    ({ caller, params }) => library.setFavourite(caller!.userId, params.app_id, false),
  );
}
