import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SAVES_PER_APP_MAX_BYTES } from '#common/api/game-store.schema.ts';
import { SocialRepository } from '#server/features/social/social.repository.ts';
import { solvedChallenge } from '#server/testing/guest-challenge.ts';
import { openTestApi, type TestApi } from '#server/testing/test-api.ts';

/** A value nested `depth` levels deep: [[[…0…]]]. */
const nested = (depth: number) => `${'['.repeat(depth)}0${']'.repeat(depth)}`;

describe('cloud saves', () => {
  let api: TestApi;
  let appId: number;
  beforeAll(async () => {
    api = await openTestApi();
    appId = (await api.services.database.db.selectFrom('apps').select('id').where('slug', '=', 'alpha').executeTakeFirstOrThrow()).id;
  });
  afterAll(() => api?.close());

  let address = 0;
  async function newGuest() {
    address += 1;
    const response = await api.call('POST', '/guest/login/', { body: await solvedChallenge(api.app), address: `10.7.${address >> 8}.${address & 255}` });
    return response.json().data as { token: string; userInfo: { uid: number } };
  }

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
    expect(answers.every((a) => a.statusCode === 200 || a.statusCode === 413), answers.map((a) => a.statusCode).join()).toBe(true);
    const total = await api.services.database.db
      .selectFrom('game_saves')
      .select((eb) => eb.fn.sum<number>('size').as('total'))
      .where('user_id', '=', guest.userInfo.uid)
      .where('app_id', '=', appId)
      .executeTakeFirstOrThrow();
    expect(Number(total.total)).toBeLessThanOrEqual(SAVES_PER_APP_MAX_BYTES);
    expect(stored).toBe(Math.floor(SAVES_PER_APP_MAX_BYTES / (20 * 1024)));
    // A delete frees its room: one more fits after it.
    expect((await api.call('DELETE', `/game/saves/${appId}/slot0`, { token: guest.token })).statusCode).toBe(200);
    const keys = (await api.services.database.db.selectFrom('game_saves').select('key').where('user_id', '=', guest.userInfo.uid).execute()).map((r) => r.key);
    const missing = Array.from({ length: 20 }, (_, i) => `slot${i}`).find((k) => !keys.includes(k) && k !== 'slot0')!;
    expect((await put(guest.token, missing, value)).statusCode).toBe(200);
    const full = await put(guest.token, 'slot0', value);
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

    expect(await new SocialRepository(api.services.database.db).mergeGuestInto(guest.userInfo.uid, member.userInfo.uid, SAVES_PER_APP_MAX_BYTES)).toEqual({ droppedSaves: 3 });

    const rows = await api.services.database.db.selectFrom('game_saves').select(['key', 'value', 'size']).where('user_id', '=', member.userInfo.uid).where('app_id', '=', appId).orderBy('key').execute();
    const total = rows.reduce((sum, r) => sum + r.size, 0);
    expect(total).toBeLessThanOrEqual(SAVES_PER_APP_MAX_BYTES);
    expect(rows.map((r) => r.key)).toEqual(['m0', 'm1', 'm2', 'm3', 'shared', 'small']);
    expect(rows.find((r) => r.key === 'shared')!.value).toBe('"guest, newer"');
    // The quota row follows: the member can fill exactly what is left.
    const left = SAVES_PER_APP_MAX_BYTES - total;
    expect((await put(member.token, 'rest', JSON.stringify('r'.repeat(left - 2)))).statusCode).toBe(200);
    expect((await put(member.token, 'more', '1')).statusCode).toBe(413);
  });
});
