import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLAY_MS_GRACE } from '#common/api/game-stats.schema.ts';
import type { Clock } from '#server/lib/clock.ts';
import { fixtureGameIds, openTestApi, type TestApi } from '#server/testing/test-api.ts';
import { testPlayers } from '#server/testing/test-players.ts';
import { GameSessionsRepository } from './game-sessions.repository.ts';
import { GAME_SESSION_LIMITS, GameSessionsService } from './game-sessions.service.ts';

const sessionId = () => randomBytes(12).toString('base64url');

/** Play statistics (decision 093): the play page's reports, their limits, and the per-day figures. */
describe('game play sessions', () => {
  let api: TestApi;
  let appId: number;
  let otherAppId: number;
  beforeAll(async () => {
    api = await openTestApi();
    ({ appId, otherAppId } = await fixtureGameIds(api.database));
  });
  afterAll(() => api?.close());

  const { newGuest } = testPlayers(() => api, 15);
  const report = (token: string, body: Record<string, unknown>, app = appId) => api.call('POST', `/tracking/game-sessions/${app}`, { token, body });

  it('records a session, keeps its first figures and lets play time only grow; the player reads it back', async () => {
    const guest = await newGuest();
    const id = sessionId();
    const first = await report(guest.token, { session_id: id, loading_ms: 1200, play_ms: 0 });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().data).toMatchObject({ sessionId: id, appId, loadingMs: 1200, toGameplayMs: null, playMs: 0 });
    expect((await report(guest.token, { session_id: id, loading_ms: 9999, to_gameplay_ms: 3000, play_ms: 5000 })).statusCode).toBe(200);
    // An older report that arrives late takes nothing back.
    expect((await report(guest.token, { session_id: id, loading_ms: 1200, play_ms: 2000 })).statusCode).toBe(200);
    const mine = await api.call('GET', `/tracking/game-sessions/${appId}`, { token: guest.token });
    expect(mine.json().data.items).toEqual([
      expect.objectContaining({ sessionId: id, loadingMs: 1200, toGameplayMs: 3000, playMs: 5000, day: new Date().toISOString().slice(0, 10) }),
    ]);
    // Another player sees none of it.
    const other = await newGuest();
    expect((await api.call('GET', `/tracking/game-sessions/${appId}`, { token: other.token })).json().data.items).toEqual([]);
  });

  it('refuses a session reported for another game or by another player, an unknown game, and absurd values', async () => {
    const guest = await newGuest();
    const id = sessionId();
    expect((await report(guest.token, { session_id: id, play_ms: 0 })).statusCode).toBe(200);
    const otherApp = await report(guest.token, { session_id: id, play_ms: 0 }, otherAppId);
    expect(otherApp.statusCode).toBe(409);
    expect(otherApp.json().error).toBe('conflict');
    const thief = await newGuest();
    expect((await report(thief.token, { session_id: id, play_ms: 1000 })).statusCode).toBe(409);
    expect((await report(guest.token, { session_id: sessionId(), play_ms: 0 }, 999_999)).statusCode).toBe(404);
    for (const body of [
      { session_id: 'short', play_ms: 0 },
      { session_id: sessionId(), play_ms: -1 },
      { session_id: sessionId(), play_ms: 1.5 },
      { session_id: sessionId(), play_ms: 'a lot' },
      { session_id: sessionId(), loading_ms: 11 * 60_000 },
      { session_id: sessionId(), to_gameplay_ms: 2 * 60 * 60_000 },
      { session_id: sessionId(), play_ms: 25 * 60 * 60_000 },
      // A first report cannot carry more play than the page waits between two reports.
      { session_id: sessionId(), play_ms: PLAY_MS_GRACE + 1 },
    ]) {
      const answer = await report(guest.token, body);
      expect(answer.statusCode, JSON.stringify(body)).toBe(422);
    }
    expect((await report('', { session_id: sessionId() })).statusCode).toBe(401);
    // Nothing of the refused reports was stored.
    const mine = await api.call('GET', `/tracking/game-sessions/${appId}`, { token: guest.token });
    expect(mine.json().data.items.map((s: { sessionId: string }) => s.sessionId)).toEqual([id]);
    expect((await api.call('GET', `/tracking/game-sessions/${otherAppId}`, { token: guest.token })).json().data.items).toEqual([]);
  });

  it('refuses more play time than the session has lasted, by the clock of the server', async () => {
    let now = new Date('2026-03-01T10:00:00.000Z');
    const clock: Clock = { now: () => now };
    const service = new GameSessionsService({ repository: new GameSessionsRepository(api.services.database.db), limiter: api.services.rateLimiter, clock });
    const guest = await newGuest();
    const caller = { userId: guest.userInfo.uid } as Parameters<GameSessionsService['record']>[0];
    const id = sessionId();
    await service.record(caller, appId, { session_id: id, loading_ms: 800, to_gameplay_ms: 1500, play_ms: 10_000 });
    now = new Date(now.getTime() + 5 * 60_000);
    // Five minutes later: five minutes and the grace are plausible, an hour is not.
    await expect(service.record(caller, appId, { session_id: id, loading_ms: null, to_gameplay_ms: null, play_ms: 60 * 60_000 })).rejects.toMatchObject({
      code: 'validation',
    });
    const kept = await service.record(caller, appId, { session_id: id, loading_ms: null, to_gameplay_ms: null, play_ms: 5 * 60_000 + PLAY_MS_GRACE });
    expect(kept.playMs).toBe(5 * 60_000 + PLAY_MS_GRACE);
  });

  it('limits the reports a player sends in a minute', async () => {
    const guest = await newGuest();
    const id = sessionId();
    const answers = [];
    for (let i = 0; i < GAME_SESSION_LIMITS.reports.limit + 3; i++) answers.push((await report(guest.token, { session_id: id, play_ms: 0 })).statusCode);
    expect(answers.slice(0, GAME_SESSION_LIMITS.reports.limit).every((status) => status === 200)).toBe(true);
    expect(answers.slice(GAME_SESSION_LIMITS.reports.limit)).toEqual([429, 429, 429]);
  });

  it('limits the sessions a player starts for one game in a day', async () => {
    const now = new Date('2026-03-02T10:00:00.000Z');
    const repository = new GameSessionsRepository(api.services.database.db);
    // A limiter that never refuses, so only the daily cap is tested.
    const limiter = { ...api.services.rateLimiter, consume: async () => ({ allowed: true, count: 1, limit: 1, retryAfterSeconds: 1 }) };
    const service = new GameSessionsService({ repository, limiter, clock: { now: () => now } });
    const guest = await newGuest();
    const caller = { userId: guest.userInfo.uid } as Parameters<GameSessionsService['record']>[0];
    const fresh = { loading_ms: null, to_gameplay_ms: null, play_ms: 0 };
    for (let i = 0; i < GAME_SESSION_LIMITS.sessionsPerDay; i++) await service.record(caller, appId, { session_id: sessionId(), ...fresh });
    await expect(service.record(caller, appId, { session_id: sessionId(), ...fresh })).rejects.toMatchObject({ code: 'rate_limited' });
    // Another game is counted on its own.
    await expect(service.record(caller, otherAppId, { session_id: sessionId(), ...fresh })).resolves.toMatchObject({ appId: otherAppId });
  });

  it('aggregates per game and day: medians of loading and time to gameplay, total and average play time', async () => {
    const repository = new GameSessionsRepository(api.services.database.db);
    const guest = await newGuest();
    const insert = (app: number, day: string, loading: number | null, toGameplay: number | null, play: number) =>
      repository.insert({
        session_key: sessionId(),
        app_id: app,
        user_id: guest.userInfo.uid,
        day,
        loading_ms: loading,
        to_gameplay_ms: toGameplay,
        play_ms: play,
        created_at: `${day}T12:00:00.000Z`,
        updated_at: `${day}T12:00:00.000Z`,
      });
    // 2025-01-10, alpha: odd count of loading times (median 300), even count of gameplay times ((2000 + 4000) / 2).
    await insert(appId, '2025-01-10', 100, 1000, 60_000);
    await insert(appId, '2025-01-10', 900, 2000, 0);
    await insert(appId, '2025-01-10', 300, 4000, 30_000);
    await insert(appId, '2025-01-10', null, 8000, 10_000);
    await insert(appId, '2025-01-10', 200, null, 0);
    // The next day, and another game the same day; and a day outside the range.
    await insert(appId, '2025-01-11', 5000, null, 1000);
    await insert(otherAppId, '2025-01-10', 700, 700, 7000);
    await insert(appId, '2025-01-12', 1, 1, 1);

    const stats = await api.services.gameSessions.daily({ fromDay: '2025-01-10', toDay: '2025-01-11' });
    expect(stats).toEqual(
      [
        { appId, day: '2025-01-10', sessions: 5, medianLoadingMs: 250, medianToGameplayMs: 3000, totalPlayMs: 100_000, averagePlayMs: 20_000 },
        { appId, day: '2025-01-11', sessions: 1, medianLoadingMs: 5000, medianToGameplayMs: null, totalPlayMs: 1000, averagePlayMs: 1000 },
        { appId: otherAppId, day: '2025-01-10', sessions: 1, medianLoadingMs: 700, medianToGameplayMs: 700, totalPlayMs: 7000, averagePlayMs: 7000 },
      ].sort((a, b) => a.appId - b.appId || a.day.localeCompare(b.day)),
    );
    const alphaOnly = await api.services.gameSessions.daily({ appId: otherAppId, fromDay: '2025-01-01', toDay: '2025-01-31' });
    expect(alphaOnly.map((row) => [row.appId, row.day])).toEqual([[otherAppId, '2025-01-10']]);
  });
});
