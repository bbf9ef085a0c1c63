import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '#server/testing/clocks.ts';
import { solvedChallenge } from '#server/testing/guest-challenge.ts';
import { type CallOptions, openTestApi, type TestApi } from '#server/testing/test-api.ts';

const DAY = 24 * 60 * 60 * 1000;
const CHROME_LINUX = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36';
const FIREFOX_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:143.0) Gecko/20100101 Firefox/143.0';
const SAFARI_IOS = 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.6 Mobile/15E148 Safari/604.1';

describe('where a member is signed in (decision 142)', () => {
  let api: TestApi;
  let clock: ManualClock;

  beforeAll(async () => {
    clock = new ManualClock();
    api = await openTestApi({ SESSION_MAX_AGE_DAYS: '30' }, { clock });
  });
  afterAll(() => api.close());

  const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, options: CallOptions = {}) => api.call(method, path, options);
  const tokenCount = async (userId: number) =>
    Number(
      (
        await api.services.database.db
          .selectFrom('access_tokens')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('user_id', '=', userId)
          .executeTakeFirstOrThrow()
      ).n,
    );

  /** A member signed in three times: on Chrome/Linux (registration), Firefox/Windows and Safari/iOS (password sign-ins). */
  async function memberOnThreeDevices(username: string) {
    const guest = await call('POST', '/guest/login/', { body: await solvedChallenge(api.app), headers: { 'user-agent': CHROME_LINUX } });
    const registered = await call('PATCH', '/member/password/', {
      token: guest.json().data.token,
      body: { username, password: 'correct horse battery' },
      headers: { 'user-agent': CHROME_LINUX },
    });
    expect(registered.statusCode, registered.body).toBe(200);
    const tokens = [registered.json().data.token as string];
    for (const agent of [FIREFOX_WINDOWS, SAFARI_IOS]) {
      clock.time += 60_000;
      const signIn = await call('POST', '/username/login/', { body: { username, password: 'correct horse battery' }, headers: { 'user-agent': agent } });
      expect(signIn.statusCode, signIn.body).toBe(200);
      tokens.push(signIn.json().data.token as string);
    }
    return { uid: guest.json().data.userInfo.uid as number, tokens };
  }

  it('lists each session with its sign-in method, browser, system, first and last use, and marks the calling one', async () => {
    const { tokens } = await memberOnThreeDevices('sessions_list');
    const response = await call('GET', '/session/list/', { token: tokens[1] });
    expect(response.statusCode, response.body).toBe(200);
    const items = response.json().data.items as {
      id: number;
      method: string;
      browser: string;
      system: string;
      current: boolean;
      createdAt: string;
      lastUsedAt: string;
      expiresAt: string;
    }[];
    expect(items.map(({ method, browser, system, current }) => ({ method, browser, system, current }))).toEqual([
      { method: 'password', browser: 'Safari', system: 'iOS', current: false },
      { method: 'password', browser: 'Firefox', system: 'Windows', current: true },
      { method: 'password', browser: 'Chrome', system: 'Linux', current: false },
    ]);
    expect(items.map((item) => item.id)).toEqual(tokens.map((token) => Number(token.split('|')[0])).toReversed());
    for (const item of items) {
      expect(Date.parse(item.lastUsedAt)).toBeGreaterThanOrEqual(Date.parse(item.createdAt));
      expect(Date.parse(item.expiresAt)).toBe(Date.parse(item.createdAt) + 30 * DAY);
    }
  });

  it('ends one session: its token answers 401 on the next call, the others keep working', async () => {
    const { tokens } = await memberOnThreeDevices('sessions_end_one');
    const target = Number(tokens[2]!.split('|')[0]);
    const ended = await call('DELETE', `/session/${target}`, { token: tokens[0] });
    expect(ended.statusCode, ended.body).toBe(200);
    expect(ended.json().data).toEqual({ ended: 1 });
    expect((await call('GET', '/session/list/', { token: tokens[2] })).statusCode).toBe(401);
    const left = (await call('GET', '/session/list/', { token: tokens[0] })).json().data.items as { id: number }[];
    expect(left.map((item) => item.id)).not.toContain(target);
    expect(left).toHaveLength(2);
    expect((await call('DELETE', `/session/${target}`, { token: tokens[0] })).statusCode).toBe(404);
  });

  it('ends every other session, keeping the calling one', async () => {
    const { uid, tokens } = await memberOnThreeDevices('sessions_end_others');
    const ended = await call('POST', '/session/end-others/', { token: tokens[1] });
    expect(ended.statusCode, ended.body).toBe(200);
    expect(ended.json().data).toEqual({ ended: 2 });
    expect((await call('POST', '/session/check', { token: tokens[0] })).json().data.valid).toBe(false);
    expect((await call('GET', '/session/list/', { token: tokens[2] })).statusCode).toBe(401);
    expect((await call('GET', '/session/list/', { token: tokens[1] })).json().data.items).toEqual([expect.objectContaining({ current: true })]);
    expect(await tokenCount(uid)).toBe(1);
  });

  it("refuses to end another member's session: 404, and nothing changes", async () => {
    const alice = await memberOnThreeDevices('sessions_alice');
    const bob = await memberOnThreeDevices('sessions_bob');
    const bobsSession = Number(bob.tokens[0]!.split('|')[0]);
    const refused = await call('DELETE', `/session/${bobsSession}`, { token: alice.tokens[0] });
    expect(refused.statusCode, refused.body).toBe(404);
    expect(await tokenCount(bob.uid)).toBe(3);
    expect((await call('POST', '/session/check', { token: bob.tokens[0] })).json().data.valid).toBe(true);
    const aliceList = (await call('GET', '/session/list/', { token: alice.tokens[0] })).json().data.items as { id: number }[];
    expect(aliceList.map((item) => item.id)).not.toContain(bobsSession);
    expect((await call('DELETE', '/session/abc', { token: alice.tokens[0] })).statusCode).toBe(422);
    expect((await call('GET', '/session/list/')).statusCode).toBe(401);
    expect((await call('POST', '/session/end-others/')).statusCode).toBe(401);
  });

  it('ends a session SESSION_MAX_AGE_DAYS after its sign-in however active it is (ASVS 7.3.2)', async () => {
    const signInAt = clock.time;
    const { tokens } = await memberOnThreeDevices('sessions_lifetime');
    const first = tokens[0]!;
    const firstId = Number(first.split('|')[0]);
    // Used every day: the idle limit never applies, the absolute one does.
    for (let day = 1; day < 30; day++) {
      clock.time = signInAt + day * DAY;
      expect((await call('POST', '/session/check', { token: first })).json().data.valid, `day ${day}`).toBe(true);
    }
    clock.time = signInAt + 30 * DAY - 1000;
    expect((await call('POST', '/session/check', { token: first })).json().data.valid).toBe(true);
    clock.time = signInAt + 30 * DAY;
    expect((await call('POST', '/session/check', { token: first })).json().data.valid).toBe(false);
    expect((await call('GET', '/session/list/', { token: first })).statusCode).toBe(401);
    const row = await api.services.database.db.selectFrom('access_tokens').select('id').where('id', '=', firstId).executeTakeFirst();
    expect(row).toBeUndefined();
  });
});
