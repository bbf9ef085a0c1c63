import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MonotonicClock } from '#server/testing/clocks.ts';
import { type CallOptions, openTestApi, type TestApi } from '#server/testing/test-api.ts';
import { ACCOUNT_LIMITS } from './accounts.service.ts';
import { clientSubject } from '#server/lib/network.ts';
import { solvedChallenge } from '#server/testing/guest-challenge.ts';
import { expectGuestMerged, giveAccountHoldings, giveGuestHoldings } from '#server/testing/guest-merge.ts';

const API = '/serve/api';

/** A device as the browser sends it: its fingerprint and the device id it keeps (here one of its own per fingerprint). */
function deviceBody(fingerprint: string, deviceId = `id-${fingerprint}`) {
  return { fingerprint, deviceId };
}

describe('accounts API', () => {
  let api: TestApi;

  beforeAll(async () => {
    // Every write is at least a millisecond after the last: "who was first" needs no sleep.
    api = await openTestApi({}, { clock: new MonotonicClock() });
  });
  afterAll(() => api.close());

  const db = () => api.services.database.db;
  /** A passkey row as the WebAuthn ceremony stores it; these tests need one to exist, not to sign. */
  const insertPasskeyRow = (userId: number, credentialId: string, createdAt: string) =>
    db()
      .insertInto('webauthn_credentials')
      .values({
        user_id: userId,
        credential_id: credentialId,
        public_key: 'pk',
        counter: 0,
        transports: null,
        device_type: null,
        backed_up: 0,
        name: null,
        created_at: createdAt,
        last_used_at: null,
      })
      .execute();
  const count = async (table: 'users' | 'access_tokens') =>
    Number(
      (
        await db()
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  const call = (method: 'GET' | 'POST' | 'PATCH' | 'PUT', path: string, options: CallOptions = {}) => api.call(method, path, options);

  /** Where the test's guests are made: device sign-in works only from the same network. */
  const HOME = '192.0.2.50';

  async function newGuest(fingerprint?: string) {
    const response = await call('POST', '/guest/login/', {
      body: { ...(await solvedChallenge(api.app)), ...(fingerprint ? deviceBody(fingerprint) : {}) },
      address: HOME,
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json().data as { token: string; userInfo: { uid: number; nickname: string }; created: boolean };
  }

  async function newMember(username: string, password: string) {
    const guest = await newGuest();
    const response = await call('PATCH', '/member/password/', { token: guest.token, body: { username, password } });
    expect(response.statusCode, response.body).toBe(200);
    return { ...guest, token: response.json().data.token as string };
  }

  describe('anonymous sign-in', () => {
    it('creates exactly one guest account and one token, and returns the token and user info', async () => {
      const [users, tokens] = [await count('users'), await count('access_tokens')];
      const response = await call('POST', '/guest/login/', { body: await solvedChallenge(api.app) });
      expect(response.statusCode).toBe(201);
      const { data } = response.json();
      expect(data.token).toMatch(/^\d+\|[A-Za-z0-9]{48}$/);
      expect(data.token.length).toBeGreaterThan(49);
      expect(data.created).toBe(true);
      expect(data.userInfo).toEqual({
        uid: expect.any(Number),
        nickname: expect.stringMatching(/^[A-Za-z]+\d{4}$/),
        avatar: null,
        social_providers: [],
        webauthn: false,
        isGuest: true,
      });
      expect(await count('users')).toBe(users + 1);
      expect(await count('access_tokens')).toBe(tokens + 1);
      const row = await db().selectFrom('users').selectAll().where('id', '=', data.userInfo.uid).executeTakeFirstOrThrow();
      expect(row.is_guest).toBe(1);
      const tokenRow = await db().selectFrom('access_tokens').selectAll().where('user_id', '=', data.userInfo.uid).executeTakeFirstOrThrow();
      expect(tokenRow.token_hash).toMatch(/^[0-9a-f]{64}$/);
      expect(JSON.stringify(tokenRow)).not.toContain(data.token.split('|')[1]);
    });

    it('names the guest in the language of the page that asked (its Locale header)', async () => {
      const zh = await call('POST', '/guest/login/', { body: await solvedChallenge(api.app), headers: { locale: 'zh-CN' } });
      expect(zh.json().data.userInfo.nickname).toMatch(/^\p{Script=Han}{3,5}\d{4}$/u);
      const en = await call('POST', '/guest/login/', { body: await solvedChallenge(api.app), headers: { locale: 'en' } });
      expect(en.json().data.userInfo.nickname).toMatch(/^[A-Z][a-z]+[A-Z][a-z]+\d{4}$/);
    });

    it('keeps the session of a caller that already has a valid token', async () => {
      const guest = await newGuest();
      const [users, tokens] = [await count('users'), await count('access_tokens')];
      const again = await call('POST', '/guest/login/', { token: guest.token, body: {} });
      expect(again.json().data).toMatchObject({ token: guest.token, created: false, userInfo: { uid: guest.userInfo.uid } });
      expect([await count('users'), await count('access_tokens')]).toEqual([users, tokens]);
    });

    it('stores only a keyed hash of the fingerprint', async () => {
      const fingerprint = 'a1b2c3d4e5f60718293a4b5c6d7e8f90';
      const guest = await newGuest(fingerprint);
      const row = await db().selectFrom('users').select('fingerprint_hash').where('id', '=', guest.userInfo.uid).executeTakeFirstOrThrow();
      expect(row.fingerprint_hash).toMatch(/^[0-9a-f]{64}$/);
      expect(row.fingerprint_hash).toBe(api.services.accounts.fingerprintHash(fingerprint));
      expect(row.fingerprint_hash).not.toContain(fingerprint);
    });

    it('needs the XSRF token', async () => {
      const response = await api.app.inject({ method: 'POST', url: `${API}/guest/login/`, payload: {} });
      expect(response.statusCode).toBe(419);
    });

    it('200 first visits from one address all get an account: the proof of work is the cost, not the address', async () => {
      // The address ceiling counts per hour (ACCOUNT_LIMITS.guestAddress), so however long a busy
      // machine takes to solve 200 challenges, they all fall in one window: no clock is asserted.
      const address = '198.51.100.7';
      const users = await count('users');
      for (let i = 0; i < 200; i++) {
        const response = await call('POST', '/guest/login/', { body: await solvedChallenge(api.app), address });
        expect(response.statusCode, `visit ${i + 1}: ${response.body}`).toBe(201);
      }
      expect(await count('users')).toBe(users + 200);
    }, 180_000);

    it("holds back a script that skips the browser's part: no solution, a wrong one, a forged or a replayed challenge", async () => {
      const users = await count('users');
      const { challenge, nonce } = await solvedChallenge(api.app);
      const [version, expires, difficulty, random, mac] = challenge.split('.');
      const attempts: Array<[string, Record<string, unknown>]> = [
        ['no challenge', {}],
        ['a challenge without a nonce', { challenge }],
        ['a wrong nonce', { challenge, nonce: `${nonce}x` }],
        ['a lower difficulty', { challenge: [version, expires, '1', random, mac].join('.'), nonce: '0' }],
        ['a later expiry', { challenge: [version, String(Number(expires) + 3_600_000), difficulty, random, mac].join('.'), nonce }],
        ['a signature of its own', { challenge: [version, expires, difficulty, random, 'A'.repeat(43)].join('.'), nonce }],
      ];
      for (const [name, body] of attempts) {
        const response = await call('POST', '/guest/login/', { body, address: '198.51.100.20' });
        expect(response.statusCode, name).toBe(403);
        expect(response.json().message, name).toBe('Please let the page finish loading, then try again.');
      }
      expect((await call('POST', '/guest/login/', { body: { challenge, nonce }, address: '198.51.100.20' })).statusCode).toBe(201);
      // A solution works once, on any instance sharing the store.
      expect((await call('POST', '/guest/login/', { body: { challenge, nonce }, address: '198.51.100.21' })).statusCode).toBe(403);
      expect(await count('users')).toBe(users + 1);
    }, 60000);

    it('keeps a high ceiling per IPv4 address and per IPv6 /64, with 429 and Retry-After', async () => {
      // The subscriber's earlier accounts this hour, counted directly rather than made one by one.
      await Promise.all(
        Array.from({ length: ACCOUNT_LIMITS.guestAddress.limit }, () =>
          api.services.rateLimiter.consume(ACCOUNT_LIMITS.guestAddress, clientSubject('2001:db8:5:5::1')),
        ),
      );
      const users = await count('users');
      const limited = await call('POST', '/guest/login/', { body: await solvedChallenge(api.app), address: '2001:db8:5:5:abcd::99' });
      expect(limited.statusCode).toBe(429);
      const seconds = Number(limited.headers['retry-after']);
      expect(seconds).toBeGreaterThan(0);
      expect(seconds).toBeLessThanOrEqual(3600);
      expect(limited.json()).toMatchObject({ code: 429, message: `Too many attempts. Please try again in ${seconds} seconds.`, data: { retryAfter: seconds } });
      expect(await count('users')).toBe(users);
      // The next /64 is another subscriber.
      expect((await call('POST', '/guest/login/', { body: await solvedChallenge(api.app), address: '2001:db8:5:6::1' })).statusCode).toBe(201);
    }, 60000);
  });

  describe('unused guest clean-up', () => {
    it('deletes guests unused for 30 days with nothing of their own, and keeps every other account', async () => {
      const old = new Date(Date.now() - 40 * 24 * 60 * 60 * 1000).toISOString();
      const age = async (uid: number, options: { tokenUsed?: string } = {}) => {
        await db().updateTable('users').set({ created_at: old, last_seen_at: old }).where('id', '=', uid).execute();
        await db()
          .updateTable('access_tokens')
          .set({ last_used_at: options.tokenUsed ?? old, created_at: old })
          .where('user_id', '=', uid)
          .execute();
      };
      const forgotten = await newGuest();
      await age(forgotten.userInfo.uid);
      const player = await newGuest();
      const [app] = await db().selectFrom('apps').select('id').limit(1).execute();
      await db()
        .insertInto('played_games')
        .values({ user_id: player.userInfo.uid, app_id: app!.id, play_count: 1, first_played_at: old, last_played_at: old })
        .execute();
      await age(player.userInfo.uid);
      const withEmail = await newGuest();
      await db().updateTable('users').set({ email: 'kept@example.com' }).where('id', '=', withEmail.userInfo.uid).execute();
      await age(withEmail.userInfo.uid);
      const stillUsed = await newGuest();
      await age(stillUsed.userInfo.uid, { tokenUsed: new Date().toISOString() });
      const member = await newMember('cleanup_1', 'correct horse');
      await age(member.userInfo.uid);
      const recent = await newGuest();

      expect(await api.services.accounts.removeUnusedGuests()).toBeGreaterThanOrEqual(1);
      const left = new Set((await db().selectFrom('users').select('id').execute()).map((row) => row.id));
      expect(left.has(forgotten.userInfo.uid)).toBe(false);
      for (const kept of [player, withEmail, stillUsed, member, recent]) expect(left.has(kept.userInfo.uid), String(kept.userInfo.uid)).toBe(true);
      // Its token went with it.
      expect((await call('GET', '/member/info/', { token: forgotten.token })).statusCode).toBe(401);
      expect(await api.services.accounts.removeUnusedGuests()).toBe(0);
    });
  });

  describe('user info', () => {
    it('answers 401 "Token is missing or invalid" without a valid token', async () => {
      for (const token of [undefined, 'nonsense', '1|AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA']) {
        const response = await call('GET', '/member/info/', { token });
        expect(response.statusCode).toBe(401);
        expect(response.json()).toEqual({ code: 401, error: 'unauthenticated', message: 'Token is missing or invalid.', data: null });
      }
    });

    it('returns the token and the user info with a valid token', async () => {
      const guest = await newGuest();
      const response = await call('GET', '/member/info/', { token: guest.token });
      expect(response.statusCode).toBe(200);
      expect(response.json().data).toEqual({ token: guest.token, userInfo: guest.userInfo });
    });

    it('lists bound social platforms and tells whether a passkey exists', async () => {
      const guest = await newGuest();
      const now = new Date().toISOString();
      await db()
        .insertInto('social_accounts')
        .values({
          user_id: guest.userInfo.uid,
          platform: 'google',
          provider_user_id: `g-${guest.userInfo.uid}`,
          display_name: null,
          email: null,
          created_at: now,
        })
        .execute();
      await insertPasskeyRow(guest.userInfo.uid, `cred-${guest.userInfo.uid}`, now);
      const { userInfo } = (await call('GET', '/member/info/', { token: guest.token })).json().data;
      expect(userInfo).toMatchObject({ social_providers: ['google'], webauthn: true });
    });

    it('resolves the token cookie for page loaders, URL-encoded or not', async () => {
      const guest = await newGuest();
      const accounts = api.services.accounts;
      expect(await accounts.userInfoForToken(guest.token)).toEqual({ token: guest.token, userInfo: guest.userInfo });
      expect(await accounts.userInfoForToken(encodeURIComponent(guest.token))).toEqual({ token: guest.token, userInfo: guest.userInfo });
      expect(await accounts.userInfoForToken(undefined)).toBeNull();
      expect(await accounts.userInfoForToken('')).toBeNull();
      expect(await accounts.userInfoForToken('%E0%A4%A')).toBeNull();
      expect(await accounts.userInfoForToken(guest.token.replace(/.$/, (c) => (c === 'x' ? 'y' : 'x')))).toBeNull();
    });
  });

  describe('empty guests', () => {
    it('tells a guest holding nothing from one with plays, favourites, a save or an email, and from a member; 401 without a token', async () => {
      const empty = (token: string) => call('GET', '/guest/empty/', { token }).then((r) => r.json().data.empty as boolean);
      const now = new Date().toISOString();
      const [app] = await db().selectFrom('apps').select('id').limit(1).execute();
      const fresh = await newGuest();
      expect(await empty(fresh.token)).toBe(true);
      const player = await newGuest();
      await db()
        .insertInto('played_games')
        .values({ user_id: player.userInfo.uid, app_id: app!.id, play_count: 1, first_played_at: now, last_played_at: now })
        .execute();
      const fan = await newGuest();
      expect((await call('PUT', `/member/favourite/${app!.id}`, { token: fan.token })).statusCode).toBeLessThan(300);
      const saver = await newGuest();
      expect((await call('PUT', `/game/saves/${app!.id}/progress`, { token: saver.token, body: { value: { level: 2 } } })).statusCode).toBeLessThan(300);
      const withEmail = await newGuest();
      expect((await call('PATCH', '/member/email/', { token: withEmail.token, body: { email: 'guest@example.com' } })).statusCode).toBe(200);
      const member = await newMember('empty_check_1', 'correct horse battery');
      for (const holder of [player, fan, saver, withEmail, member]) expect(await empty(holder.token), String(holder.userInfo.uid)).toBe(false);
      expect((await call('GET', '/guest/empty/')).statusCode).toBe(401);
    });
  });

  describe('username sign-in', () => {
    it('refuses a wrong password, then accepts the right one (username in any case)', async () => {
      const member = await newMember('Alice_1', 'correct horse');
      const wrong = await call('POST', '/username/login/', { body: { username: 'Alice_1', password: 'wrong horse' } });
      expect(wrong.statusCode).toBe(401);
      expect(wrong.json()).toEqual({ code: 401, error: 'credentials_invalid', message: 'The username or password is incorrect.', data: null });
      const right = await call('POST', '/username/login/', { body: { username: 'alice_1', password: 'correct horse' } });
      expect(right.statusCode).toBe(200);
      const { data } = right.json();
      expect(data.userInfo.uid).toBe(member.userInfo.uid);
      expect(data.token).not.toBe(member.token);
      // Each device has its own token: both work.
      for (const token of [data.token, member.token]) expect((await call('GET', '/member/info/', { token })).statusCode).toBe(200);
    });

    it('gives the same answer for an unknown user and a wrong password, in either language', async () => {
      await newMember('bob_2', 'correct horse');
      for (const headers of [{}, { locale: 'zh-CN' }] as Array<Record<string, string>>) {
        const unknown = await call('POST', '/username/login/', { body: { username: 'nobody_here', password: 'correct horse' }, headers });
        const wrong = await call('POST', '/username/login/', { body: { username: 'bob_2', password: 'not the one' }, headers });
        const malformed = await call('POST', '/username/login/', { body: { username: 'x!', password: 'not the one' }, headers });
        expect(unknown.statusCode).toBe(401);
        expect(unknown.body).toBe(wrong.body);
        expect(malformed.body).toBe(wrong.body);
      }
      const zh = await call('POST', '/username/login/', { body: { username: 'nobody_here', password: 'x' }, headers: { locale: 'zh-CN' } });
      expect(zh.json().message).toBe('用户名或密码不正确。');
    });

    it('stores an argon2id hash, never the password', async () => {
      const member = await newMember('carol_3', 'a long secret phrase');
      const row = await db().selectFrom('users').selectAll().where('id', '=', member.userInfo.uid).executeTakeFirstOrThrow();
      expect(row.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
      expect(JSON.stringify(row)).not.toContain('a long secret phrase');
      expect(row).toMatchObject({ username: 'carol_3', username_normalized: 'carol_3', is_guest: 0 });
    });

    it('rejects a request without the fields with 422', async () => {
      const response = await call('POST', '/username/login/', { body: {} });
      expect(response.statusCode).toBe(422);
      expect(Object.keys(response.json().data.errors).sort()).toEqual(['password', 'username']);
    });
  });

  describe('guest to member', () => {
    it('keeps the same account and its played history', async () => {
      const guest = await newGuest();
      const uid = guest.userInfo.uid;
      const apps = await db().selectFrom('apps').select('id').orderBy('id').limit(2).execute();
      expect(apps).toHaveLength(2);
      const now = new Date().toISOString();
      await db()
        .insertInto('played_games')
        .values(apps.map((a) => ({ user_id: uid, app_id: a.id, play_count: 3, first_played_at: now, last_played_at: now })))
        .execute();

      const response = await call('PATCH', '/member/password/', { token: guest.token, body: { username: 'Dave_4', password: 'correct horse' } });
      expect(response.statusCode).toBe(200);
      const { data } = response.json();
      expect(data.userInfo).toMatchObject({ uid, isGuest: false });
      expect(data.profile).toMatchObject({ uid, username: 'Dave_4', hasPassword: true, isGuest: false, nickname: guest.userInfo.nickname });

      const played = await db().selectFrom('played_games').selectAll().where('user_id', '=', uid).orderBy('app_id').execute();
      expect(played.map((p) => [p.app_id, p.play_count])).toEqual(apps.map((a) => [a.id, 3]));
      expect((await db().selectFrom('users').select('is_guest').where('id', '=', uid).executeTakeFirstOrThrow()).is_guest).toBe(0);
      // The session was rotated: the answer's token is the member's session, the guest's is dead.
      expect((await call('GET', '/member/info/', { token: data.token })).json().data.userInfo).toMatchObject({ uid, isGuest: false });
      expect((await call('GET', '/member/info/', { token: guest.token })).statusCode).toBe(401);
      const signIn = await call('POST', '/username/login/', { body: { username: 'dave_4', password: 'correct horse' } });
      expect(signIn.json().data.userInfo.uid).toBe(uid);
    });

    it('refuses a username taken in any case, a missing username and bad values, changing nothing', async () => {
      await newMember('Erin_5', 'correct horse');
      const guest = await newGuest();
      const cases: Array<[Record<string, unknown>, string, string]> = [
        [{ username: 'erin_5', password: 'correct horse' }, 'This username is already taken.', 'username_taken'],
        [{ password: 'correct horse' }, 'Choose a username.', 'validation'],
        [{ username: 'ab', password: 'correct horse' }, 'Use 3 to 20 characters.', 'validation'],
        [{ username: 'has space', password: 'correct horse' }, 'Use only letters a–z, digits and underscores.', 'validation'],
        [{ username: 'frank_6', password: 'short' }, 'Use 8 to 128 characters.', 'validation'],
      ];
      for (const [body, message, error] of cases) {
        const response = await call('PATCH', '/member/password/', { token: guest.token, body });
        expect(response.statusCode, JSON.stringify(body)).toBe(422);
        expect(response.json().error, JSON.stringify(body)).toBe(error);
        expect(Object.values(response.json().data.errors).flat(), JSON.stringify(body)).toContain(message);
      }
      const row = await db().selectFrom('users').selectAll().where('id', '=', guest.userInfo.uid).executeTakeFirstOrThrow();
      expect(row).toMatchObject({ username: null, password_hash: null, is_guest: 1 });
    });

    it('refuses common, leaked and guessable passwords with the reason in both languages, changing nothing', async () => {
      const guest = await newGuest();
      const cases: Array<[string, string, string]> = [
        [
          'password1',
          'This password is on the lists of common and leaked passwords that attackers try first. Choose another.',
          '此密码在攻击者会优先尝试的常见或泄露密码列表中，请换一个。',
        ],
        [
          'iloveyou123',
          'This password is on the lists of common and leaked passwords that attackers try first. Choose another.',
          '此密码在攻击者会优先尝试的常见或泄露密码列表中，请换一个。',
        ],
        ['weak_user_1!', "Don't build your password from your username, nickname or the site's name.", '请不要用你的用户名、昵称或网站名称来组成密码。'],
        ['playport2026', "Don't build your password from your username, nickname or the site's name.", '请不要用你的用户名、昵称或网站名称来组成密码。'],
      ];
      for (const [password, en, zh] of cases) {
        const english = await call('PATCH', '/member/password/', { token: guest.token, body: { username: 'weak_user_1', password } });
        expect(english.statusCode, password).toBe(422);
        expect(english.json().data.errors, password).toEqual({ password: [en] });
        const chinese = await call('PATCH', '/member/password/', {
          token: guest.token,
          body: { username: 'weak_user_1', password },
          headers: { locale: 'zh-CN' },
        });
        expect(chinese.json().data.errors, password).toEqual({ password: [zh] });
      }
      const row = await db().selectFrom('users').selectAll().where('id', '=', guest.userInfo.uid).executeTakeFirstOrThrow();
      expect(row).toMatchObject({ username: null, password_hash: null, is_guest: 1 });
      // Any characters are allowed, and a long passphrase passes.
      const ok = await call('PATCH', '/member/password/', { token: guest.token, body: { username: 'weak_user_1', password: '长颈鹿 moon 橙子 river' } });
      expect(ok.statusCode).toBe(200);
    });

    it('rotates the session when a guest becomes a member: every earlier token dies, a planted one included', async () => {
      const guest = await newGuest();
      // The same guest signed in twice more: a token planted by a link, and another device.
      const planted = guest.token;
      const other = (await call('POST', '/guest/login/', { body: {}, token: guest.token })).json().data.token as string;
      expect(other).toBe(guest.token);
      const tokenRows = await db().selectFrom('access_tokens').select('id').where('user_id', '=', guest.userInfo.uid).execute();
      expect(tokenRows).toHaveLength(1);
      const upgrade = await call('PATCH', '/member/password/', { token: planted, body: { username: 'rotor_1', password: 'correct horse' } });
      expect(upgrade.statusCode).toBe(200);
      const fresh = upgrade.json().data.token as string;
      expect(fresh).toMatch(/^\d+\|[A-Za-z0-9]{48}$/);
      expect(fresh).not.toBe(planted);
      expect((await call('GET', '/member/info/', { token: planted })).statusCode).toBe(401);
      expect((await call('GET', '/member/profile/', { token: planted })).statusCode).toBe(401);
      expect((await call('GET', '/member/info/', { token: fresh })).json().data.userInfo).toMatchObject({ uid: guest.userInfo.uid, isGuest: false });
      const rows = await db().selectFrom('access_tokens').select('id').where('user_id', '=', guest.userInfo.uid).execute();
      expect(rows).toHaveLength(1);
    });

    it('changes an existing password only with the current one, and signs out the other devices', async () => {
      const member = await newMember('grace_7', 'first password');
      const other = (await call('POST', '/username/login/', { body: { username: 'grace_7', password: 'first password' } })).json().data.token as string;
      const missing = await call('PATCH', '/member/password/', { token: member.token, body: { password: 'second password' } });
      expect(missing.json().data.errors).toEqual({ currentPassword: ['Enter your current password.'] });
      const wrong = await call('PATCH', '/member/password/', { token: member.token, body: { password: 'second password', currentPassword: 'nope nope' } });
      expect(wrong.statusCode).toBe(422);
      expect(wrong.json().data.errors).toEqual({ currentPassword: ['The current password is incorrect.'] });
      const ok = await call('PATCH', '/member/password/', { token: member.token, body: { password: 'second password', currentPassword: 'first password' } });
      expect(ok.statusCode).toBe(200);
      expect((await call('GET', '/member/info/', { token: ok.json().data.token })).statusCode).toBe(200);
      expect((await call('GET', '/member/info/', { token: member.token })).statusCode).toBe(401);
      expect((await call('GET', '/member/info/', { token: other })).statusCode).toBe(401);
      expect((await call('POST', '/username/login/', { body: { username: 'grace_7', password: 'first password' } })).statusCode).toBe(401);
      expect((await call('POST', '/username/login/', { body: { username: 'grace_7', password: 'second password' } })).statusCode).toBe(200);
    });
  });

  describe('a guest signing in to an existing account (decision 063)', () => {
    it('password sign-in merges the guest into the member and ends the guest session', async () => {
      const member = await newMember('merge_pw', 'correct horse');
      await giveAccountHoldings(api, member.token);
      const guest = await newGuest();
      await giveGuestHoldings(api, guest.token);
      const response = await call('POST', '/username/login/', { token: guest.token, body: { username: 'merge_pw', password: 'correct horse' } });
      expect(response.statusCode, response.body).toBe(200);
      const { token, userInfo } = response.json().data as { token: string; userInfo: { uid: number } };
      expect(userInfo.uid).toBe(member.userInfo.uid);
      await expectGuestMerged(api, { guestToken: guest.token, guestId: guest.userInfo.uid, accountToken: token, accountId: member.userInfo.uid });
    });

    it('a refused password merges nothing; a member caller is never merged', async () => {
      const member = await newMember('merge_pw2', 'correct horse');
      const guest = await newGuest();
      expect((await call('POST', '/username/login/', { token: guest.token, body: { username: 'merge_pw2', password: 'wrong horse' } })).statusCode).toBe(401);
      expect((await call('GET', '/member/info/', { token: guest.token })).statusCode).toBe(200);
      const other = await newMember('merge_pw3', 'correct horse');
      expect((await call('POST', '/username/login/', { token: other.token, body: { username: 'merge_pw2', password: 'correct horse' } })).statusCode).toBe(200);
      expect((await call('GET', '/member/info/', { token: other.token })).json().data.userInfo.uid).toBe(other.userInfo.uid);
      expect((await call('GET', '/member/info/', { token: member.token })).statusCode).toBe(200);
    });

    it('device sign-in merges the caller’s guest into the device’s guest', async () => {
      const fingerprint = 'abad1dea0123456789abcdef01234567';
      const device = await newGuest(fingerprint);
      // The device's guest holds nothing private (device sign-in reaches no other): plays only.
      await call('POST', '/member/played/', { token: device.token, body: { app_id: 1 } });
      const guest = await newGuest();
      await giveGuestHoldings(api, guest.token);
      // From another address of the device's network, so the other device tests' counts stay theirs.
      const response = await call('POST', '/fingerprint/login/', { token: guest.token, body: deviceBody(fingerprint), address: '192.0.2.51' });
      expect(response.statusCode, response.body).toBe(200);
      const { token, userInfo } = response.json().data as { token: string; userInfo: { uid: number } };
      expect(userInfo.uid).toBe(device.userInfo.uid);
      // The device's account held no hints: the guest's three.
      await expectGuestMerged(api, { guestToken: guest.token, guestId: guest.userInfo.uid, accountToken: token, accountId: device.userInfo.uid, hints: 3 });
    });
  });

  describe('fingerprint sign-in', () => {
    const fingerprint = 'f00dbabe0123456789abcdef01234567';

    it('signs the device back into its guest account with a new token', async () => {
      const guest = await newGuest(fingerprint);
      const response = await call('POST', '/fingerprint/login/', { body: deviceBody(fingerprint), address: HOME });
      expect(response.statusCode).toBe(200);
      const { data } = response.json();
      expect(data.userInfo).toEqual(guest.userInfo);
      expect(data.token).not.toBe(guest.token);
      expect((await call('GET', '/member/info/', { token: data.token })).json().data.userInfo.uid).toBe(guest.userInfo.uid);
    });

    it('answers 404 for a device without a guest account', async () => {
      const response = await call('POST', '/fingerprint/login/', { body: deviceBody('ffffffffffffffffffffffffffffffff') });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({
        code: 404,
        error: 'not_found',
        message: 'No guest account is linked to this device. Please sign in another way.',
        data: null,
      });
    });

    it('never signs into an account with a password, a social account or a passkey', async () => {
      const now = new Date().toISOString();
      const withPassword = 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa1';
      const guest = await newGuest(withPassword);
      expect((await call('POST', '/fingerprint/login/', { body: deviceBody(withPassword), address: HOME })).statusCode).toBe(200);
      expect((await call('PATCH', '/member/password/', { token: guest.token, body: { username: 'heidi_8', password: 'correct horse' } })).statusCode).toBe(200);
      expect((await call('POST', '/fingerprint/login/', { body: deviceBody(withPassword), address: HOME })).statusCode).toBe(404);

      const withSocial = 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa2';
      const social = await newGuest(withSocial);
      await db()
        .insertInto('social_accounts')
        .values({ user_id: social.userInfo.uid, platform: 'discord', provider_user_id: 'd-1', display_name: null, email: null, created_at: now })
        .execute();
      expect((await call('POST', '/fingerprint/login/', { body: deviceBody(withSocial), address: HOME })).statusCode).toBe(404);

      const withPasskey = 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa3';
      const passkey = await newGuest(withPasskey);
      await insertPasskeyRow(passkey.userInfo.uid, 'cred-fp', now);
      expect((await call('POST', '/fingerprint/login/', { body: deviceBody(withPasskey), address: HOME })).statusCode).toBe(404);
    });

    it('a fingerprint alone is not enough: from another network the answer is the same 404 as for an unknown device', async () => {
      const victim = 'bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb1';
      await newGuest(victim);
      const unknown = await call('POST', '/fingerprint/login/', { body: deviceBody('bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb9'), address: '198.51.100.7' });
      const refused = await call('POST', '/fingerprint/login/', { body: deviceBody(victim), address: '198.51.100.7' });
      expect(refused.statusCode).toBe(404);
      expect(refused.body).toBe(unknown.body);
      // The same /24 is the same network; IPv6 goes by /48.
      expect((await call('POST', '/fingerprint/login/', { body: deviceBody(victim), address: '192.0.2.201' })).statusCode).toBe(200);
      const v6 = 'bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb2';
      expect(
        (await call('POST', '/guest/login/', { body: { ...(await solvedChallenge(api.app)), ...deviceBody(v6) }, address: '2001:db8:aa:1::5' })).statusCode,
      ).toBe(201);
      expect((await call('POST', '/fingerprint/login/', { body: deviceBody(v6), address: '2001:db8:aa:ff::9' })).statusCode).toBe(200);
      expect((await call('POST', '/fingerprint/login/', { body: deviceBody(v6), address: '2001:db8:ab:1::5' })).statusCode).toBe(404);
    });

    it('follows the guest to the network it was last used from', async () => {
      const travelling = 'bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb3';
      const guest = await newGuest(travelling);
      expect((await call('GET', '/member/info/', { token: guest.token, address: '203.0.113.40' })).statusCode).toBe(200);
      expect((await call('POST', '/fingerprint/login/', { body: deviceBody(travelling), address: HOME })).statusCode).toBe(404);
      expect((await call('POST', '/fingerprint/login/', { body: deviceBody(travelling), address: '203.0.113.99' })).statusCode).toBe(200);
    });

    it('never reaches a guest that holds an email, a phone number or an uploaded avatar', async () => {
      const cases: Array<[string, Record<string, string>]> = [
        ['ccccccccccccccccccccccccccccccc1', { email: 'owner@example.com' }],
        ['ccccccccccccccccccccccccccccccc2', { phone: '+442071234567' }],
        ['ccccccccccccccccccccccccccccccc3', { avatar: '/uploads/avatars/1/a.webp' }],
      ];
      for (const [device, fields] of cases) {
        const guest = await newGuest(device);
        await db().updateTable('users').set(fields).where('id', '=', guest.userInfo.uid).execute();
        const response = await call('POST', '/fingerprint/login/', { body: deviceBody(device), address: HOME });
        expect(response.statusCode, JSON.stringify(fields)).toBe(404);
      }
      // Through the API too: a guest who saves an email keeps it private.
      const saver = 'ccccccccccccccccccccccccccccccc4';
      const guest = await newGuest(saver);
      expect((await call('PATCH', '/member/email/', { token: guest.token, body: { email: 'me@example.com' } })).statusCode).toBe(200);
      expect((await call('POST', '/fingerprint/login/', { body: deviceBody(saver), address: HOME })).statusCode).toBe(404);
    });

    it('never reaches a guest that holds cloud saves or favourites; play history alone keeps it reachable', async () => {
      const [first, second] = await db().selectFrom('apps').select('id').orderBy('id').limit(2).execute();
      const player = 'c5c5c5c5c5c5c5c5c5c5c5c5c5c5c5c1';
      const played = await newGuest(player);
      expect((await call('POST', '/member/played/', { token: played.token, body: { app_id: first!.id }, address: HOME })).statusCode).toBe(200);
      expect((await call('POST', '/fingerprint/login/', { body: deviceBody(player), address: '192.0.2.101' })).json().data.userInfo.uid).toBe(
        played.userInfo.uid,
      );

      const saver = 'c5c5c5c5c5c5c5c5c5c5c5c5c5c5c5c2';
      const saving = await newGuest(saver);
      const saved = await call('PUT', `/game/saves/${first!.id}/progress`, { token: saving.token, body: { value: { level: 7 } }, address: HOME });
      expect(saved.statusCode, saved.body).toBe(200);
      const refused = await call('POST', '/fingerprint/login/', { body: deviceBody(saver), address: '192.0.2.101' });
      const unknown = await call('POST', '/fingerprint/login/', { body: deviceBody('c5c5c5c5c5c5c5c5c5c5c5c5c5c5c5c9'), address: '192.0.2.101' });
      expect(refused.statusCode).toBe(404);
      expect(refused.body).toBe(unknown.body);

      const collector = 'c5c5c5c5c5c5c5c5c5c5c5c5c5c5c5c3';
      const collecting = await newGuest(collector);
      expect((await call('PUT', `/member/favourite/${second!.id}`, { token: collecting.token, address: HOME })).statusCode).toBe(200);
      expect((await call('POST', '/fingerprint/login/', { body: deviceBody(collector), address: '192.0.2.101' })).statusCode).toBe(404);
    });

    it('the right fingerprint with another device id is refused, the same 404 as an unknown device', async () => {
      const print = 'b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b1';
      const owner = await newGuest();
      expect(
        (await call('POST', '/guest/device/', { token: owner.token, body: deviceBody(print, 'the-owners-own-device-id-kept-locally'), address: HOME })).json()
          .data,
      ).toEqual({ recorded: true });
      // Someone on the same network who computed the fingerprint, with a device id of their own.
      const borrowed = await call('POST', '/fingerprint/login/', { body: deviceBody(print, 'somebody-elses-device-id-0000000'), address: '192.0.2.77' });
      const unknown = await call('POST', '/fingerprint/login/', {
        body: deviceBody('b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b9', 'somebody-elses-device-id-0000000'),
        address: '192.0.2.77',
      });
      expect(borrowed.statusCode).toBe(404);
      expect(borrowed.body).toBe(unknown.body);
      // The device id alone is not enough either.
      expect(
        (
          await call('POST', '/fingerprint/login/', {
            body: deviceBody('b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b2', 'the-owners-own-device-id-kept-locally'),
            address: '192.0.2.102',
          })
        ).statusCode,
      ).toBe(404);
      const back = await call('POST', '/fingerprint/login/', { body: deviceBody(print, 'the-owners-own-device-id-kept-locally'), address: '192.0.2.102' });
      expect(back.json().data.userInfo.uid).toBe(owner.userInfo.uid);
      // Only a keyed hash of the device id is stored.
      const row = await db().selectFrom('users').select('device_id_hash').where('id', '=', owner.userInfo.uid).executeTakeFirstOrThrow();
      expect(row.device_id_hash).toBe(api.services.accounts.deviceIdHash('the-owners-own-device-id-kept-locally'));
    });

    it("a fingerprint recorded first by someone else's device never captures the owner's later device sign-ins", async () => {
      const print = 'b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b3';
      const attacker = await newGuest();
      expect(
        (await call('POST', '/guest/device/', { token: attacker.token, body: deviceBody(print, 'the-attackers-device-id-00000000'), address: HOME })).json()
          .data,
      ).toEqual({ recorded: true });
      const owner = await newGuest();
      expect(
        (await call('POST', '/guest/device/', { token: owner.token, body: deviceBody(print, 'the-owners-device-id-00000000000'), address: HOME })).json().data,
      ).toEqual({ recorded: true });
      const signIn = await call('POST', '/fingerprint/login/', { body: deviceBody(print, 'the-owners-device-id-00000000000'), address: '192.0.2.103' });
      expect(signIn.json().data.userInfo.uid).toBe(owner.userInfo.uid);
    });

    it('a guest recorded before device ids (a fingerprint alone) is not reached until its browser records its device again', async () => {
      const print = 'b7b7b7b7b7b7b7b7b7b7b7b7b7b7b7b4';
      const guest = await newGuest();
      // As migration 0009 leaves such a guest: a fingerprint, no device id.
      await db()
        .updateTable('users')
        .set({ fingerprint_hash: api.services.accounts.fingerprintHash(print), fingerprint_at: new Date().toISOString() })
        .where('id', '=', guest.userInfo.uid)
        .execute();
      expect((await call('POST', '/fingerprint/login/', { body: deviceBody(print), address: '192.0.2.104' })).statusCode).toBe(404);
      expect((await call('POST', '/guest/device/', { token: guest.token, body: deviceBody(print), address: HOME })).json().data).toEqual({ recorded: true });
      expect((await call('POST', '/fingerprint/login/', { body: deviceBody(print), address: '192.0.2.104' })).json().data.userInfo.uid).toBe(
        guest.userInfo.uid,
      );
    });

    it('a later guest with the same fingerprint never shadows the earlier one', async () => {
      const shared = 'ddddddddddddddddddddddddddddddd1';
      const first = await newGuest(shared);
      // Someone else creates a guest with the same (copied) fingerprint afterwards.
      await newGuest(shared);
      const response = await call('POST', '/fingerprint/login/', { body: deviceBody(shared), address: HOME });
      expect(response.json().data.userInfo.uid).toBe(first.userInfo.uid);
    });

    it('a guest records its device later, once; device sign-in then finds it; a member or a second fingerprint changes nothing', async () => {
      const device = 'abababababababababababababababa1';
      const guest = await newGuest();
      expect((await call('POST', '/fingerprint/login/', { body: deviceBody(device), address: HOME })).statusCode).toBe(404);
      const recorded = await call('POST', '/guest/device/', { token: guest.token, body: deviceBody(device), address: HOME });
      expect(recorded.statusCode, recorded.body).toBe(200);
      expect(recorded.json().data).toEqual({ recorded: true });
      const signIn = await call('POST', '/fingerprint/login/', { body: deviceBody(device), address: HOME });
      expect(signIn.json().data.userInfo.uid).toBe(guest.userInfo.uid);
      // Once recorded, another fingerprint cannot replace it.
      expect(
        (await call('POST', '/guest/device/', { token: guest.token, body: deviceBody('abababababababababababababababa2'), address: HOME })).json().data,
      ).toEqual({ recorded: false });
      expect((await call('POST', '/fingerprint/login/', { body: deviceBody('abababababababababababababababa2'), address: HOME })).statusCode).toBe(404);
      // A member records nothing; without a session, or with a bad fingerprint, it is refused.
      const member = await newMember(`device_${Date.now().toString(36)}`, 'device-member-pass-1');
      expect(
        (await call('POST', '/guest/device/', { token: member.token, body: deviceBody('abababababababababababababababa3'), address: HOME })).json().data,
      ).toEqual({ recorded: false });
      expect((await call('POST', '/guest/device/', { body: deviceBody('abababababababababababababababa4'), address: HOME })).statusCode).toBe(401);
      expect((await call('POST', '/guest/device/', { token: guest.token, body: deviceBody('not a fingerprint'), address: HOME })).statusCode).toBe(422);
    });

    it('a guest that records a fingerprint after another guest did never shadows it, even if it was created first', async () => {
      const shared = 'cdcdcdcdcdcdcdcdcdcdcdcdcdcdcdc1';
      const older = await newGuest();
      const victim = await newGuest();
      expect((await call('POST', '/guest/device/', { token: victim.token, body: deviceBody(shared), address: HOME })).json().data).toEqual({ recorded: true });
      // The older guest copies the victim's fingerprint afterwards (the clock keeps writes a millisecond apart at least).
      expect((await call('POST', '/guest/device/', { token: older.token, body: deviceBody(shared), address: HOME })).json().data).toEqual({ recorded: true });
      const response = await call('POST', '/fingerprint/login/', { body: deviceBody(shared), address: HOME });
      expect(response.json().data.userInfo.uid).toBe(victim.userInfo.uid);
    });

    it('limits attempts per fingerprint across addresses, and per client', async () => {
      const target = 'eeeeeeeeeeeeeeeeeeeeeeeeeeeeeee1';
      const { limit } = ACCOUNT_LIMITS.deviceFingerprint;
      for (let i = 0; i < limit; i++) {
        const response = await call('POST', '/fingerprint/login/', { body: deviceBody(target), address: `198.18.${i}.1` });
        expect(response.statusCode, `attempt ${i + 1}`).toBe(404);
      }
      expect((await call('POST', '/fingerprint/login/', { body: deviceBody(target), address: '198.18.200.1' })).statusCode).toBe(429);
      const perClient = ACCOUNT_LIMITS.deviceAddress.limit;
      for (let i = 0; i < perClient; i++) {
        const other = `f${String(i).padStart(31, '0')}`;
        expect((await call('POST', '/fingerprint/login/', { body: deviceBody(other), address: '198.19.0.1' })).statusCode, `client attempt ${i + 1}`).toBe(404);
      }
      expect((await call('POST', '/fingerprint/login/', { body: deviceBody('f1111111111111111111111111111111'), address: '198.19.0.1' })).statusCode).toBe(429);
    }, 60000);

    it('validates the fingerprint and the device id', async () => {
      const response = await call('POST', '/fingerprint/login/', { body: deviceBody('short') });
      expect(response.statusCode).toBe(422);
      expect(response.json().data.errors.fingerprint).toBeDefined();
      for (const body of [{ fingerprint: 'f00dbabe0123456789abcdef01234567' }, deviceBody('f00dbabe0123456789abcdef01234567', 'short')]) {
        const noId = await call('POST', '/fingerprint/login/', { body });
        expect(noId.statusCode, JSON.stringify(body)).toBe(422);
        expect(noId.json().data.errors.deviceId).toBeDefined();
        expect((await call('POST', '/guest/device/', { token: (await newGuest()).token, body })).statusCode).toBe(422);
      }
      // A fingerprint at sign-up needs its device id too.
      const signUp = await call('POST', '/guest/login/', { body: { ...(await solvedChallenge(api.app)), fingerprint: 'f00dbabe0123456789abcdef01234567' } });
      expect(signUp.statusCode).toBe(422);
      expect(signUp.json().data.errors).toEqual({ deviceId: ['A device fingerprint needs its device id.'] });
    });
  });

  describe('logout', () => {
    it('revokes the token: it no longer works anywhere', async () => {
      const guest = await newGuest();
      const response = await call('POST', '/logout/', { token: guest.token });
      expect(response.statusCode).toBe(200);
      expect(response.json().data).toEqual({ revoked: true });
      expect((await call('GET', '/member/info/', { token: guest.token })).statusCode).toBe(401);
      expect((await call('POST', '/session/check', { token: guest.token })).json().data).toEqual({ valid: false, uid: null });
      expect(await api.services.accounts.userInfoForToken(guest.token)).toBeNull();
    });

    it('answers revoked: false without a valid token', async () => {
      const response = await call('POST', '/logout/');
      expect(response.statusCode).toBe(200);
      expect(response.json().data).toEqual({ revoked: false });
    });
  });

  describe('nickname', () => {
    it('saves a trimmed nickname in any script', async () => {
      const guest = await newGuest();
      const response = await call('PATCH', '/member/nickname/', { token: guest.token, body: { nickname: '  Star Player_1.0  ' } });
      expect(response.statusCode).toBe(200);
      expect(response.json().data.userInfo.nickname).toBe('Star Player_1.0');
      const chinese = await call('PATCH', '/member/nickname/', { token: guest.token, body: { nickname: '星之玩家' } });
      expect(chinese.json().data.userInfo.nickname).toBe('星之玩家');
      expect((await call('GET', '/member/info/', { token: guest.token })).json().data.userInfo.nickname).toBe('星之玩家');
    });

    it('refuses bad nicknames with 422 field errors and changes nothing', async () => {
      const guest = await newGuest();
      await call('PATCH', '/member/nickname/', { token: guest.token, body: { nickname: 'Before' } });
      const cases: Array<[unknown, string]> = [
        ['a', 'Use 2 to 24 characters.'],
        ['   b   ', 'Use 2 to 24 characters.'],
        ['x'.repeat(25), 'Use 2 to 24 characters.'],
        ['bad<name>', 'Use only letters, digits, spaces and the characters _ - .'],
        ['bell\u0007ring', 'Use only letters, digits, spaces and the characters _ - .'],
        ['tab\there', 'Use only letters, digits, spaces and the characters _ - .'],
        ['smile 😀', 'Use only letters, digits, spaces and the characters _ - .'],
      ];
      for (const [nickname, message] of cases) {
        const response = await call('PATCH', '/member/nickname/', { token: guest.token, body: { nickname } });
        expect(response.statusCode, String(nickname)).toBe(422);
        expect(response.json().data.errors.nickname, String(nickname)).toContain(message);
      }
      const wrongType = await call('PATCH', '/member/nickname/', { token: guest.token, body: { nickname: 42 } });
      expect(wrongType.statusCode).toBe(422);
      expect(wrongType.json().data.errors.nickname).toHaveLength(1);
      const zh = await call('PATCH', '/member/nickname/', { token: guest.token, body: { nickname: 'a' }, headers: { locale: 'zh-CN' } });
      expect(zh.json()).toMatchObject({ message: '提交的数据无效。', data: { errors: { nickname: ['请使用 2 到 24 个字符。'] } } });
      expect((await call('GET', '/member/info/', { token: guest.token })).json().data.userInfo.nickname).toBe('Before');
    });

    it('needs a signed-in caller', async () => {
      expect((await call('PATCH', '/member/nickname/', { body: { nickname: 'Nobody' } })).statusCode).toBe(401);
    });
  });

  describe('email, phone and profile', () => {
    it('saves, normalises and removes the email and phone', async () => {
      const guest = await newGuest();
      const email = await call('PATCH', '/member/email/', { token: guest.token, body: { email: '  player@example.com ' } });
      expect(email.statusCode).toBe(200);
      expect(email.json().data.profile.email).toBe('player@example.com');
      const phone = await call('PATCH', '/member/phone/', { token: guest.token, body: { phone: '+44 (20) 7946-0958' } });
      expect(phone.json().data.profile.phone).toBe('+442079460958');
      const profile = await call('GET', '/member/profile/', { token: guest.token });
      expect(profile.json().data).toEqual({
        uid: guest.userInfo.uid,
        username: null,
        nickname: guest.userInfo.nickname,
        avatar: null,
        avatarSizes: null,
        email: 'player@example.com',
        phone: '+442079460958',
        hasPassword: false,
        isGuest: true,
      });
      await call('PATCH', '/member/email/', { token: guest.token, body: { email: '' } });
      await call('PATCH', '/member/phone/', { token: guest.token, body: { phone: '' } });
      expect((await call('GET', '/member/profile/', { token: guest.token })).json().data).toMatchObject({ email: null, phone: null });
    });

    it('refuses invalid values with 422 field errors and keeps the saved ones', async () => {
      const guest = await newGuest();
      await call('PATCH', '/member/email/', { token: guest.token, body: { email: 'kept@example.com' } });
      await call('PATCH', '/member/phone/', { token: guest.token, body: { phone: '+8613800138000' } });
      for (const value of ['not-an-email', 'a@', '@b.example', `${'x'.repeat(250)}@b.example`]) {
        const response = await call('PATCH', '/member/email/', { token: guest.token, body: { email: value } });
        expect(response.statusCode, value).toBe(422);
        expect(response.json().data.errors.email, value).toBeDefined();
      }
      expect((await call('PATCH', '/member/email/', { token: guest.token, body: { email: 'nope' } })).json().data.errors.email).toEqual([
        'Enter a valid email address.',
      ]);
      for (const value of ['12345', '0044 20 7946 0958', '+0 123 456 789', '+44 20 abc', '+1234567890123456']) {
        const response = await call('PATCH', '/member/phone/', { token: guest.token, body: { phone: value } });
        expect(response.statusCode, value).toBe(422);
        expect(response.json().data.errors.phone, value).toBeDefined();
      }
      expect((await call('GET', '/member/profile/', { token: guest.token })).json().data).toMatchObject({ email: 'kept@example.com', phone: '+8613800138000' });
    });

    it('needs a signed-in caller', async () => {
      expect((await call('GET', '/member/profile/')).statusCode).toBe(401);
      expect((await call('PATCH', '/member/email/', { body: { email: 'a@b.example' } })).statusCode).toBe(401);
      expect((await call('PATCH', '/member/phone/', { body: { phone: '+442079460958' } })).statusCode).toBe(401);
    });
  });

  it('documents every accounts call in the OpenAPI document', async () => {
    const doc = (await api.app.inject({ method: 'GET', url: `${API}/openapi.json` })).json();
    const calls: Array<[string, string]> = [
      ['/guest/login/', 'post'],
      ['/username/login/', 'post'],
      ['/fingerprint/login/', 'post'],
      ['/logout/', 'post'],
      ['/member/info/', 'get'],
      ['/member/profile/', 'get'],
      ['/member/nickname/', 'patch'],
      ['/member/password/', 'patch'],
      ['/member/email/', 'patch'],
      ['/member/phone/', 'patch'],
      ['/member/avatar/', 'post'],
    ];
    for (const [path, method] of calls) {
      const operation = doc.paths[path]?.[method];
      expect(operation, `${method} ${path}`).toBeDefined();
      expect(operation.summary.length, path).toBeGreaterThan(5);
      expect(operation.description.length, path).toBeGreaterThan(20);
      expect(operation.responses['200'] ?? operation.responses['201'], path).toBeDefined();
    }
    expect(doc.paths['/username/login/'].post.requestBody.content['application/json'].schema.required).toEqual(['username', 'password']);
    expect(doc.paths['/member/avatar/'].post.requestBody.content['multipart/form-data'].schema.properties.avatar).toMatchObject({
      type: 'string',
      format: 'binary',
    });
    expect(doc.paths['/member/info/'].get.responses['401']).toBeDefined();
    const userInfo = doc.paths['/member/info/'].get.responses['200'].content['application/json'].schema.properties.data.properties.userInfo;
    expect(Object.keys(userInfo.properties).sort()).toEqual(['avatar', 'isGuest', 'nickname', 'social_providers', 'uid', 'webauthn']);
  });
});
