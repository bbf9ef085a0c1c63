import { z } from 'zod';
import { SLUG_PATTERN } from '../constants.ts';

export const AppTypeSchema = z.enum(['game', 'app']);
export const AppSortSchema = z.enum(['popular', 'newest', 'name']);
const OrientationSchema = z.enum(['portrait', 'landscape', 'any']);
export type AppSort = z.infer<typeof AppSortSchema>;

export const SlugSchema = z.string().min(1).max(64).regex(SLUG_PATTERN, 'errors:field.invalidFormat');
/** A numeric app id as it arrives in a path or a query. */
export const AppIdSchema = z.coerce.number().int().min(1).max(2_147_483_647);
const CursorSchema = z.string().max(200);

/** Most tiles a page asks for at once. */
const MAX_PAGE_SIZE = 60;

/** GET /app/list/ query. */
export const AppListQuerySchema = z.object({
  type: AppTypeSchema.optional(),
  category: SlugSchema.optional(),
  tag: SlugSchema.optional(),
  q: z.string().trim().min(1).max(100).optional(),
  sort: AppSortSchema.default('popular'),
  featured: z
    .enum(['1', 'true'])
    .transform(() => true)
    .optional(),
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(24),
  cursor: CursorSchema.optional(),
});
export type AppListQuery = z.output<typeof AppListQuerySchema>;
export type AppListInput = z.input<typeof AppListQuerySchema>;

export const AppSummarySchema = z.object({
  id: z.number(),
  slug: z.string(),
  type: AppTypeSchema,
  title: z.string(),
  summary: z.string(),
  thumbnail: z.string(),
  width: z.number(),
  height: z.number(),
  orientation: OrientationSchema,
  featured: z.boolean(),
  playCount: z.number(),
  releasedAt: z.string(),
});
export type AppSummary = z.infer<typeof AppSummarySchema>;
/** What a tile shows: rows that need no more send no more (the summary only where it is shown). */
export type AppTileData = Pick<AppSummary, 'id' | 'slug' | 'type' | 'title' | 'thumbnail'> & { summary?: string };

export const AppListSchema = z.object({
  items: z.array(AppSummarySchema),
  nextCursor: z.string().nullable(),
});
export type AppList = z.infer<typeof AppListSchema>;

/** A category or tag as a link: slug and localised title. */
const TermSchema = z.object({ slug: z.string(), title: z.string() });
export type Term = z.infer<typeof TermSchema>;

/** GET /app/info/ query. */
export const AppInfoQuerySchema = z.object({ slug: SlugSchema });

export const AppDetailSchema = AppSummarySchema.extend({
  description: z.string(),
  instructions: z.string().nullable(),
  developer: z.string().nullable(),
  screenshots: z.array(z.string()),
  updatedAt: z.string(),
  categories: z.array(TermSchema),
  tags: z.array(TermSchema),
  /** Up to six apps sharing categories or tags, closest first. */
  similar: z.array(AppSummarySchema),
  /** Whether the caller marked it as a favourite; null without a token. */
  favourite: z.boolean().nullable(),
});
export type AppDetail = z.infer<typeof AppDetailSchema>;

/** GET /app/tag/ query. */
export const TagListQuerySchema = z.object({ type: AppTypeSchema.optional() });

export const TagWithCountSchema = TermSchema.extend({ count: z.number().describe('published apps with this tag') });
export type TagWithCount = z.infer<typeof TagWithCountSchema>;
export const TagListSchema = z.object({ items: z.array(TagWithCountSchema) });

export const CategorySchema = TermSchema.extend({
  description: z.string().nullable(),
  icon: z.string().nullable(),
  count: z.number().describe('published apps in the category'),
});
export type Category = z.infer<typeof CategorySchema>;
export const CategoryListSchema = z.object({ items: z.array(CategorySchema) });
export const CategoryInfoQuerySchema = z.object({ slug: SlugSchema });

/** GET /game/config/{app_id} params. */
export const GameConfigParamsSchema = z.object({ app_id: AppIdSchema });

export const GameConfigSchema = z.object({
  appId: z.number(),
  slug: z.string(),
  title: z.string(),
  type: AppTypeSchema,
  /** The game's page, with the locale in its query: on the game's own origin for a game hosted here (decision 089). */
  url: z.string(),
  /**
   * The same files on the portal's origin, which a device keeps to rebuild the game offline, and
   * the sandbox that rebuilt copy runs in; null for a game hosted elsewhere.
   */
  offlineCopy: z.object({ url: z.string(), sandbox: z.string() }).nullable(),
  orientation: OrientationSchema,
  width: z.number(),
  height: z.number(),
  /** The iframe's sandbox attribute. */
  sandbox: z.string(),
  /** The iframe's allow attribute (permissions policy). */
  allow: z.string(),
  sdk: z.object({
    /** Prefix of every message type between game and portal. */
    channel: z.literal('playport'),
    locale: z.string(),
    /** The origin games address their postMessage calls to. */
    portalOrigin: z.string(),
    /** The message a game posts when it has loaded: `{ type, name }`. */
    loadedMessage: z.literal('playport:game-loaded'),
  }),
});
export type GameConfig = z.infer<typeof GameConfigSchema>;

/** POST /member/played/ body. */
export const PlayedBodySchema = z.object({ app_id: AppIdSchema });
export const PlayedSchema = z.object({ appId: z.number(), playCount: z.number(), lastPlayedAt: z.string() });
export type Played = z.infer<typeof PlayedSchema>;

/** Paging of a member's lists (recently played, favourites). */
export const MemberListQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(24),
  cursor: CursorSchema.optional(),
});
export type MemberListQuery = z.output<typeof MemberListQuerySchema>;

const PlayedAppSchema = AppSummarySchema.extend({ plays: z.number(), lastPlayedAt: z.string() });
export type PlayedApp = z.infer<typeof PlayedAppSchema>;
export const PlayedListSchema = z.object({ items: z.array(PlayedAppSchema), nextCursor: z.string().nullable() });
export type PlayedList = z.infer<typeof PlayedListSchema>;

const FavouriteAppSchema = AppSummarySchema.extend({ favouritedAt: z.string() });
export type FavouriteApp = z.infer<typeof FavouriteAppSchema>;
export const FavouriteListSchema = z.object({ items: z.array(FavouriteAppSchema), nextCursor: z.string().nullable() });
export type FavouriteList = z.infer<typeof FavouriteListSchema>;

/** PUT and DELETE /member/favourite/{app_id} params. */
export const FavouriteParamsSchema = z.object({ app_id: AppIdSchema });
export const FavouriteStateSchema = z.object({ appId: z.number(), favourite: z.boolean() });
export type FavouriteState = z.infer<typeof FavouriteStateSchema>;
