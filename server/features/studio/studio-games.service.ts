import type { GameListingsService } from '../catalogue/game-listings.service.ts';
import type { GameTexts } from '../catalogue/game-listings.schema.ts';
import { createHash } from 'node:crypto';
import sharp from 'sharp';
import type { DeclaredAchievement, DeclaredBoard } from '#common/api/game-records.schema.ts';
import { type FileStorage, publicUrl } from '#server/adapters/storage/file-storage.ts';
import { AppError, type FieldMessage, fieldError, refusal } from '#server/lib/app-error.ts';
import type { Caller } from '#server/lib/caller.ts';
import { assertAllowed, type RateLimiter, type RateRule } from '#server/adapters/rate-limits/rate-limiter.ts';
import { type Clock, isoNow } from '#server/lib/clock.ts';
import type { StudioGameReview } from '#common/api/game-changes.schema.ts';
import type { DeveloperProfile, DevelopersService } from './developers.service.ts';
import type { GameChangesService } from './game-changes.service.ts';
import type { StudioGamesRepository, StoredStudioGame, StudioGameWrite } from './studio-games.repository.ts';
import { type StudioGame, type StudioGameCreate, type StudioGameMetadata, type StudioGameSchemas } from './studio.schema.ts';
import { STUDIO_IMAGE_FIELD, STUDIO_IMAGE_MAX_BYTES, type StudioGameSummary } from '#common/api/studio.schema.ts';

/** Uploaded images are re-encoded as WebP under a content-hash name: `catalogue/<hash>.webp`, as the import's copies are named. */
const IMAGE_KEY = /^catalogue\/[0-9a-f]{20}\.webp$/;
/** Larger sources are not decoded (a decompression bomb would stall the process). */
const MAX_IMAGE_PIXELS = 40_000_000;
const MAX_IMAGE_SIDE = 10_000;

/** What one developer may do in a window: generous for real work, a ceiling for a script filling the storage or the slugs. */
export const STUDIO_LIMITS = {
  images: { name: 'studio-images-user', limit: 200, windowSeconds: 60 * 60 },
  games: { name: 'studio-games-user', limit: 20, windowSeconds: 24 * 60 * 60 },
} satisfies Record<string, RateRule>;

type Texts = GameTexts;

export interface StudioGamesOptions {
  repository: StudioGamesRepository;
  /** The catalogue's listing of the games, where a draft and a save are written. */
  listings: Pick<GameListingsService, 'createDraft' | 'save'>;
  developers: DevelopersService;
  /** Where uploaded images go: the uploads, served at /uploads/ and resized by the image endpoint. */
  uploads: FileStorage;
  clock: Clock;
  limiter: RateLimiter;
  /** The content import's fields (decision 096). */
  schemas: StudioGameSchemas;
  /** The catalogue's search tokens of a text, so a Studio game is found like an imported one once published. */
  searchTokens: (...texts: Array<string | null | undefined>) => string;
  /** Where a live game's saves wait for review (decision 112). */
  changes: GameChangesService;
}

/**
 * A developer's studio and games (decision 096). Every call checks the caller on the server first:
 * a member (not a guest) for the profile, a developer for the list and a new game, the game's own
 * developer for anything about one game.
 */
export class StudioGamesService {
  readonly #o: StudioGamesOptions;
  constructor(options: StudioGamesOptions) {
    this.#o = options;
  }

  get schemas(): StudioGameSchemas {
    return this.#o.schemas;
  }

  async profile(caller: Caller | null): Promise<DeveloperProfile | null> {
    return this.#o.developers.profile(await this.#requireMember(caller));
  }

  async saveProfile(caller: Caller | null, input: { studioName: string; contactEmail: string }): Promise<DeveloperProfile> {
    return this.#o.developers.saveProfile(await this.#requireMember(caller), input);
  }

  async list(caller: Caller | null, locale: string): Promise<StudioGameSummary[]> {
    const userId = await this.#o.developers.requireDeveloper(caller);
    const rows = await this.#o.repository.list(userId, locale);
    return rows.map((r) => ({
      id: r.id,
      slug: r.slug,
      title: r.localTitle ?? r.englishTitle,
      thumbnail: r.thumbnail || null,
      published: r.published === 1,
      updatedAt: r.updated_at,
    }));
  }

  /** A new draft game: type game, unpublished, its files to come at /games/<slug>/index.html. */
  async create(caller: Caller | null, input: StudioGameCreate): Promise<StudioGame> {
    const userId = await this.#o.developers.requireDeveloper(caller);
    assertAllowed(await this.#o.limiter.consume(STUDIO_LIMITS.games, String(userId)));
    const titles: Record<string, string> = { en: input.i18n.en.title };
    if (input.i18n['zh-CN']) titles['zh-CN'] = input.i18n['zh-CN'].title;
    const id = await this.#o.listings.createDraft({ userId, slug: input.slug, titles, now: isoNow(this.#o.clock) });
    if (id === undefined) throw fieldError({ slug: ['studio:games.errors.slugTaken'] });
    return this.#read(id);
  }

  async game(caller: Caller | null, appId: number): Promise<StudioGame> {
    await this.#o.developers.requireDeveloperOf(caller, appId);
    return this.#read(appId);
  }

  /**
   * Replaces a draft game's metadata; every problem the schema cannot see is reported at once and
   * nothing changes. A published game's form waits for review as its pending change instead
   * (decision 112): players see none of it until an operator approves it.
   */
  async save(caller: Caller | null, appId: number, input: StudioGameMetadata): Promise<StudioGame> {
    const userId = await this.#o.developers.requireDeveloperOf(caller, appId);
    const problems: Record<string, FieldMessage[]> = {};
    const add = (field: string, message: FieldMessage) => (problems[field] ??= []).push(message);

    const known = await this.#o.repository.knownTerms(input.categories, input.tags);
    for (const [i, slug] of input.categories.entries()) if (!known.categories.has(slug)) add(`categories.${i}`, 'studio:games.errors.unknownCategory');
    for (const [i, slug] of input.tags.entries()) if (!known.tags.has(slug)) add(`tags.${i}`, 'studio:games.errors.unknownTag');
    const twice = (field: string, ids: string[]) =>
      ids.forEach((id, i) => {
        if (ids.indexOf(id) !== i) add(`${field}.${i}`, { key: 'studio:games.errors.duplicate', values: { value: id } });
      });
    twice(
      'items',
      input.items.map((item) => item.sku),
    );
    twice(
      'leaderboards',
      input.leaderboards.map((board) => board.id),
    );
    twice(
      'achievements',
      input.achievements.map((a) => a.id),
    );
    const images: Array<[string, string | null | undefined]> = [
      ['thumbnail', input.thumbnail],
      ['cover', input.cover],
      ...input.screenshots.map((url, i): [string, string] => [`screenshots.${i}`, url]),
      ...input.achievements.map((a, i): [string, string | undefined] => [`achievements.${i}.icon`, a.icon]),
    ];
    for (const [field, url] of images) if (url && !(await this.#isOurImage(url))) add(field, 'studio:games.errors.imageUnknown');
    if (Object.keys(problems).length > 0) throw fieldError(problems);

    const en: Texts = { ...input.i18n.en, instructions: input.i18n.en.instructions ?? null };
    const texts: Record<string, Texts> = { en };
    const zh = input.i18n['zh-CN'];
    // As the import does: a text left out in Chinese is shown in English.
    if (zh) texts['zh-CN'] = { ...en, ...Object.fromEntries(Object.entries(zh).filter(([, v]) => v !== undefined && v !== '')) };
    const write: StudioGameWrite = {
      thumbnail: input.thumbnail ?? '',
      cover: input.cover,
      screenshots: input.screenshots,
      orientation: input.orientation,
      width: input.width,
      height: input.height,
      backends: input.backends,
      leaderboards: input.leaderboards.map((b): DeclaredBoard => ({
        id: b.id,
        order: b.order,
        format: b.format,
        min: b.min,
        max: b.max,
        periods: [...new Set(b.periods)],
        backendOnly: b.backend_only,
        names: b.i18n,
      })),
      achievements: input.achievements.map((a): DeclaredAchievement => ({ id: a.id, icon: a.icon ?? null, backendOnly: a.backend_only, texts: a.i18n })),
      texts,
      categories: input.categories,
      tags: input.tags,
      items: input.items.map((item) => ({
        sku: item.sku,
        price: item.price,
        currency: item.currency,
        kind: item.kind,
        names: { en: item.i18n.en.name, ...(item.i18n['zh-CN']?.name ? { 'zh-CN': item.i18n['zh-CN'].name } : {}) },
      })),
      searchTokens: (t, tagTitles) => this.#o.searchTokens(t.title, t.summary, t.description, ...tagTitles),
    };
    if ((await this.#o.repository.read(appId))?.published) {
      const { searchTokens: _searchTokens, ...metadata } = write;
      await this.#o.changes.submit(userId, appId, metadata);
      return this.#read(appId);
    }
    await this.#o.listings.save(appId, write, isoNow(this.#o.clock));
    return this.#read(appId);
  }

  /**
   * Stores an image for one of the developer's games: recognised from its bytes (never its name),
   * re-encoded as WebP (which drops camera metadata) under a content-hash name. SVG is refused:
   * served from the portal's origin, it could run script.
   */
  async uploadImage(caller: Caller | null, appId: number, bytes: Buffer): Promise<{ url: string }> {
    const userId = await this.#o.developers.requireDeveloperOf(caller, appId);
    assertAllowed(await this.#o.limiter.consume(STUDIO_LIMITS.images, String(userId)));
    if (bytes.length === 0) throw fieldError({ [STUDIO_IMAGE_FIELD]: ['studio:games.errors.imageRequired'] });
    if (bytes.length > STUDIO_IMAGE_MAX_BYTES) throw imageTooLarge();
    let webp: Buffer;
    try {
      const input = { limitInputPixels: MAX_IMAGE_PIXELS, failOn: 'error' as const, animated: true };
      const metadata = await sharp(bytes, input).metadata();
      if (!['png', 'jpeg', 'webp', 'gif', 'heif'].includes(metadata.format)) throw badImage();
      const height = metadata.pageHeight ?? metadata.height;
      if (metadata.width > MAX_IMAGE_SIDE || height > MAX_IMAGE_SIDE) throw fieldError({ [STUDIO_IMAGE_FIELD]: ['studio:games.errors.imageDimensions'] });
      const image = sharp(bytes, input);
      // rotate() applies the EXIF orientation of a still photo; animations keep their frames as they are.
      webp = await ((metadata.pages ?? 1) > 1 ? image : image.rotate()).webp({ quality: 90 }).toBuffer();
    } catch (error) {
      if (error instanceof AppError) throw error;
      throw badImage(error);
    }
    const key = `catalogue/${createHash('sha256').update(webp).digest('hex').slice(0, 20)}.webp`;
    // Names are content hashes: an image stored already has these bytes.
    if (!(await this.#o.uploads.stat(key))) await this.#o.uploads.put(key, webp);
    return { url: publicUrl(this.#o.uploads, key) };
  }

  async #isOurImage(url: string): Promise<boolean> {
    const prefix = this.#o.uploads.publicPrefix;
    if (!url.startsWith(prefix)) return false;
    const key = url.slice(prefix.length);
    return IMAGE_KEY.test(key) && (await this.#o.uploads.stat(key)) !== null;
  }

  async #requireMember(caller: Caller | null): Promise<number> {
    if (!caller) throw new AppError('unauthenticated');
    if (!(await this.#o.repository.isMember(caller.userId))) throw refusal('studio_members_only');
    return caller.userId;
  }

  /** The game as its Studio form shows it: a live game's pending change in place of what players see, and how its review stands. */
  async #read(appId: number): Promise<StudioGame> {
    const stored = await this.#o.repository.read(appId);
    if (!stored) throw new AppError('not_found');
    if (!stored.published) return toGame(stored, null);
    const [pending, review] = await Promise.all([this.#o.changes.pendingMetadata(appId), this.#o.changes.latestReview(appId)]);
    return toGame(pending ? { ...stored, ...pending } : stored, review);
  }
}

function imageTooLarge(): AppError {
  return fieldError({ [STUDIO_IMAGE_FIELD]: ['studio:games.errors.imageTooLarge'] });
}

function badImage(cause?: unknown): AppError {
  return fieldError({ [STUDIO_IMAGE_FIELD]: ['studio:games.errors.imageType'] }, cause);
}

function text(t: Texts) {
  return { title: t.title, summary: t.summary, description: t.description, ...(t.instructions ? { instructions: t.instructions } : {}) };
}

function toGame(g: StoredStudioGame, review: StudioGameReview | null): StudioGame {
  const en = g.texts.en ?? { title: g.slug, summary: '', description: '', instructions: null };
  const zh = g.texts['zh-CN'];
  const missing: StudioGame['missing'] = [];
  if (!en.summary) missing.push('summary');
  if (!en.description) missing.push('description');
  if (g.categories.length === 0) missing.push('categories');
  if (!g.thumbnail) missing.push('thumbnail');
  return {
    id: g.id,
    slug: g.slug,
    published: g.published,
    entryUrl: g.entryUrl,
    updatedAt: g.updatedAt,
    review,
    missing,
    i18n: { en: text(en), ...(zh ? { 'zh-CN': text(zh) } : {}) },
    categories: g.categories,
    tags: g.tags,
    orientation: g.orientation,
    width: g.width,
    height: g.height,
    backends: g.backends,
    thumbnail: g.thumbnail || null,
    cover: g.cover,
    screenshots: g.screenshots,
    items: g.items.map((item) => ({
      sku: item.sku,
      price: item.price,
      currency: item.currency,
      kind: item.kind,
      i18n: { en: { name: item.names.en ?? item.sku }, ...(item.names['zh-CN'] ? { 'zh-CN': { name: item.names['zh-CN'] } } : {}) },
    })),
    leaderboards: g.leaderboards.map((b) => ({
      id: b.id,
      order: b.order,
      format: b.format,
      min: b.min,
      max: b.max,
      periods: b.periods,
      backend_only: b.backendOnly,
      i18n: b.names as { en: { name: string }; 'zh-CN': { name: string } },
    })),
    achievements: g.achievements.map((a) => ({
      id: a.id,
      ...(a.icon ? { icon: a.icon } : {}),
      backend_only: a.backendOnly,
      i18n: a.texts as { en: { name: string; description: string }; 'zh-CN': { name: string; description: string } },
    })),
  };
}
