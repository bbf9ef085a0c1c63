import type { ErasedMember } from '../accounts/account-deletion.service.ts';
import type { MemberDataFile } from '../member-data/member-data.service.ts';
import {
  type Achievement,
  type BoardInfo,
  type DeclaredAchievement,
  type DeclaredBoard,
  type GameRecords,
  type Leaderboard,
  type LeaderboardEntry,
  type MyAchievements,
  type Period,
  type SubmitScore,
  type Unlock,
} from '#common/api/game-records.schema.ts';
import type { Locale } from '#common/locales.ts';
import type { UnitOfWork } from '#server/db/unit-of-work.ts';
import { AppError } from '#server/lib/app-error.ts';
import type { Caller } from '#server/lib/caller.ts';
import { type Clock, isoNow } from '#server/lib/clock.ts';
import { assertAllowed, type RateLimiter, type RateRule } from '#server/adapters/rate-limits/rate-limiter.ts';
import { TimedCache } from '#server/lib/timed-cache.ts';
import { SIGNATURE_TOLERANCE_SECONDS, signatureProblem } from '#server/lib/backend-signatures.ts';
import { callMode, type Mode, type PreviewCheck } from '#server/lib/preview-access.ts';
import type { GameSecretsService } from '../game-secrets/game-secrets.service.ts';
import type { PaymentsService } from '../payments/payments.service.ts';
import type { RankedRow, RecordsRepository } from './records.repository.ts';

/** Submissions and unlocks from the game, per player and game: a game records at game over, not every frame. */
export const RECORD_LIMIT = { name: 'game-records', limit: 30, windowSeconds: 60 } satisfies RateRule;
/** How long the app page's boards and counts are shared by every visitor of an instance (a record here clears it). */
const RECORDS_TTL_MS = 5_000;

/**
 * Who records: a player through the play page, or the game's backend for a player (signed,
 * decision 092), live or in test mode (decision 111).
 */
export type Recorder = { kind: 'player'; userId: number } | { kind: 'backend'; userId: number; mode: Mode };

/**
 * How a player's call came: its caller and the build preview it came through, if any (decision 097):
 * a game not yet published answers its developer and QA test members in its preview.
 */
export interface Through {
  caller: Caller | null;
  preview: string | undefined;
}

interface Declarations {
  id: number;
  slug: string;
  boards: DeclaredBoard[];
  achievements: DeclaredAchievement[];
  /** Whose boards and unlocks a call reads and writes: the live game's, or its previews' test ones. */
  mode: Mode;
}

/**
 * Test mode's scores and unlocks are stored under keys live reads never name (decision 111):
 * `test:` before the period (`test:all-time`) and the achievement; record ids cannot hold `:`.
 */
const TEST_PREFIX = 'test:';
const stored = (mode: Mode, key: string) => (mode === 'test' ? `${TEST_PREFIX}${key}` : key);

/** The period a score falls in: "all-time", "daily:2026-11-26", "weekly:2026-W48" (UTC; ISO weeks start on Monday). */
export function periodKey(period: Period, now: Date): string {
  if (period === 'all-time') return 'all-time';
  if (period === 'daily') return `daily:${now.toISOString().slice(0, 10)}`;
  const day = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  day.setUTCDate(day.getUTCDate() + 4 - (day.getUTCDay() || 7));
  const week = Math.ceil(((day.getTime() - Date.UTC(day.getUTCFullYear(), 0, 1)) / 86_400_000 + 1) / 7);
  return `weekly:${day.getUTCFullYear()}-W${String(week).padStart(2, '0')}`;
}

/** Leaderboards and achievements of games (SDK 1.1; decision 092). */
export class RecordsService {
  readonly #repository: RecordsRepository;
  readonly #limiter: RateLimiter;
  readonly #clock: Clock;
  readonly #secrets: Pick<GameSecretsService, 'verifying' | 'rotate'>;
  readonly #records: TimedCache<string, GameRecords>;
  readonly #preview: PreviewCheck | null;
  /** Who plays a live game: the payments feature's rule, shared with the item look-up (decision 111). */
  readonly #players: Pick<PaymentsService, 'isPlayerOf'>;

  constructor(deps: {
    repository: RecordsRepository;
    limiter: RateLimiter;
    clock: Clock;
    secrets: Pick<GameSecretsService, 'verifying' | 'rotate'>;
    preview?: PreviewCheck;
    players: Pick<PaymentsService, 'isPlayerOf'>;
  }) {
    this.#players = deps.players;
    this.#repository = deps.repository;
    this.#preview = deps.preview ?? null;
    this.#limiter = deps.limiter;
    this.#clock = deps.clock;
    this.#secrets = deps.secrets;
    this.#records = new TimedCache({ ttlMs: RECORDS_TTL_MS, clock: deps.clock });
  }

  /** Keeps the player's best per period of the board; bounds and the rate limit first. */
  async submit(recorder: Recorder, appId: number, boardId: string, score: number, through?: Through): Promise<SubmitScore> {
    const app = await this.#declarations(appId, recorder.kind === 'backend' ? recorder.mode : through);
    const board = boardOf(app, boardId);
    if (board.backendOnly && recorder.kind === 'player') throw new AppError('backend_only');
    if (score < board.min || score > board.max)
      throw new AppError('score_out_of_bounds', { values: { score, min: board.min, max: board.max }, data: { min: board.min, max: board.max } });
    await this.#countRecord(recorder, appId);
    const now = this.#clock.now();
    const keys = board.periods.map((period) => stored(app.mode, periodKey(period, now)));
    const results = await this.#repository.submitBest(appId, board.id, keys, recorder.userId, score, board.order, now.toISOString());
    if (results.some((r) => r.improved)) this.#records.clear();
    return { board: board.id, score, periods: results.map((r, i) => ({ period: board.periods[i]!, best: r.best, improved: r.improved })) };
  }

  /** The best of a board's period; `callerId` marks the caller's row and adds the caller's own rank. */
  async top(locale: Locale, appId: number, boardId: string, period: Period, limit: number, callerId: number | null, through?: Through): Promise<Leaderboard> {
    const app = await this.#declarations(appId, through);
    const board = boardOf(app, boardId);
    const key = stored(app.mode, keptPeriod(board, period, this.#clock.now()));
    const rows = await this.#repository.top(appId, board.id, key, board.order, limit);
    const me = callerId === null ? null : (await this.#repository.around(appId, board.id, key, board.order, callerId, 1)).me;
    return { board: boardInfo(board, locale), period, entries: rows.map((row) => entry(row, callerId)), me: me && { rank: me.rank, score: me.score } };
  }

  /** The caller's rank and the players around it. */
  async around(locale: Locale, appId: number, boardId: string, period: Period, limit: number, callerId: number, through?: Through): Promise<Leaderboard> {
    const app = await this.#declarations(appId, through);
    const board = boardOf(app, boardId);
    const key = stored(app.mode, keptPeriod(board, period, this.#clock.now()));
    const { me, rows } = await this.#repository.around(appId, board.id, key, board.order, callerId, limit);
    return { board: boardInfo(board, locale), period, entries: rows.map((row) => entry(row, callerId)), me: me && { rank: me.rank, score: me.score } };
  }

  /** Unlocks an achievement once; the same call again answers the first unlock's time. */
  async unlock(recorder: Recorder, appId: number, achievementId: string, through?: Through): Promise<Unlock> {
    const app = await this.#declarations(appId, recorder.kind === 'backend' ? recorder.mode : through);
    const achievement = app.achievements.find((a) => a.id === achievementId);
    if (!achievement) throw new AppError('not_found', { messageKey: 'games:records.unknownAchievement', values: { achievement: achievementId } });
    if (achievement.backendOnly && recorder.kind === 'player') throw new AppError('backend_only');
    await this.#countRecord(recorder, appId);
    const result = await this.#repository.unlock(appId, stored(app.mode, achievement.id), recorder.userId, isoNow(this.#clock));
    if (result.newlyUnlocked) this.#records.clear();
    return { id: achievement.id, ...result };
  }

  /** Every achievement of the game, with the caller's unlock time or null. */
  async achievements(locale: Locale, appId: number, callerId: number, through?: Through): Promise<Achievement[]> {
    const app = await this.#declarations(appId, through);
    const unlocked = new Map((await this.#repository.unlocksOf(callerId, appId)).map((u) => [u.achievement, u.unlocked_at]));
    return app.achievements.map((a) => ({ ...achievementInfo(a, locale), unlockedAt: unlocked.get(stored(app.mode, a.id)) ?? null }));
  }

  /** What the app page shows, the same for everybody: each board's top ten per period, each achievement's number of players. */
  records(locale: Locale, appId: number): Promise<GameRecords> {
    return this.#records.get(`${appId}:${locale}`, async () => {
      const app = await this.#declarations(appId);
      const now = this.#clock.now();
      const counts = await this.#repository.unlockCounts(appId);
      const boards = [];
      for (const board of app.boards) {
        const tops = [];
        for (const period of board.periods) {
          const rows = await this.#repository.top(appId, board.id, periodKey(period, now), board.order, 10);
          tops.push({ period, entries: rows.map((row) => entry(row, null)) });
        }
        boards.push({ ...boardInfo(board, locale), tops });
      }
      return { boards, achievements: app.achievements.map((a) => ({ ...achievementInfo(a, locale), players: counts.get(a.id) ?? 0 })) };
    });
  }

  /** The guest merge's step for scores and achievements (decision 137): the guest's join the member's in the merge's unit of work. */
  moveGuest(guestId: number, memberId: number, unit: UnitOfWork): Promise<void> {
    return this.#repository.moveGuestRows(guestId, memberId, unit);
  }

  /** Empties a game's leaderboards and achievements in the caller's unit of work: its first release drops what previews recorded. */
  clearGame(appId: number, unit: UnitOfWork): Promise<void> {
    return this.#repository.clearGame(appId, unit);
  }

  /** My area: the player's unlocked achievements, per game. */
  async myAchievements(locale: Locale, userId: number): Promise<MyAchievements> {
    const unlocks = await this.#repository.unlocksOf(userId);
    const apps = await this.#repository.appsFor([...new Set(unlocks.map((u) => u.app_id))], locale);
    return apps
      .map((app) => {
        const declared = JSON.parse(app.achievements) as DeclaredAchievement[];
        const achievements = unlocks
          .filter((u) => u.app_id === app.id)
          .flatMap((u) => {
            const a = declared.find((d) => d.id === u.achievement);
            return a ? [{ ...achievementInfo(a, locale), unlockedAt: u.unlocked_at }] : [];
          });
        return { app: { id: app.id, slug: app.slug, title: app.title, thumbnail: app.thumbnail }, achievements };
      })
      .filter((group) => group.achievements.length > 0);
  }

  /**
   * Checks a backend call's signature with the game's current secret and refuses a replay; answers
   * the player it names. Every refusal is `signature_invalid` with the reason.
   */
  async verifyBackendCall(
    appId: number,
    headers: { timestamp: string | undefined; signature: string | undefined },
    rawBody: string,
    body: { uid: number; preview?: string | undefined },
  ): Promise<Recorder> {
    const mode = await this.#backendMode(appId, body.preview);
    await this.verifySignedCall(appId, headers, rawBody);
    // Only a player of the game is recorded for; any other account number, one that exists or not, is the same 404 (nothing to probe).
    const player = mode === 'test' ? await this.#preview!.previewTester(appId, body.uid) : await this.#players.isPlayerOf(body.uid, appId);
    if (!player) throw new AppError('not_found', { messageKey: 'games:records.noPlayer', values: { uid: body.uid } });
    return { kind: 'backend', userId: body.uid, mode };
  }

  /**
   * A backend call's mode (decision 111): test when its signed body names a preview of one of the
   * game's builds, draft or published; else live, for a published game. Anything else is the 404
   * of a game that does not exist.
   */
  async #backendMode(appId: number, preview: string | undefined): Promise<Mode> {
    if (preview === undefined) return (await this.#declarations(appId)).mode;
    if ((await this.#repository.declarations(appId)) !== undefined && this.#preview && (await this.#preview.previewOfGame(appId, preview))) return 'test';
    throw new AppError('not_found', { messageKey: 'catalogue:errors.appNotFound', values: { slug: String(appId) } });
  }

  /**
   * Checks that a call is signed with the game's backend secret (or, during a rotation's overlap,
   * the one it replaced; decision 110), recently, and not seen before (every signed call of a
   * game's backend, decision 092). Every refusal is `signature_invalid`.
   */
  async verifySignedCall(appId: number, headers: { timestamp: string | undefined; signature: string | undefined }, rawBody: string): Promise<void> {
    const secrets = await this.#secrets.verifying(appId, 'backend');
    if (secrets.length === 0) throw refuse('no_secret');
    const now = this.#clock.now();
    const problems = secrets.map((secret) => signatureProblem(secret, headers, rawBody, now.getTime()));
    if (!problems.includes(null)) throw refuse(problems[0]!);
    const expires = new Date(now.getTime() + 2 * SIGNATURE_TOLERANCE_SECONDS * 1000).toISOString();
    if (!(await this.#repository.claimSignature(appId, headers.signature!.slice(3).toLowerCase(), expires, now.toISOString()))) throw refuse('replayed');
  }

  /**
   * Makes a new backend secret for a game and answers it, to be shown once; the previous one keeps
   * verifying until `previousExpiresAt` (decision 110).
   */
  async newBackendSecret(appId: number): Promise<{ secret: string; previousExpiresAt: string | null }> {
    return this.#secrets.rotate(appId, 'backend');
  }

  /** The same, by the game's slug (the content command). */
  async newBackendSecretFor(slug: string): Promise<{ secret: string; previousExpiresAt: string | null }> {
    const appId = await this.#repository.appIdBySlug(slug);
    if (appId === undefined) throw new AppError('not_found', { messageKey: 'catalogue:errors.appNotFound', values: { slug } });
    return this.newBackendSecret(appId);
  }

  async #countRecord(recorder: Recorder, appId: number): Promise<void> {
    if (recorder.kind === 'player') assertAllowed(await this.#limiter.consume(RECORD_LIMIT, `${recorder.userId}:${appId}`));
  }

  /**
   * A game's declarations and the mode of the call (decision 111): a player's call through a
   * preview its caller may use (`through`) is in test mode, published or not; any other is live,
   * for a published game only. A backend's call comes with the mode its verification settled.
   */
  async #declarations(appId: number, access?: Through | Mode): Promise<Declarations> {
    const row = await this.#repository.declarations(appId);
    const mode: Mode | null =
      row === undefined
        ? null
        : typeof access === 'string'
          ? access
          : ((await callMode(row.published === 1, this.#preview, access?.caller ?? null, appId, access?.preview))?.mode ?? null);
    if (!row || !mode) throw new AppError('not_found', { messageKey: 'catalogue:errors.appNotFound', values: { slug: String(appId) } });
    return {
      id: row.id,
      slug: row.slug,
      boards: JSON.parse(row.leaderboards) as DeclaredBoard[],
      achievements: JSON.parse(row.achievements) as DeclaredAchievement[],
      mode,
    };
  }

  /** The player's scores and achievements in "Download my data" (decision 144). */
  async memberData(userId: number): Promise<MemberDataFile[]> {
    const { scores, achievements } = await this.#repository.personalDataOf(userId);
    return [
      { name: 'scores.json', content: scores },
      { name: 'achievements.json', content: achievements },
    ];
  }

  /** The account erasure's step (decision 147): the member's rows of this feature's tables go, in the erasure's unit of work. */
  async eraseMember(member: ErasedMember, unit: UnitOfWork): Promise<void> {
    await this.#repository.eraseMember(member.id, unit);
  }
}

const refuse = (reason: string) => new AppError('signature_invalid', { values: { reason }, data: { reason } });

function boardOf(app: Declarations, boardId: string): DeclaredBoard {
  const board = app.boards.find((b) => b.id === boardId);
  if (!board) throw new AppError('not_found', { messageKey: 'games:records.unknownBoard', values: { board: boardId } });
  return board;
}

function keptPeriod(board: DeclaredBoard, period: Period, now: Date): string {
  if (!board.periods.includes(period)) throw new AppError('validation', { fields: { period: [{ key: 'games:records.periodNotKept', values: { period } }] } });
  return periodKey(period, now);
}

const text = <T extends object>(texts: { en: T; 'zh-CN'?: Partial<T> | undefined }, locale: Locale): T =>
  locale === 'en' ? texts.en : { ...texts.en, ...texts[locale] };

function boardInfo(board: DeclaredBoard, locale: Locale): BoardInfo {
  const { names, ...rest } = board;
  return { ...rest, name: text(names, locale).name };
}

function achievementInfo(a: DeclaredAchievement, locale: Locale): Omit<Achievement, 'unlockedAt'> {
  const { name, description } = text(a.texts, locale);
  return { id: a.id, name, description, icon: a.icon };
}

function entry(row: RankedRow, callerId: number | null): LeaderboardEntry {
  return {
    rank: row.rank,
    nickname: row.nickname,
    isGuest: row.is_guest === 1,
    score: row.score,
    achievedAt: row.achieved_at,
    isCaller: row.user_id === callerId,
  };
}
