import type { AppDetail, AppList, AppListQuery, AppSummary, AppTileData, Category, GameConfig, TagWithCount } from '#common/api/catalogue.schema.ts';
import type { Locale } from '#common/locales.ts';
import { HOSTED_GAME_SANDBOX } from '#common/constants.ts';
import { AppError } from '#server/lib/app-error.ts';
import { translator } from '#server/i18n.ts';
import type { Clock } from '#server/lib/clock.ts';
import { decodeCursor, pageWithCursor } from '#server/lib/cursor.ts';
import { DERIVED_DATA_TTL_MS, TimedCache } from '#server/lib/timed-cache.ts';
import { searchTerms } from './catalogue-search.ts';
import { HOSTED_SLUG_PATTERN } from './hosted-game-limits.ts';
import type { AppFile } from './catalogue.import.ts';
import type { AppSummaryRow, CatalogueRepository } from './catalogue.repository.ts';

/** How many similar apps an app page shows. */
const SIMILAR_LIMIT = 6;
/** Tiles per row on the home page. */
const HOME_ROW = 12;

/**
 * A hosted game runs on a host of its own below the games origin (decision 089), so it may keep
 * its origin: storage, workers and fetches of its own files, and nothing of the portal's.
 */
const HOSTED_SANDBOX = HOSTED_GAME_SANDBOX;
/** A game on its own origin elsewhere reaches nothing of ours with its origin either. */
const EXTERNAL_SANDBOX = HOSTED_SANDBOX;
/** A copy rebuilt from the device while offline runs as an inline document of the portal's origin: never with that origin. */
const OFFLINE_COPY_SANDBOX = 'allow-scripts allow-pointer-lock';
const FRAME_ALLOW = 'fullscreen; autoplay; gamepad';

/** A game whose files this portal serves on the games origin. */

/** The schema of a catalogue entry, which the Studio validates with too (decision 096). */
export type CatalogueEntrySchema = typeof AppFile;
export interface HostedGame {
  slug: string;
  /** Its own origin: the games origin with the slug as the first label. */
  origin: string;
  /** What its frame may connect to besides its own origin. */
  backendOrigins: string[];
  /** A developer's game: the build whose stored files this host serves (decision 097); null for a house game's folder. */
  build?: { appId: number; buildId: number } | null;
}

export interface HomeData {
  featured: AppTileData[];
  popular: AppTileData[];
  newest: AppTileData[];
  categories: Category[];
}

/** Decides what the catalogue shows: filters, ordering, paging, localisation and play settings. */
export class CatalogueService {
  readonly #repository: CatalogueRepository;
  readonly #studioNameOf: (userId: number) => Promise<string | null>;
  readonly #portalOrigin: string;
  readonly #gamesOrigin: URL;
  readonly #hostedGames: TimedCache<string, HostedGame | null>;
  readonly #tags: TimedCache<string, TagWithCount[]>;
  readonly #categories: TimedCache<Locale, Category[]>;
  constructor(
    repository: CatalogueRepository,
    options: { portalOrigin: string; gamesOrigin: string; clock: Clock; studioNameOf?: (userId: number) => Promise<string | null> },
  ) {
    this.#repository = repository;
    this.#studioNameOf = options.studioNameOf ?? (async () => null);
    this.#portalOrigin = options.portalOrigin;
    this.#gamesOrigin = new URL(options.gamesOrigin);
    this.#hostedGames = new TimedCache({ ttlMs: DERIVED_DATA_TTL_MS, clock: options.clock });
    this.#tags = new TimedCache({ ttlMs: DERIVED_DATA_TTL_MS, clock: options.clock });
    this.#categories = new TimedCache({ ttlMs: DERIVED_DATA_TTL_MS, clock: options.clock });
  }

  async list(locale: Locale, query: AppListQuery): Promise<AppList> {
    const cursor = decodeCursor(query.cursor);
    // A cursor of another sort order would compare a number with text: reject it like a malformed one.
    if (cursor && typeof cursor.v !== (query.sort === 'popular' ? 'number' : 'string')) throw invalidCursor(locale);
    const terms = query.q === undefined ? undefined : searchTerms(query.q);
    // Text with nothing searchable in it (only punctuation) matches nothing rather than everything.
    if (terms?.length === 0) return { items: [], nextCursor: null };
    const { q: _q, limit, cursor: _c, ...filter } = query;
    const rows = await this.#repository.listApps(locale, { ...filter, terms }, limit, cursor);
    // An empty first page may come from a slug that names nothing: that is a 404, not an empty list.
    if (rows.length === 0 && !cursor) await this.#requireTerms(locale, query);
    const { page, nextCursor } = pageWithCursor(rows, limit, (row) => ({ v: row.sort_key, id: row.id }));
    return { items: page.map(toSummary), nextCursor };
  }

  async #requireTerms(locale: Locale, query: AppListQuery): Promise<void> {
    if (query.category && (await this.#repository.listCategories(locale, query.category)).length === 0) {
      throw new AppError('not_found', { messageKey: 'catalogue:errors.categoryNotFound', values: { slug: query.category } });
    }
    if (query.tag && !(await this.#repository.tagExists(query.tag))) {
      throw new AppError('not_found', { messageKey: 'catalogue:errors.tagNotFound', values: { slug: query.tag } });
    }
  }

  /** An app's page: texts, screenshots, categories, tags and similar apps. `favourite` is the caller's, null for nobody. */
  async info(locale: Locale, slug: string, favourite: (appId: number) => Promise<boolean | null> = async () => null): Promise<AppDetail> {
    const row = await this.#repository.findApp(locale, { slug });
    if (!row) throw new AppError('not_found', { messageKey: 'catalogue:errors.appNotFound', values: { slug } });
    const [terms, similar, isFavourite, studioName] = await Promise.all([
      this.#repository.appTerms(locale, row.id),
      this.#repository.similarApps(locale, row.id, SIMILAR_LIMIT),
      favourite(row.id),
      // A game shipped through the Studio is shown as its studio's (decision 120); a name the
      // catalogue gives (an imported game's) comes first.
      row.developer === null && row.developer_user_id !== null ? this.#studioNameOf(row.developer_user_id) : null,
    ]);
    return {
      ...toSummary(row),
      description: row.description,
      instructions: row.instructions,
      developer: row.developer ?? studioName,
      screenshots: parseScreenshots(row.screenshots),
      updatedAt: row.updated_at,
      categories: terms.filter((t) => t.kind === 'category').map(({ slug: s, title }) => ({ slug: s, title })),
      tags: terms.filter((t) => t.kind === 'tag').map(({ slug: s, title }) => ({ slug: s, title })),
      similar: similar.map(toSummary),
      favourite: isFavourite,
    };
  }

  /** Tags with how many apps carry each: counted once per locale and type, then kept (decision 059). */
  async tags(locale: Locale, type?: 'game' | 'app'): Promise<TagWithCount[]> {
    return this.#tags.get(`${locale}:${type ?? ''}`, () => this.#repository.listTags(locale, type));
  }

  /** Categories with their app counts, kept like the tags. */
  async categories(locale: Locale): Promise<Category[]> {
    return this.#categories.get(locale, () => this.#repository.listCategories(locale));
  }

  /** Forgets the counts (after an import in this process). */
  invalidate(): void {
    this.#hostedGames.clear();
    this.#tags.clear();
    this.#categories.clear();
  }

  async category(locale: Locale, slug: string): Promise<Category> {
    const [category] = await this.#repository.listCategories(locale, slug);
    if (!category) throw new AppError('not_found', { messageKey: 'catalogue:errors.categoryNotFound', values: { slug } });
    return category;
  }

  /** What the play page needs to frame a game. */
  async gameConfig(locale: Locale, by: { id: number } | { slug: string }): Promise<GameConfig> {
    const row = await this.#repository.findApp(locale, by);
    if (!row) {
      const name = 'id' in by ? String(by.id) : by.slug;
      throw new AppError('not_found', { messageKey: 'catalogue:errors.appNotFound', values: { slug: name } });
    }
    const external = row.entry_url.startsWith('https://');
    const withLocale = (address: string) => `${address}${address.includes('?') ? '&' : '?'}locale=${encodeURIComponent(locale)}`;
    // A hosted game's entry is stored as /games/<slug>/<path>; it is served as <path> on the game's own host.
    const hostedPath = external ? null : row.entry_url.slice(`/games/${row.slug}`.length);
    return {
      appId: row.id,
      slug: row.slug,
      title: row.title,
      type: row.type,
      url: withLocale(hostedPath === null ? row.entry_url : `${this.gameOrigin(row.slug)}${hostedPath}`),
      // A developer's build is served on its game's host only, never on the portal: no offline copy (decision 097).
      offlineCopy: hostedPath === null || row.live_build_id !== null ? null : { url: withLocale(row.entry_url), sandbox: OFFLINE_COPY_SANDBOX },
      orientation: row.orientation,
      width: row.width,
      height: row.height,
      sandbox: external ? EXTERNAL_SANDBOX : HOSTED_SANDBOX,
      allow: FRAME_ALLOW,
      sdk: { channel: 'playport', locale, portalOrigin: this.#portalOrigin, loadedMessage: 'playport:game-loaded' },
    };
  }

  /** The origin a hosted game is served from: its slug as a host below the games origin (decision 089). */
  gameOrigin(slug: string): string {
    return `${this.#gamesOrigin.protocol}//${slug}.${this.#gamesOrigin.host}`;
  }

  /** A published game hosted here, by the host name a request for its files came to; null for anything else. */
  async hostedGame(hostname: string): Promise<HostedGame | null> {
    const suffix = `.${this.#gamesOrigin.hostname}`;
    return this.hostedGameBySlug(hostname.toLowerCase().endsWith(suffix) ? hostname.slice(0, -suffix.length).toLowerCase() : '');
  }

  /** The published game of that slug as the games origin serves it, or null (cached like hostedGame). */
  async hostedGameBySlug(slug: string): Promise<HostedGame | null> {
    if (!HOSTED_SLUG_PATTERN.test(slug)) return null;
    return this.#hostedGames.get(slug, async () => {
      const row = await this.#repository.findHostedGame(slug);
      if (!row) return null;
      return {
        slug: row.slug,
        origin: this.gameOrigin(row.slug),
        backendOrigins: JSON.parse(row.backend_origins) as string[],
        build: row.live_build_id === null ? null : { appId: row.id, buildId: row.live_build_id },
      };
    });
  }

  /** The home page's rows and category chips, in one round of small queries; tiles carry only what they show. */
  async home(locale: Locale): Promise<HomeData> {
    const row = (sort: 'popular' | 'newest', featured?: true) =>
      this.#repository.listApps(locale, { sort, ...(featured ? { featured } : {}) }, HOME_ROW, null).then((rows) => rows.slice(0, HOME_ROW));
    const [featured, popular, newest, categories] = await Promise.all([
      row('popular', true),
      row('popular'),
      row('newest'),
      this.#repository.listCategories(locale),
    ]);
    return {
      featured: featured.map((r) => ({ ...toTile(r), summary: r.summary })),
      popular: popular.map(toTile),
      newest: newest.map(toTile),
      categories,
    };
  }
}

function toTile(row: AppSummaryRow): AppTileData {
  return { id: row.id, slug: row.slug, type: row.type, title: row.title, thumbnail: row.thumbnail };
}

/** The summary of an app, from a summary row. */
export function toSummary(row: Omit<AppSummaryRow, 'sort_key'>): AppSummary {
  return {
    id: row.id,
    slug: row.slug,
    type: row.type,
    title: row.title,
    summary: row.summary,
    thumbnail: row.thumbnail,
    width: row.width,
    height: row.height,
    orientation: row.orientation,
    featured: row.featured === 1,
    playCount: Number(row.play_count),
    releasedAt: row.released_at,
  };
}

/** The 422 a cursor that does not belong to the list gets, shaped like every other field error. */
export function invalidCursor(locale: Locale): AppError {
  return new AppError('validation', { data: { errors: { cursor: [translator(locale)('errors:field.invalid')] } } });
}

function parseScreenshots(value: string): string[] {
  try {
    const parsed: unknown = JSON.parse(value);
    return Array.isArray(parsed) ? parsed.filter((s): s is string => typeof s === 'string') : [];
  } catch {
    return [];
  }
}
