import type { MemberDataFile } from '../member-data/member-data.service.ts';
import { type GameDayStats, type GameSession, type GameSessionReport, PLAY_MS_GRACE } from '#common/api/game-stats.schema.ts';
import { AppError } from '#server/lib/app-error.ts';
import type { Caller } from '#server/lib/caller.ts';
import { type Clock, isoNow } from '#server/lib/clock.ts';
import { assertAllowed, type RateLimiter, type RateRule } from '#server/adapters/rate-limits/rate-limiter.ts';
import type { GameSessionRow, GameSessionsRepository } from './game-sessions.repository.ts';

/** Limits of the play statistics (decision 093): the play page reports every 20 s and when it is hidden. */
export const GAME_SESSION_LIMITS = {
  /** Reports per user and minute, all games together. */
  reports: { name: 'game-session-reports', limit: 20, windowSeconds: 60 } satisfies RateRule,
  /** New play sessions per user, game and UTC day. */
  sessionsPerDay: 200,
};

/** Play statistics of games: the play page's reports, kept plausible, and per-day figures. */
export class GameSessionsService {
  readonly #repository: GameSessionsRepository;
  readonly #limiter: RateLimiter;
  readonly #clock: Clock;

  constructor(deps: { repository: GameSessionsRepository; limiter: RateLimiter; clock: Clock }) {
    this.#repository = deps.repository;
    this.#limiter = deps.limiter;
    this.#clock = deps.clock;
  }

  /**
   * Records a report of one play session (the whole session so far). Refused: an unknown game
   * (404), a session of another player or game (409), more play time than the session has lasted
   * (422), too many reports or sessions (429).
   */
  async record(caller: Caller, appId: number, report: GameSessionReport): Promise<GameSession> {
    assertAllowed(await this.#limiter.consume(GAME_SESSION_LIMITS.reports, String(caller.userId)));
    if (!(await this.#repository.appExists(appId)))
      throw new AppError('not_found', { messageKey: 'catalogue:errors.appNotFound', values: { slug: String(appId) } });
    const now = this.#clock.now();
    const figures = { loadingMs: report.loading_ms, toGameplayMs: report.to_gameplay_ms, playMs: report.play_ms };
    let existing = await this.#repository.find(report.session_id);
    if (!existing) {
      // A first report cannot carry more play time than the page waits between reports, with room to spare.
      if (report.play_ms > PLAY_MS_GRACE) throw implausible();
      const day = now.toISOString().slice(0, 10);
      if ((await this.#repository.countForDay(caller.userId, appId, day)) >= GAME_SESSION_LIMITS.sessionsPerDay)
        throw new AppError('rate_limited', { values: { seconds: secondsToMidnight(now) }, headers: { 'Retry-After': String(secondsToMidnight(now)) } });
      const row: GameSessionRow = {
        session_key: report.session_id,
        app_id: appId,
        user_id: caller.userId,
        day,
        loading_ms: figures.loadingMs,
        to_gameplay_ms: figures.toGameplayMs,
        play_ms: figures.playMs,
        created_at: now.toISOString(),
        updated_at: now.toISOString(),
      };
      if (await this.#repository.insert(row)) return sessionOf(row);
      existing = await this.#repository.find(report.session_id);
      if (!existing) throw new AppError('conflict');
    }
    if (existing.app_id !== appId || existing.user_id !== caller.userId) throw new AppError('conflict');
    if (report.play_ms > now.getTime() - Date.parse(existing.created_at) + PLAY_MS_GRACE) throw implausible();
    await this.#repository.update(report.session_id, figures, isoNow(this.#clock));
    return sessionOf((await this.#repository.find(report.session_id))!);
  }

  /** The caller's own latest sessions of a game (at most 20). */
  async mine(caller: Caller, appId: number): Promise<GameSession[]> {
    return (await this.#repository.listForUser(caller.userId, appId, 20)).map(sessionOf);
  }

  /** Per game and UTC day (YYYY-MM-DD, both included): what a developer's statistics show. */
  daily(filter: { appId?: number; fromDay: string; toDay: string }): Promise<GameDayStats[]> {
    return this.#repository.dailyStats(filter);
  }

  /** The member's reported play sessions in "Download my data" (decision 144). */
  async memberData(userId: number): Promise<MemberDataFile[]> {
    return [{ name: 'play-sessions.json', content: await this.#repository.sessionsOf(userId) }];
  }
}

function implausible(): AppError {
  return new AppError('validation', { fields: { play_ms: ['games:stats.implausiblePlayTime'] } });
}

function secondsToMidnight(now: Date): number {
  const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
  return Math.max(1, Math.ceil((midnight - now.getTime()) / 1000));
}

function sessionOf(row: GameSessionRow): GameSession {
  return {
    sessionId: row.session_key,
    appId: row.app_id,
    day: row.day,
    loadingMs: row.loading_ms,
    toGameplayMs: row.to_gameplay_ms,
    playMs: Number(row.play_ms),
    startedAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
