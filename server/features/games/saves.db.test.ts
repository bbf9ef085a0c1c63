import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SAVE_VALUE_MAX_BYTES, SAVES_PER_APP_MAX_BYTES } from '#common/api/game-store.schema.ts';
import { appIdOf, fixtureGameIds, openTestApi, type TestApi } from '#server/testing/test-api.ts';
import { testPlayers } from '#server/testing/test-players.ts';

/** A value nested `depth` levels deep: [[[…0…]]]. */
const nested = (depth: number) => `${'['.repeat(depth)}0${']'.repeat(depth)}`;

/** Cloud saves through the game bridge's API (decision 064): per member, per game, within their sizes. */
describe('cloud saves', () => {
  let api: TestApi;
  let appId: number;
  let otherAppId: number;
  beforeAll(async () => {
    api = await openTestApi();
    ({ appId, otherAppId } = await fixtureGameIds(api.database));
  });
  afterAll(() => api?.close());

  const { newGuest, newMember } = testPlayers(() => api, 7);

  const save = (token: string, key: string, app = appId) => api.call('GET', `/game/saves/${app}/${key}`, { token });

  const put = (token: string, key: string, raw: string) =>
    api.app.inject({
      method: 'PUT',
      url: `/serve/api/game/saves/${appId}/${key}`,
      headers: { ...csrf, authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      payload: `{"value":${raw}}`,
    });
  let csrf: Record<string, string>;
  beforeAll(async () => {
    csrf = await api.csrfHeaders();
  });

  it('refuses a value nested deeper than the cap with a 422, never a 500, and keeps one at the cap', async () => {
    const guest = await newGuest();
    for (const depth of [65, 5_000, 100_000]) {
      const response = await put(guest.token, 'deep', nested(depth));
      expect(response.statusCode, `${depth}: ${response.body.slice(0, 200)}`).toBe(422);
      expect(JSON.stringify(response.json().data.errors)).toContain('nested too deeply (at most 64 levels)');
    }
    const atCap = await put(guest.token, 'deep', nested(63));
    expect(atCap.statusCode, atCap.body.slice(0, 200)).toBe(200);
    expect((await api.call('GET', `/game/saves/${appId}/deep`, { token: guest.token })).json().data.value).toEqual(JSON.parse(nested(63)));
  });

  it('never lets saves of different keys sent at once pass the per-game quota together', async () => {
    const guest = await newGuest();
    // 20 values of 20 KB: 12 fit in 256 KB, the 20 together do not.
    const value = JSON.stringify('z'.repeat(20 * 1024 - 2));
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => put(guest.token, `slot${i}`, value)));
    const stored = answers.filter((a) => a.statusCode === 200).length;
    expect(
      answers.every((a) => a.statusCode === 200 || a.statusCode === 413),
      answers.map((a) => a.statusCode).join(),
    ).toBe(true);
    const total = await api.services.database.db
      .selectFrom('game_saves')
      .select((eb) => eb.fn.sum<number>('size').as('total'))
      .where('user_id', '=', guest.userInfo.uid)
      .where('app_id', '=', appId)
      .executeTakeFirstOrThrow();
    expect(Number(total.total)).toBeLessThanOrEqual(SAVES_PER_APP_MAX_BYTES);
    expect(stored).toBe(Math.floor(SAVES_PER_APP_MAX_BYTES / (20 * 1024)));
    // A delete of a stored key frees its room: one more fits after it. (Which keys were stored is the race's.)
    const storedKeys = async () =>
      (
        await api.services.database.db.selectFrom('game_saves').select('key').where('user_id', '=', guest.userInfo.uid).where('app_id', '=', appId).execute()
      ).map((r) => r.key);
    const freed = (await storedKeys())[0]!;
    expect((await api.call('DELETE', `/game/saves/${appId}/${freed}`, { token: guest.token })).statusCode).toBe(200);
    const keys = await storedKeys();
    const missing = Array.from({ length: 20 }, (_, i) => `slot${i}`).find((k) => !keys.includes(k) && k !== freed)!;
    expect((await put(guest.token, missing, value)).statusCode).toBe(200);
    const full = await put(guest.token, freed, value);
    expect(full.statusCode).toBe(413);
    expect(full.json()).toMatchObject({ code: 413, error: 'saves_full' });
  });

  it('keeps a member within the quota when a guest’s saves are merged in: the newer value of a key wins, what does not fit stays out', async () => {
    const member = await newGuest();
    const guest = await newGuest();
    const big = JSON.stringify('m'.repeat(60 * 1024));
    for (let i = 0; i < 4; i++) expect((await put(member.token, `m${i}`, big)).statusCode).toBe(200);
    expect((await put(member.token, 'shared', '"member"')).statusCode).toBe(200);
    for (let i = 0; i < 3; i++) expect((await put(guest.token, `g${i}`, big)).statusCode).toBe(200);
    expect((await put(guest.token, 'small', '"fits"')).statusCode).toBe(200);
    expect((await put(guest.token, 'shared', '"guest, newer"')).statusCode).toBe(200);

    expect(await api.services.guestMerge.mergeGuestInto(guest.userInfo.uid, member.userInfo.uid)).toEqual({
      merged: true,
      droppedSaves: 3,
    });

    const rows = await api.services.database.db
      .selectFrom('game_saves')
      .select(['key', 'value', 'size'])
      .where('user_id', '=', member.userInfo.uid)
      .where('app_id', '=', appId)
      .orderBy('key')
      .execute();
    const total = rows.reduce((sum, r) => sum + r.size, 0);
    expect(total).toBeLessThanOrEqual(SAVES_PER_APP_MAX_BYTES);
    expect(rows.map((r) => r.key)).toEqual(['m0', 'm1', 'm2', 'm3', 'shared', 'small']);
    expect(rows.find((r) => r.key === 'shared')!.value).toBe('"guest, newer"');
    // The quota row follows: the member can fill exactly what is left.
    const left = SAVES_PER_APP_MAX_BYTES - total;
    expect((await put(member.token, 'rest', JSON.stringify('r'.repeat(left - 2)))).statusCode).toBe(200);
    expect((await put(member.token, 'more', '1')).statusCode).toBe(413);
  });
  it('keeps cloud saves per member and app, within their limits', async () => {
    const member = await newMember();
    const stored = await api.call('PUT', `/game/saves/${appId}/progress`, { token: member.token, body: { value: { best: 2048, board: [2, 4, 8] } } });
    expect(stored.statusCode, stored.body).toBe(200);
    const got = await api.call('GET', `/game/saves/${appId}/progress`, { token: member.token });
    expect(got.json().data).toMatchObject({ key: 'progress', value: { best: 2048, board: [2, 4, 8] } });
    const other = await newMember();
    expect((await api.call('GET', `/game/saves/${appId}/progress`, { token: other.token })).json().data.value).toBeNull();
    const big = await api.call('PUT', `/game/saves/${appId}/big`, { token: member.token, body: { value: 'x'.repeat(70 * 1024) } });
    expect(big.statusCode).toBe(413);
    expect(big.json().message).toBe('This save is 71 KB; a value may be at most 64 KB.');
    for (let i = 0; i < 4; i++)
      expect((await api.call('PUT', `/game/saves/${appId}/slot${i}`, { token: member.token, body: { value: 'y'.repeat(60 * 1024) } })).statusCode).toBe(200);
    const full = await api.call('PUT', `/game/saves/${appId}/slot4`, { token: member.token, body: { value: 'y'.repeat(60 * 1024) } });
    expect(full.statusCode).toBe(413);
    expect(full.json().message).toBe('This game’s saves are full (256 KB). Remove something first.');
    expect((await api.call('PUT', `/game/saves/${appId}/bad%21key`, { token: member.token, body: { value: 1 } })).statusCode).toBe(422);
  });

  it('measures a value as JSON text in bytes: 64 KB is kept, one byte more is refused and named in the visitor’s language', async () => {
    const guest = await newGuest();
    // A string's JSON text is its characters and two quotes.
    const atLimit = JSON.stringify('a'.repeat(SAVE_VALUE_MAX_BYTES - 2));
    expect((await put(guest.token, 'edge', atLimit)).statusCode).toBe(200);
    expect((await save(guest.token, 'edge')).json().data.value).toHaveLength(SAVE_VALUE_MAX_BYTES - 2);
    const over = await put(guest.token, 'edge', JSON.stringify('a'.repeat(SAVE_VALUE_MAX_BYTES - 1)));
    expect(over.statusCode).toBe(413);
    expect(over.json().message).toBe('This save is 65 KB; a value may be at most 64 KB.');
    // The refused value left the stored one as it was.
    expect((await save(guest.token, 'edge')).json().data.value).toHaveLength(SAVE_VALUE_MAX_BYTES - 2);
    // Three bytes a character in UTF-8: a third as many characters already fill the limit.
    const wide = await put(guest.token, 'wide', JSON.stringify('金'.repeat(Math.ceil((SAVE_VALUE_MAX_BYTES - 1) / 3))));
    expect(wide.statusCode).toBe(413);
    const zh = await api.call('PUT', `/game/saves/${appId}/big`, { token: guest.token, body: { value: 'x'.repeat(70 * 1024) }, headers: { locale: 'zh-CN' } });
    expect(zh.statusCode).toBe(413);
    expect(zh.json().message).toBe('此存档为 71 KB，单个值最多 64 KB。');
  });

  it('refuses a save without a value, and keys that are not 1–64 letters, digits, _ . or -, saying which field', async () => {
    const guest = await newGuest();
    const missing = await api.call('PUT', `/game/saves/${appId}/progress`, { token: guest.token, body: {} });
    expect(missing.statusCode).toBe(422);
    expect(missing.json().data.errors).toEqual({ value: ['This field is required.'] });
    for (const key of ['bad%21key', 'k'.repeat(65), 'sp%20ace']) {
      const refused = await api.call('PUT', `/game/saves/${appId}/${key}`, { token: guest.token, body: { value: 1 } });
      expect(refused.statusCode, key).toBe(422);
      expect(Object.keys(refused.json().data.errors), key).toEqual(['key']);
    }
    for (const key of ['k'.repeat(64), 'a', 'level-2.best_time'])
      expect((await api.call('PUT', `/game/saves/${appId}/${key}`, { token: guest.token, body: { value: null } })).statusCode, key).toBe(200);
    expect(await api.services.database.db.selectFrom('game_saves').select('key').where('user_id', '=', guest.userInfo.uid).orderBy('key').execute()).toEqual([
      { key: 'a' },
      { key: 'k'.repeat(64) },
      { key: 'level-2.best_time' },
    ]);
  });

  it('keeps each game’s saves to that game: another game neither reads, overwrites, removes nor counts them', async () => {
    const guest = await newGuest();
    expect((await put(guest.token, 'progress', '{"level":7}')).statusCode).toBe(200);
    expect((await save(guest.token, 'progress', otherAppId)).json().data).toEqual({ key: 'progress', value: null, updatedAt: null });
    const other = await api.call('PUT', `/game/saves/${otherAppId}/progress`, { token: guest.token, body: { value: { level: 1 } } });
    expect(other.statusCode).toBe(200);
    expect((await save(guest.token, 'progress')).json().data.value).toEqual({ level: 7 });
    expect((await api.call('DELETE', `/game/saves/${otherAppId}/progress`, { token: guest.token })).statusCode).toBe(200);
    expect((await save(guest.token, 'progress')).json().data.value).toEqual({ level: 7 });
    expect((await save(guest.token, 'progress', otherAppId)).json().data.value).toBeNull();
    // One game's full saves leave another's room untouched.
    const big = JSON.stringify('f'.repeat(60 * 1024));
    for (let i = 0; i < 4; i++) expect((await put(guest.token, `full${i}`, big)).statusCode).toBe(200);
    expect((await put(guest.token, 'full4', big)).statusCode).toBe(413);
    expect((await api.call('PUT', `/game/saves/${otherAppId}/full4`, { token: guest.token, body: { value: 'f'.repeat(60 * 1024) } })).statusCode).toBe(200);
  });

  it('answers 404 for a game that does not exist or is not published, and stores nothing for it', async () => {
    const guest = await newGuest();
    const db = api.services.database.db;
    const gammaId = await appIdOf(api.database, 'gamma');
    await db.updateTable('apps').set({ published: 0 }).where('id', '=', gammaId).execute();
    try {
      for (const app of [999_999, gammaId]) {
        expect((await save(guest.token, 'progress', app)).statusCode, String(app)).toBe(404);
        expect((await api.call('PUT', `/game/saves/${app}/progress`, { token: guest.token, body: { value: 1 } })).statusCode, String(app)).toBe(404);
        expect((await api.call('DELETE', `/game/saves/${app}/progress`, { token: guest.token })).statusCode, String(app)).toBe(404);
      }
    } finally {
      await db.updateTable('apps').set({ published: 1 }).where('id', '=', gammaId).execute();
    }
    expect(await db.selectFrom('game_saves').select('key').where('user_id', '=', guest.userInfo.uid).execute()).toEqual([]);
    for (const app of ['0', '-1', 'abc']) expect((await save(guest.token, 'progress', app as unknown as number)).statusCode, app).toBe(422);
  });

  it('keeps each player’s saves to that player: another account neither reads, overwrites nor removes them', async () => {
    const owner = await newMember();
    const other = await newGuest();
    expect((await put(owner.token, 'progress', '{"best":4096}')).statusCode).toBe(200);
    expect((await save(other.token, 'progress')).json().data).toEqual({ key: 'progress', value: null, updatedAt: null });
    expect((await put(other.token, 'progress', '{"best":1}')).statusCode).toBe(200);
    expect((await api.call('DELETE', `/game/saves/${appId}/progress`, { token: other.token })).statusCode).toBe(200);
    expect((await save(owner.token, 'progress')).json().data.value).toEqual({ best: 4096 });
    // Without a session, or with a game token instead of one, there are no saves at all.
    expect((await api.call('GET', `/game/saves/${appId}/progress`)).statusCode).toBe(401);
    expect((await api.call('PUT', `/game/saves/${appId}/progress`, { body: { value: 0 } })).statusCode).toBe(401);
    const gameToken = (await api.call('POST', `/game/login/${appId}`, { token: owner.token })).json().data.token as string;
    expect((await save(gameToken, 'progress')).statusCode).toBe(401);
    expect((await api.call('DELETE', `/game/saves/${appId}/progress`, { token: gameToken })).statusCode).toBe(401);
    expect((await save(owner.token, 'progress')).json().data.value).toEqual({ best: 4096 });
  });
});
