import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DatabaseRateLimiter } from '#server/adapters/rate-limits/rate-limits.repository.ts';
import { appIdOf, openTestApi, type TestApi } from '#server/testing/test-api.ts';
import { testPlayers } from '#server/testing/test-players.ts';
import { recordFromBackend } from '../../../docs/examples/record-from-backend.ts';
import { backendSignature } from '#server/lib/backend-signatures.ts';
import { RecordsRepository } from './records.repository.ts';
import { RECORD_LIMIT, RecordsService } from './records.service.ts';

const reason = (response: { json(): { error: string; data: { reason: string } } }) => `${response.json().error}/${response.json().data.reason}`;
const as = (p: { userInfo: { uid: number } }) => ({ kind: 'player' as const, userId: p.userInfo.uid });

/** Leaderboards and achievements (decision 092) through the API, and the service on a clock of the test's own. */
describe('leaderboards and achievements', () => {
  let api: TestApi;
  let alpha: number;
  let beta: number;
  beforeAll(async () => {
    api = await openTestApi();
    alpha = await appIdOf(api.database, 'alpha');
    beta = await appIdOf(api.database, 'beta');
  });
  afterAll(() => api?.close());

  const { newGuest, newMember } = testPlayers(() => api, 11);
  const submit = (token: string, score: unknown, board = 'points', app = alpha) =>
    api.call('POST', `/game/leaderboards/${app}/${board}/scores`, { token, body: { score } });
  const unlock = (token: string, id: string, app = alpha) => api.call('POST', `/game/achievements/${app}/${id}`, { token });
  const top = async (board: string, query = '') => (await api.call('GET', `/game/leaderboards/${alpha}/${board}${query}`)).json().data;

  /** The service on a clock the test moves, sharing the API's database. */
  const atTimes = () => {
    const clock = { time: new Date('2026-11-26T10:00:00Z'), now: () => new Date(clock.time) };
    const db = api.services.database.db;
    const service = new RecordsService({
      repository: new RecordsRepository(db),
      limiter: new DatabaseRateLimiter(db, clock),
      clock,
      secrets: api.services.gameSecrets,
      players: api.services.payments,
    });
    return { clock, service };
  };

  it("keeps each player's best per period: the higher on a desc board, the lower on an asc board", async () => {
    const guest = await newGuest();
    const first = await submit(guest.token, 300);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().data.periods).toEqual([
      { period: 'daily', best: 300, improved: true },
      { period: 'weekly', best: 300, improved: true },
      { period: 'all-time', best: 300, improved: true },
    ]);
    expect((await submit(guest.token, 120)).json().data.periods.map((p: { best: number; improved: boolean }) => [p.best, p.improved])).toEqual([
      [300, false],
      [300, false],
      [300, false],
    ]);
    expect((await submit(guest.token, 450)).json().data.periods.every((p: { best: number }) => p.best === 450)).toBe(true);
    expect((await submit(guest.token, 5000, 'fastest')).statusCode).toBe(200);
    expect((await submit(guest.token, 7000, 'fastest')).json().data.periods).toEqual([{ period: 'all-time', best: 5000, improved: false }]);
    expect((await submit(guest.token, 4000, 'fastest')).json().data.periods).toEqual([{ period: 'all-time', best: 4000, improved: true }]);
    const rows = await api.services.database.db.selectFrom('leaderboard_scores').select(['board', 'score']).where('user_id', '=', guest.userInfo.uid).execute();
    expect(rows.filter((r) => r.board === 'points').map((r) => r.score)).toEqual([450, 450, 450]);
    expect(rows.filter((r) => r.board === 'fastest').map((r) => r.score)).toEqual([4000]);
  });

  it('starts a new daily board each UTC day and a new weekly board each ISO week, while all-time keeps the best', async () => {
    const { clock, service } = atTimes();
    const board = 'points';
    const player = await newGuest();
    const me = as(player);
    const mine = async (period: 'daily' | 'weekly' | 'all-time') =>
      (await service.around('en', alpha, board, period, 1, player.userInfo.uid)).me?.score ?? null;
    // Thursday 26 November 2026 (ISO week 48).
    await service.submit(me, alpha, board, 900);
    clock.time = new Date('2026-11-27T09:00:00Z'); // Friday: a new day, the same week
    expect(await mine('daily')).toBeNull();
    expect(await mine('weekly')).toBe(900);
    await service.submit(me, alpha, board, 100);
    expect([await mine('daily'), await mine('weekly'), await mine('all-time')]).toEqual([100, 900, 900]);
    clock.time = new Date('2026-11-30T00:00:01Z'); // Monday: a new week
    expect([await mine('daily'), await mine('weekly'), await mine('all-time')]).toEqual([null, null, 900]);
    await service.submit(me, alpha, board, 50);
    expect([await mine('daily'), await mine('weekly'), await mine('all-time')]).toEqual([50, 50, 900]);
    // A board that keeps only all-time refuses another period.
    await expect(service.top('en', alpha, 'fastest', 'daily', 10, null)).rejects.toMatchObject({ code: 'validation' });
    const refused = await api.call('GET', `/game/leaderboards/${alpha}/fastest?period=weekly`);
    expect(refused.statusCode).toBe(422);
  });

  it('ranks ties alike, lists the earlier score first, and shows guests by their nickname', async () => {
    const { clock, service } = atTimes();
    const board = 'verified'; // backend-only: written here through the service as the backend would
    const players = [];
    for (const score of [500, 700, 700, 300, 700, 100]) {
      const player = await newGuest();
      clock.time = new Date(clock.time.getTime() + 1000);
      await service.submit({ kind: 'backend', userId: player.userInfo.uid, mode: 'live' }, alpha, board, score);
      players.push({ ...player, score });
    }
    const list = await service.top('en', alpha, board, 'all-time', 10, players[3]!.userInfo.uid);
    expect(list.entries.map((e) => [e.rank, e.score])).toEqual([
      [1, 700],
      [1, 700],
      [1, 700],
      [4, 500],
      [5, 300],
      [6, 100],
    ]);
    // Among equal scores the earlier comes first.
    const sevens = list.entries.filter((e) => e.score === 700).map((e) => e.achievedAt);
    expect([...sevens].sort()).toEqual(sevens);
    expect(list.entries[4]).toMatchObject({ isCaller: true, isGuest: true });
    expect(list.me).toEqual({ rank: 5, score: 300 });
    const nicknames = await api.services.database.db
      .selectFrom('users')
      .select('nickname')
      .where('id', '=', players[0]!.userInfo.uid)
      .executeTakeFirstOrThrow();
    expect(nicknames.nickname).toBeTruthy();
    expect(list.entries.find((e) => e.score === 500)!.nickname).toBe(nicknames.nickname);

    // Around the last of the tied: its rank is the tie's, and the window is centred on it.
    const tiedLast = players[4]!;
    const around = await service.around('en', alpha, board, 'all-time', 3, tiedLast.userInfo.uid);
    expect(around.me).toEqual({ rank: 1, score: 700 });
    expect(around.entries.map((e) => [e.rank, e.score, e.isCaller])).toEqual([
      [1, 700, false],
      [1, 700, true],
      [4, 500, false],
    ]);
    // At the bottom the window takes its room from above.
    const last = await service.around('en', alpha, board, 'all-time', 4, players[5]!.userInfo.uid);
    expect(last.entries.map((e) => [e.rank, e.score])).toEqual([
      [1, 700],
      [4, 500],
      [5, 300],
      [6, 100],
    ]);
    // Through the API, with the caller's token.
    const viaApi = await api.call('GET', `/game/leaderboards/${alpha}/${board}/around?limit=3`, { token: players[1]!.token });
    expect(viaApi.statusCode, viaApi.body).toBe(200);
    expect(viaApi.json().data.me).toEqual({ rank: 1, score: 700 });
    const none = await api.call('GET', `/game/leaderboards/${alpha}/${board}/around`, { token: (await newGuest()).token });
    expect(none.json().data).toMatchObject({ me: null, entries: [] });
  });

  it('keeps the best of one player’s submissions sent at once, and every player’s of many at once', async () => {
    const player = await newGuest();
    const scores = Array.from({ length: 20 }, (_, i) => ((i * 37) % 20) * 10 + 1000);
    const answers = await Promise.all(scores.map((score) => submit(player.token, score)));
    expect(answers.map((a) => a.statusCode).every((s) => s === 200)).toBe(true);
    const rows = await api.services.database.db
      .selectFrom('leaderboard_scores')
      .select(['period', 'score'])
      .where('user_id', '=', player.userInfo.uid)
      .execute();
    expect(rows).toHaveLength(3);
    expect(rows.every((r) => r.score === Math.max(...scores))).toBe(true);

    const many = await Promise.all(Array.from({ length: 12 }, () => newGuest()));
    const manyAnswers = await Promise.all(many.map((p, i) => submit(p.token, 5000 + i, 'fastest')));
    expect(manyAnswers.every((a) => a.statusCode === 200)).toBe(true);
    const fastest = await top('fastest', '?limit=50');
    const ours = fastest.entries.filter((e: { score: number }) => e.score >= 5000 && e.score < 5012);
    expect(ours.map((e: { score: number }) => e.score)).toEqual(Array.from({ length: 12 }, (_, i) => 5000 + i));
  });

  it('refuses scores outside the bounds and past the rate limit, with their own codes', async () => {
    const player = await newGuest();
    for (const score of [-1, 100_001]) {
      const refused = await submit(player.token, score);
      expect(refused.statusCode).toBe(422);
      expect(refused.json()).toMatchObject({ error: 'score_out_of_bounds', data: { min: 0, max: 100000 } });
      expect(refused.json().message).toContain('0 to 100000');
    }
    expect((await submit(player.token, 999, 'fastest')).json().error).toBe('score_out_of_bounds');
    for (const bad of [1.5, '12', null]) expect((await submit(player.token, bad)).statusCode, String(bad)).toBe(422);
    expect((await submit(player.token, 100_000)).statusCode).toBe(200);
    const other = await newGuest();
    const answers = [];
    for (let i = 0; i < RECORD_LIMIT.limit + 1; i++) answers.push((await submit(other.token, i)).statusCode);
    expect(answers.slice(0, RECORD_LIMIT.limit).every((s) => s === 200)).toBe(true);
    expect(answers.at(-1)).toBe(429);
    const limited = await unlock(other.token, 'first-win');
    expect(limited.json()).toMatchObject({ error: 'rate_limited' });
    // Per player and game: another game and another player are not held back.
    expect((await submit(other.token, 10, 'moves', beta)).statusCode).toBe(200);
    expect((await submit(player.token, 10)).statusCode).toBe(200);
  });

  it('refuses unknown boards, another game’s boards and backend-only boards from the game', async () => {
    const player = await newGuest();
    const unknown = await submit(player.token, 10, 'nope');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toContain('nope');
    expect((await submit(player.token, 10, 'moves')).statusCode).toBe(404); // beta's board, sent for alpha
    expect((await submit(player.token, 10, 'points', beta)).statusCode).toBe(404); // and the other way round
    expect((await submit(player.token, 10, 'points', 999_999)).statusCode).toBe(404);
    const backendOnly = await submit(player.token, 10, 'verified');
    expect(backendOnly.statusCode).toBe(403);
    expect(backendOnly.json().error).toBe('backend_only');
    expect((await unlock(player.token, 'audited')).json()).toMatchObject({ code: 403, error: 'backend_only' });
    expect((await unlock(player.token, 'moves-100')).statusCode).toBe(404); // beta's achievement
    expect((await submit(player.token, 10, 'Bad Id')).statusCode).toBe(422);
    expect((await api.call('POST', `/game/leaderboards/${alpha}/points/scores`, { body: { score: 1 } })).statusCode).toBe(401);
    const rows = await api.services.database.db.selectFrom('leaderboard_scores').select('board').where('user_id', '=', player.userInfo.uid).execute();
    expect(rows).toEqual([]);
  });

  it('unlocks an achievement once under concurrency, counts its players and lists it in My area', async () => {
    const player = await newMember();
    const answers = await Promise.all(Array.from({ length: 10 }, () => unlock(player.token, 'first-win')));
    expect(answers.every((a) => a.statusCode === 200)).toBe(true);
    const data = answers.map((a) => a.json().data);
    expect(data.filter((d) => d.newlyUnlocked)).toHaveLength(1);
    expect(new Set(data.map((d) => d.unlockedAt)).size).toBe(1);
    const others = await Promise.all([newGuest(), newGuest()]);
    await Promise.all(others.map((o) => unlock(o.token, 'first-win')));
    await unlock(others[0]!.token, 'tile-2048');
    const records = (await api.call('GET', `/game/records/${alpha}`, { headers: { locale: 'zh-CN' } })).json().data;
    const counts = Object.fromEntries(records.achievements.map((a: { id: string; players: number }) => [a.id, a.players]));
    const rows = await api.services.database.db.selectFrom('achievement_unlocks').select(['achievement']).where('app_id', '=', alpha).execute();
    expect(counts['first-win']).toBe(rows.filter((r) => r.achievement === 'first-win').length);
    expect(counts['first-win']).toBeGreaterThanOrEqual(3);
    expect(counts['tile-2048']).toBe(rows.filter((r) => r.achievement === 'tile-2048').length);
    expect(records.achievements.find((a: { id: string }) => a.id === 'first-win')).toMatchObject({ name: '首胜', icon: '/games/alpha/thumb.svg' });
    expect(records.boards.map((b: { id: string; name: string }) => [b.id, b.name])).toEqual([
      ['points', '积分'],
      ['fastest', '最快获胜'],
      ['verified', '核验积分'],
    ]);
    const list = (await api.call('GET', `/game/achievements/${alpha}`, { token: player.token })).json().data;
    expect(list.map((a: { id: string; unlockedAt: string | null }) => [a.id, a.unlockedAt !== null])).toEqual([
      ['first-win', true],
      ['tile-2048', false],
      ['audited', false],
    ]);
    const mine = (await api.call('GET', '/user/achievements', { token: player.token })).json().data;
    expect(mine).toEqual([
      {
        app: expect.objectContaining({ id: alpha, slug: 'alpha', title: 'Alpha 2048' }),
        achievements: [expect.objectContaining({ id: 'first-win', name: 'First win', unlockedAt: data[0].unlockedAt })],
      },
    ]);
  });

  describe('calls of the game’s backend', () => {
    let secret: string;
    const player = { uid: 0 };
    beforeAll(async () => {
      const guest = await newGuest();
      player.uid = guest.userInfo.uid;
      // The backend records only for players of the game (decision 111).
      expect((await api.call('POST', '/member/played/', { token: guest.token, body: { app_id: alpha } })).statusCode).toBe(200);
    });
    const signed = (path: string, body: object, options: { key?: string; at?: number; app?: number; tamper?: boolean } = {}) => {
      const raw = JSON.stringify(body);
      const timestamp = String(options.at ?? Math.floor(Date.now() / 1000));
      const signature = backendSignature(options.key ?? secret, timestamp, raw);
      return api.app.inject({
        method: 'POST',
        url: `/serve/api/game/backend/${options.app ?? alpha}/${path}`,
        headers: { 'content-type': 'application/json', 'playport-timestamp': timestamp, 'playport-signature': `v1=${signature}` },
        payload: options.tamper ? raw.replace('}', ',"x":1}') : raw,
      });
    };

    it('refuses every call until the operator made a secret', async () => {
      const response = await signed('scores', { uid: player.uid, board: 'verified', score: 10 }, { key: 'pps_guess' });
      expect(response.statusCode).toBe(401);
      expect(reason(response)).toBe('signature_invalid/no_secret');
      secret = (await api.services.records.newBackendSecret(alpha)).secret;
      expect(secret).toMatch(/^pps_[A-Za-z0-9_-]{43}$/);
    });

    it('accepts a signed score for a backend-only board, once', async () => {
      const at = Math.floor(Date.now() / 1000);
      const body = { uid: player.uid, board: 'verified', score: 777 };
      const first = await signed('scores', body, { at });
      expect(first.statusCode, first.body).toBe(200);
      expect(first.json().data.periods).toEqual([{ period: 'all-time', best: 777, improved: true }]);
      const replay = await signed('scores', body, { at });
      expect(replay.statusCode).toBe(401);
      expect(reason(replay)).toBe('signature_invalid/replayed');
      const unlocked = await signed('achievements', { uid: player.uid, achievement: 'audited' });
      expect(unlocked.statusCode, unlocked.body).toBe(200);
      expect(unlocked.json().data).toMatchObject({ id: 'audited', newlyUnlocked: true });
    });

    it('refuses a wrong secret, another game’s secret, a changed body, an old or future timestamp and a missing signature', async () => {
      const body = { uid: player.uid, board: 'verified', score: 1 };
      expect(reason(await signed('scores', body, { key: `${secret}x` }))).toBe('signature_invalid/mismatch');
      const betaSecret = (await api.services.records.newBackendSecret(beta)).secret;
      expect(reason(await signed('scores', body, { key: betaSecret }))).toBe('signature_invalid/mismatch');
      expect(reason(await signed('scores', body, { tamper: true }))).toBe('signature_invalid/mismatch');
      expect(reason(await signed('scores', body, { at: Math.floor(Date.now() / 1000) - 301 }))).toBe('signature_invalid/expired');
      expect(reason(await signed('scores', body, { at: Math.floor(Date.now() / 1000) + 301 }))).toBe('signature_invalid/expired');
      const bare = await api.app.inject({
        method: 'POST',
        url: `/serve/api/game/backend/${alpha}/scores`,
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify(body),
      });
      expect(bare.statusCode).toBe(401);
      expect(reason(bare)).toBe('signature_invalid/missing');
      // Signed right, but for a board beta does not have, or out of bounds, or a player who does not exist.
      expect((await signed('scores', body, { key: betaSecret, app: beta })).statusCode).toBe(404);
      expect((await signed('scores', { ...body, score: -5 })).json().error).toBe('score_out_of_bounds');
      expect((await signed('scores', { ...body, uid: 99_999_999 })).statusCode).toBe(404);
      expect((await signed('scores', { uid: 'x' })).statusCode).toBe(422);
      const rows = await api.services.database.db.selectFrom('leaderboard_scores').select('score').where('user_id', '=', player.uid).execute();
      expect(rows.map((r) => r.score)).toEqual([777]);
    });

    it('accepts the old secret beside the new one for the overlap after a new one is made (decision 110)', async () => {
      const old = secret;
      const made = await api.services.records.newBackendSecret(alpha);
      secret = made.secret;
      expect(secret).not.toBe(old);
      expect(new Date(made.previousExpiresAt!).getTime() - Date.now()).toBeGreaterThan(23.9 * 3600 * 1000);
      expect((await signed('scores', { uid: player.uid, board: 'verified', score: 2 }, { key: old })).statusCode).toBe(200);
      expect((await signed('scores', { uid: player.uid, board: 'verified', score: 3 })).statusCode).toBe(200);
      expect(reason(await signed('scores', { uid: player.uid, board: 'verified', score: 4 }, { key: `${old}x` }))).toBe('signature_invalid/mismatch');
    });

    it('works with the recipe of the guide (docs/examples/record-from-backend.ts) over real HTTP', async () => {
      const origin = await api.app.listen({ port: 0, host: '127.0.0.1' });
      const call = { score: { uid: player.uid, board: 'verified', score: 900 } };
      expect(await recordFromBackend(origin, alpha, secret, call)).toMatchObject({ periods: [{ period: 'all-time', best: 900, improved: true }] });
      expect(await recordFromBackend(origin, alpha, secret, { unlock: { uid: player.uid, achievement: 'audited' } })).toMatchObject({ newlyUnlocked: false });
      await expect(recordFromBackend(origin, alpha, `${secret}0`, call)).rejects.toThrow(/401 signature_invalid.*mismatch/);
    });
  });

  it('moves a guest’s scores and achievements into the account it signs in to: the better score per board and period, the earlier unlock', async () => {
    const { clock, service } = atTimes();
    const member = await newGuest();
    const guest = await newGuest();
    await service.submit(as(member), alpha, 'points', 800); // better than the guest's
    await service.submit(as(member), alpha, 'fastest', 9000); // worse (slower) than the guest's
    await service.unlock(as(member), alpha, 'tile-2048');
    clock.time = new Date(clock.time.getTime() - 3_600_000); // the guest's unlock is earlier
    await service.unlock(as(guest), alpha, 'tile-2048');
    await service.unlock(as(guest), alpha, 'first-win');
    await service.submit(as(guest), alpha, 'points', 600);
    await service.submit(as(guest), alpha, 'fastest', 3000);
    await service.submit(as(guest), beta, 'moves', 40); // a game the member never played

    expect(await api.services.guestMerge.mergeGuestInto(guest.userInfo.uid, member.userInfo.uid)).toMatchObject({
      merged: true,
    });
    const scores = await api.services.database.db
      .selectFrom('leaderboard_scores')
      .select(['app_id', 'board', 'period', 'score'])
      .where('user_id', '=', member.userInfo.uid)
      .orderBy('app_id')
      .orderBy('board')
      .orderBy('period')
      .execute();
    expect(scores.map((s) => `${s.board}/${s.period.split(':')[0]}=${s.score}`)).toEqual([
      'fastest/all-time=3000',
      'points/all-time=800',
      'points/daily=800',
      'points/weekly=800',
      'moves/all-time=40',
    ]);
    const unlocks = await api.services.database.db
      .selectFrom('achievement_unlocks')
      .select(['achievement', 'unlocked_at'])
      .where('user_id', '=', member.userInfo.uid)
      .orderBy('achievement')
      .execute();
    expect(unlocks).toEqual([
      { achievement: 'first-win', unlocked_at: '2026-11-26T09:00:00.000Z' },
      { achievement: 'tile-2048', unlocked_at: '2026-11-26T09:00:00.000Z' },
    ]);
    const left = await api.services.database.db.selectFrom('leaderboard_scores').select('user_id').where('user_id', '=', guest.userInfo.uid).execute();
    expect(left).toEqual([]);
  });
});
