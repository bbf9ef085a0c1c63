import { createHmac, timingSafeEqual } from 'node:crypto';
import type { GameConfig } from '#common/api/catalogue.schema.ts';
import { byteSizeText } from '#common/byte-sizes.ts';
import type { Locale } from '#common/locales.ts';
import type { UnitOfWork } from '#server/db/unit-of-work.ts';
import type { FileStorage } from '#server/adapters/storage/file-storage.ts';
import type { AuditLogService } from '#server/features/console/audit-log.service.ts';
import type { OperatorsService } from '#server/features/console/operators.service.ts';
import type { RecordsService } from '#server/features/games/records.service.ts';
import type { GameListingsService } from '#server/features/catalogue/game-listings.service.ts';
import { translator } from '#server/i18n.ts';
import { AppError, refusal } from '#server/lib/app-error.ts';
import type { Caller } from '#server/lib/caller.ts';
import { type Clock, isoNow } from '#server/lib/clock.ts';
import { type BuildLimits, type BuildProblem, inspectBuildArchive, maxArchiveBytes, readBuildFiles } from './build-archive.ts';
import type { BuildsRepository, GameBuildRow } from './builds.repository.ts';
import type { DevelopersService } from './developers.service.ts';

export type BuildStatus = GameBuildRow['status'];

export interface Build {
  id: number;
  appId: number;
  version: number;
  status: BuildStatus;
  reason: string | null;
  live: boolean;
  entryPath: string;
  fileCount: number;
  totalBytes: number;
  archiveBytes: number;
  createdAt: string;
  submittedAt: string | null;
  reviewedAt: string | null;
  /** The private QA link that runs this build (decision 097). */
  previewUrl: string;
}

export interface QueuedBuild extends Build {
  slug: string;
  title: string;
  studioName: string | null;
}

/** A build's preview host label: `b{id}-{32 hex of HMAC}`; only the portal can make one. */
const PREVIEW_LABEL = /^b(\d{1,10})-([0-9a-f]{32})$/;

/** A build as the games origin serves it: the stored files' folder key and the host's game. */
export interface ServedBuild {
  appId: number;
  buildId: number;
  slug: string;
  backendOrigins: string[];
}

/**
 * Builds of developers' games (decision 097): upload (checked by every rule at once), preview,
 * submission, review by operators, release and rollback. Only a game's live, approved build is
 * served to players; any build is served to its preview host.
 */
export class BuildsService {
  readonly #repository: BuildsRepository;
  readonly #storage: FileStorage;
  readonly #developers: DevelopersService;
  readonly #operators: OperatorsService;
  readonly #auditLog: AuditLogService;
  readonly #records: Pick<RecordsService, 'clearGame'>;
  readonly #listings: Pick<GameListingsService, 'makeLive'>;
  readonly #clock: Clock;
  readonly #secret: string;
  readonly #previousSecrets: readonly string[];
  readonly #portalOrigin: string;
  readonly #previewsOrigin: URL;
  readonly #changed: () => Promise<void>;
  readonly #limits: BuildLimits;
  readonly #sandbox: string;

  constructor(options: {
    /** What a build may hold: the hosted games' limits (docs/game-sdk.md, "Hosting") and the ratio. */
    limits: BuildLimits;
    /** The sandbox of a hosted game's frame (decision 089). */
    sandbox: string;
    repository: BuildsRepository;
    storage: FileStorage;
    developers: DevelopersService;
    operators: OperatorsService;
    auditLog: AuditLogService;
    /** The games feature's leaderboards and achievements, emptied at a game's first release. */
    records: Pick<RecordsService, 'clearGame'>;
    /** The catalogue's listing of the game, where a release makes a build live. */
    listings: Pick<GameListingsService, 'makeLive'>;
    clock: Clock;
    appSecret: string;
    /** APP_SECRET_PREVIOUS: preview links made before a rotation of APP_SECRET keep working (decision 110). */
    previousSecrets?: readonly string[];
    portalOrigin: string;
    /** Where previews are served (decision 108): a site of their own, apart from published games. */
    previewsOrigin: string;
    /** Tells every instance a game's live build changed (their caches of hosted games). */
    changed: () => Promise<void>;
  }) {
    this.#repository = options.repository;
    this.#storage = options.storage;
    this.#developers = options.developers;
    this.#operators = options.operators;
    this.#auditLog = options.auditLog;
    this.#records = options.records;
    this.#listings = options.listings;
    this.#clock = options.clock;
    this.#secret = options.appSecret;
    this.#previousSecrets = options.previousSecrets ?? [];
    this.#portalOrigin = options.portalOrigin;
    this.#previewsOrigin = new URL(options.previewsOrigin);
    this.#changed = options.changed;
    this.#limits = options.limits;
    this.#sandbox = options.sandbox;
  }

  /** The largest zip an upload may announce: refused before any byte arrives. */
  get maxArchiveBytes(): number {
    return maxArchiveBytes(this.#limits);
  }

  /** The storage key of a build's file. */
  static key(appId: number, buildId: number, path: string): string {
    return `${appId}/${buildId}/${path}`;
  }

  /**
   * Checks an uploaded zip and keeps it as the game's next build. Every problem is answered at once
   * (422 `validation`, `data.problems`), and then nothing is kept.
   */
  async createFromArchive(userId: number, appId: number, zipPath: string, archiveBytes: number, locale: Locale): Promise<Build> {
    const inspected = await inspectBuildArchive(zipPath, archiveBytes, this.#limits);
    if (inspected.problems.length > 0) throw this.#problems(inspected.problems, locale);
    const now = isoNow(this.#clock);
    const row = await this.#repository.insert({
      app_id: appId,
      status: 'uploaded',
      reason: null,
      uploaded_by: userId,
      reviewed_by: null,
      entry_path: inspected.entryPath,
      file_count: inspected.files.length,
      total_bytes: inspected.totalBytes,
      archive_bytes: archiveBytes,
      created_at: now,
      submitted_at: null,
      reviewed_at: null,
    });
    const stored: string[] = [];
    let problems: BuildProblem[];
    try {
      problems = await readBuildFiles(
        zipPath,
        inspected,
        async (path, bytes) => {
          const key = BuildsService.key(appId, row.id, path);
          await this.#storage.put(key, bytes);
          stored.push(key);
        },
        this.#limits,
      );
    } catch (error) {
      problems = [];
      await this.#discard(row.id, stored);
      throw error;
    }
    if (problems.length > 0) {
      await this.#discard(row.id, stored);
      throw this.#problems(problems, locale);
    }
    const game = await this.#repository.game(appId);
    return this.#toBuild(row, game?.live_build_id ?? null, game?.slug ?? '');
  }

  async #discard(buildId: number, keys: string[]): Promise<void> {
    for (const key of keys) await this.#storage.delete(key);
    await this.#repository.remove(buildId);
  }

  /** Every problem at once, each naming its file, its rule and the value, sizes as people read them (decision 125). */
  #problems(problems: BuildProblem[], locale: Locale): AppError {
    const t = translator(locale);
    return refusal('build_invalid', {
      values: { count: problems.length },
      data: {
        problems: problems.map((problem) => ({
          ...problem,
          message: t(`studio:builds.problems.${problem.rule}`, { path: problem.path ?? '', ...readableSizes(problem.values, locale) }),
        })),
      },
    });
  }

  /** A developer's builds of their game, newest first. */
  async list(caller: Caller | null, appId: number): Promise<{ builds: Build[]; liveBuildId: number | null }> {
    await this.#developers.requireDeveloperOf(caller, appId);
    const game = await this.#repository.game(appId);
    const rows = await this.#repository.forGame(appId);
    return { builds: rows.map((row) => this.#toBuild(row, game?.live_build_id ?? null, game?.slug ?? '')), liveBuildId: game?.live_build_id ?? null };
  }

  /** The developer sends a build for review; an uploaded or rejected build may be sent. */
  async submit(caller: Caller | null, appId: number, buildId: number): Promise<Build> {
    await this.#developers.requireDeveloperOf(caller, appId);
    const build = await this.#repository.find(buildId);
    if (!build || build.app_id !== appId) throw new AppError('not_found');
    if (build.status !== 'uploaded' && build.status !== 'rejected') throw refusal('build_not_submittable');
    const game = await this.#repository.game(appId);
    // An approved build publishes the game at once: its tile needs a picture before anyone reviews it.
    if (!game?.thumbnail) throw refusal('build_needs_thumbnail');
    await this.#repository.update(build.id, { status: 'submitted', submitted_at: isoNow(this.#clock), reason: null });
    return this.#toBuild((await this.#repository.find(build.id))!, game?.live_build_id ?? null, game?.slug ?? '');
  }

  /** How many builds wait for review (the Console overview asks, having checked the operator). */
  waitingCount(): Promise<number> {
    return this.#repository.submittedCount();
  }

  /** The operators' review queue: submitted builds, oldest first. */
  async queue(caller: Caller | null, locale: Locale): Promise<QueuedBuild[]> {
    await this.#operators.requireOperator(caller);
    const rows = await this.#repository.queue(locale);
    return rows.map((row) => ({ ...this.#toBuild(row, null, row.slug), slug: row.slug, title: row.title, studioName: row.studio_name }));
  }

  /** An operator approves a submitted build: the game is published with it live at once. */
  async approve(caller: Caller | null, buildId: number): Promise<Build> {
    const operator = await this.#operators.requireOperator(caller);
    const now = isoNow(this.#clock);
    await this.#repository.transaction(async (trx) => {
      const build = await this.#repository.find(buildId, trx);
      if (!build) throw new AppError('not_found');
      if (build.status !== 'submitted') throw refusal('build_not_in_review');
      const game = (await this.#repository.game(build.app_id, trx))!;
      await this.#repository.update(build.id, { status: 'approved', reviewed_by: operator, reviewed_at: now, reason: null }, trx);
      await this.#listings.makeLive(build.app_id, build, game.slug, now, trx);
      // The game's first release starts with empty leaderboards and achievements: what its
      // developer and QA test members recorded in previews was testing.
      if (game.live_build_id === null) await this.#records.clearGame(build.app_id, trx);
      await this.#auditLog.record(
        {
          operatorUserId: operator,
          action: 'build.approve',
          target: { type: 'build', id: build.id },
          detail: { appId: build.app_id, version: build.version, previousLiveBuildId: game.live_build_id },
        },
        trx,
      );
    });
    await this.#changed();
    return this.#reviewed(buildId);
  }

  /** An operator rejects a submitted build with a reason the developer reads in the Studio. */
  async reject(caller: Caller | null, buildId: number, reason: string): Promise<Build> {
    const operator = await this.#operators.requireOperator(caller);
    const now = isoNow(this.#clock);
    await this.#repository.transaction(async (trx) => {
      const build = await this.#repository.find(buildId, trx);
      if (!build) throw new AppError('not_found');
      if (build.status !== 'submitted') throw refusal('build_not_in_review');
      await this.#repository.update(build.id, { status: 'rejected', reviewed_by: operator, reviewed_at: now, reason }, trx);
      await this.#auditLog.record(
        {
          operatorUserId: operator,
          action: 'build.reject',
          target: { type: 'build', id: build.id },
          detail: { appId: build.app_id, version: build.version, reason },
        },
        trx,
      );
    });
    return this.#reviewed(buildId);
  }

  /** The developer goes back to the approved build before the live one. */
  async rollback(caller: Caller | null, appId: number): Promise<Build> {
    await this.#developers.requireDeveloperOf(caller, appId);
    return this.#rollback(appId, null);
  }

  /** An operator goes back to a game's previous approved build (recorded in the audit log). */
  async rollbackAsOperator(caller: Caller | null, appId: number, reason = ''): Promise<Build> {
    const operator = await this.#operators.requireOperator(caller);
    return this.#rollback(appId, operator, reason);
  }

  /**
   * The developer makes any of the game's approved builds live (decision 122): an earlier one (a
   * rollback past several builds) or a later one (back forward after a rollback). The live build
   * again is no change; a build of another game is missing, as one that does not exist.
   */
  async makeLive(caller: Caller | null, appId: number, buildId: number): Promise<Build> {
    await this.#developers.requireDeveloperOf(caller, appId);
    return this.#switchLive(appId, null, '', async (_live, trx) => {
      const chosen = await this.#repository.find(buildId, trx);
      if (!chosen || chosen.app_id !== appId) throw new AppError('not_found');
      if (chosen.status !== 'approved') throw refusal('build_not_approved', { values: { version: chosen.version } });
      return chosen;
    });
  }

  async #rollback(appId: number, operator: number | null, reason = ''): Promise<Build> {
    return this.#switchLive(appId, operator, reason, async (live, trx) => {
      const previous = live ? await this.#repository.previousApproved(appId, live.version, trx) : undefined;
      if (!live || !previous) throw refusal('build_nothing_to_roll_back_to');
      return previous;
    });
  }

  /** Makes the build `choose` picks (given the live one) the game's live build, in one transaction; an operator's switch is audited. */
  async #switchLive(
    appId: number,
    operator: number | null,
    reason: string,
    choose: (live: GameBuildRow | undefined, trx: UnitOfWork) => Promise<GameBuildRow>,
  ): Promise<Build> {
    const now = isoNow(this.#clock);
    const target = await this.#repository.transaction(async (trx) => {
      const game = await this.#repository.game(appId, trx);
      if (!game) throw new AppError('not_found');
      const live = game.live_build_id === null ? undefined : await this.#repository.find(game.live_build_id, trx);
      const chosen = await choose(live, trx);
      if (chosen.id === live?.id) return chosen;
      await this.#listings.makeLive(appId, chosen, game.slug, now, trx);
      if (operator !== null)
        await this.#auditLog.record(
          {
            operatorUserId: operator,
            action: 'build.rollback',
            target: { type: 'game', id: appId },
            detail: { from: live?.id ?? null, to: chosen.id, version: chosen.version, reason },
          },
          trx,
        );
      return chosen;
    });
    await this.#changed();
    const game = await this.#repository.game(appId);
    return this.#toBuild(target, target.id, game?.slug ?? '');
  }

  async #reviewed(buildId: number): Promise<Build> {
    const row = (await this.#repository.find(buildId))!;
    const game = await this.#repository.game(row.app_id);
    return this.#toBuild(row, game?.live_build_id ?? null, game?.slug ?? '');
  }

  /** The label of a build's preview host: unguessable without the portal's secret. */
  previewLabel(buildId: number): string {
    return `b${buildId}-${this.#signature(buildId)}`;
  }

  #signature(buildId: number, secret: string = this.#secret): string {
    return createHmac('sha256', secret).update(`game-build-preview:${buildId}`).digest('hex').slice(0, 32);
  }

  /** The origin a build's preview is served from: a host of its own below the previews origin, another site than the games'. */
  previewOrigin(buildId: number): string {
    return `${this.#previewsOrigin.protocol}//${this.previewLabel(buildId)}.${this.#previewsOrigin.host}`;
  }

  /** The build a preview label names, when its signature is the portal's. */
  async buildOfPreview(label: string): Promise<GameBuildRow | null> {
    const match = PREVIEW_LABEL.exec(label);
    if (!match) return null;
    const id = Number(match[1]);
    const given = Buffer.from(match[2]!);
    // Labels signed before a rotation of APP_SECRET are links studios and QA members hold: they keep working.
    const signed = [this.#secret, ...this.#previousSecrets].some((secret) => {
      const expected = Buffer.from(this.#signature(id, secret));
      return expected.length === given.length && timingSafeEqual(expected, given);
    });
    if (!signed) return null;
    return (await this.#repository.find(id)) ?? null;
  }

  /**
   * Whether a game bridge call made through a build's preview may reach the game before it is
   * published (decision 097, "The SDK in a preview"): the preview label is one the portal signed,
   * for a build of this game, and the caller is the game's developer or a QA test member.
   */
  async previewAllows(caller: Caller, appId: number, label: string | undefined): Promise<boolean> {
    return (await this.previewOfGame(appId, label)) && (await this.previewTester(appId, caller.userId));
  }

  /** Whether a preview label is one the portal signed for a build of this game (decision 111: a backend's test-mode call names one). */
  async previewOfGame(appId: number, label: string | undefined): Promise<boolean> {
    if (!label) return false;
    const build = await this.buildOfPreview(label);
    return build !== null && build.app_id === appId;
  }

  /** Whether a member may use the game's previews: its developer or a QA test member (decision 097). */
  async previewTester(appId: number, userId: number): Promise<boolean> {
    const tester = await this.#repository.previewTester(appId, userId);
    return tester.developerUserId === userId || tester.qaMember;
  }

  /** The build a games-origin host serves as a preview (`<label>.<previews host>`), or null. */
  async previewHost(hostname: string): Promise<ServedBuild | null> {
    const suffix = `.${this.#previewsOrigin.hostname}`;
    if (!hostname.toLowerCase().endsWith(suffix)) return null;
    const build = await this.buildOfPreview(hostname.slice(0, -suffix.length).toLowerCase());
    if (!build) return null;
    const game = await this.#repository.previewGame(build.app_id, 'en');
    if (!game) return null;
    return { appId: build.app_id, buildId: build.id, slug: game.slug, backendOrigins: JSON.parse(game.backend_origins) as string[] };
  }

  /** The QA page's game for a preview link: the build on its preview host, whatever the game's publication. */
  async previewConfig(locale: Locale, slug: string, label: string): Promise<GameConfig | null> {
    return this.#previewConfig(locale, label, (game) => game.slug === slug);
  }

  /** The game bridge's config of an unpublished game through its preview (decision 097), for its developer or a QA test member; else null. */
  async previewConfigFor(caller: Caller | null, locale: Locale, appId: number, label: string | undefined): Promise<GameConfig | null> {
    if (!caller || !label || !(await this.previewAllows(caller, appId, label))) return null;
    return this.#previewConfig(locale, label, (game) => game.id === appId);
  }

  async #previewConfig(locale: Locale, label: string, matches: (game: { id: number; slug: string }) => boolean): Promise<GameConfig | null> {
    const build = await this.buildOfPreview(label);
    if (!build) return null;
    const game = await this.#repository.previewGame(build.app_id, locale);
    if (!game || !matches(game)) return null;
    return {
      appId: game.id,
      slug: game.slug,
      title: game.title,
      type: game.type,
      url: `${this.previewOrigin(build.id)}/${build.entry_path}?locale=${encodeURIComponent(locale)}`,
      offlineCopy: null,
      orientation: game.orientation,
      width: game.width,
      height: game.height,
      sandbox: this.#sandbox,
      allow: 'fullscreen; autoplay; gamepad',
      sdk: { channel: 'playport', locale, portalOrigin: this.#portalOrigin, loadedMessage: 'playport:game-loaded' },
    };
  }

  #toBuild(row: GameBuildRow, liveBuildId: number | null, slug: string): Build {
    return {
      id: row.id,
      appId: row.app_id,
      version: row.version,
      status: row.status,
      reason: row.reason,
      live: row.id === liveBuildId,
      entryPath: row.entry_path,
      fileCount: row.file_count,
      totalBytes: Number(row.total_bytes),
      archiveBytes: Number(row.archive_bytes),
      createdAt: row.created_at,
      submittedAt: row.submitted_at,
      reviewedAt: row.reviewed_at,
      previewUrl: `${this.#portalOrigin}/qa/${slug}?preview=${this.previewLabel(row.id)}`,
    };
  }
}

/** A build problem's values with its byte counts as "1.5 MB": a size rule's `size` and `limit` (other rules' limits are counts). */
function readableSizes(values: BuildProblem['values'], locale: Locale): Record<string, string | number> {
  if (typeof values?.size !== 'number') return { ...values };
  return { ...values, size: byteSizeText(values.size, locale), ...(typeof values.limit === 'number' ? { limit: byteSizeText(values.limit, locale) } : {}) };
}
