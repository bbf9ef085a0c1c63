import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { solvedChallenge } from '#server/testing/guest-challenge.ts';
import { expectGuestMerged, giveAccountHoldings, giveGuestHoldings } from '#server/testing/guest-merge.ts';
import { type CreationOptions, type RequestOptions, SoftAuthenticator } from '#server/testing/soft-authenticator.ts';
import { openTestApi, type TestApi } from '#server/testing/test-api.ts';
import { rowCount } from '#server/testing/test-database.ts';

describe('passkeys API', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await openTestApi();
  });
  afterAll(() => api.close());

  const AGENT = { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/140.0' };
  const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, options: { token?: string | undefined; body?: unknown } = {}) =>
    api.call(method, path, { ...options, headers: AGENT });

  async function newGuest() {
    const response = await call('POST', '/guest/login/', { body: await solvedChallenge(api.app) });
    expect(response.statusCode, response.body).toBe(201);
    return response.json().data as { token: string; userInfo: { uid: number } };
  }

  async function creationOptions(token: string): Promise<CreationOptions> {
    const response = await call('GET', '/webauthn/create/options/', { token });
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data.data;
  }

  async function requestOptions(token?: string): Promise<RequestOptions> {
    const response = await call('GET', '/webauthn/login/options/', { token });
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data.data;
  }

  /** A guest with a passkey on a new authenticator: now a member, with the rotated token. */
  async function memberWithPasskey() {
    const guest = await newGuest();
    const authenticator = new SoftAuthenticator();
    const response = await call('POST', '/webauthn/create/verification/', {
      token: guest.token,
      body: authenticator.create(await creationOptions(guest.token)),
    });
    expect(response.statusCode, response.body).toBe(201);
    const data = response.json().data as {
      token: string;
      userInfo: { uid: number; webauthn: boolean; isGuest: boolean };
      passkey: { id: number; name: string };
    };
    return { guest, authenticator, ...data };
  }

  function register(token: string, body: unknown) {
    return call('POST', '/webauthn/create/verification/', { token, body });
  }

  async function signIn(body: unknown, token?: string) {
    return call('POST', '/webauthn/login/verification/', { body, token });
  }

  describe('registration', () => {
    it('offers options with a random user handle, the relying party, the algorithms and the preferences', async () => {
      const guest = await newGuest();
      const options = await creationOptions(guest.token);
      // 32 random bytes (WebAuthn allows 1 to 64), never the uid.
      const handle = Buffer.from(options.user.id, 'base64url');
      expect(handle).toHaveLength(32);
      expect(options.user.id).not.toBe(String(guest.userInfo.uid));
      expect(handle.equals(Buffer.from(String(guest.userInfo.uid)))).toBe(false);
      expect(options.rp).toMatchObject({ id: 'localhost', name: 'Playport' });
      expect(options.pubKeyCredParams.map((p) => p.alg)).toEqual([-8, -7, -257]);
      expect(options.authenticatorSelection).toMatchObject({ residentKey: 'preferred', userVerification: 'preferred' });
      expect(options.excludeCredentials).toEqual([]);
      // The handle is the account's: asked again, the same.
      expect((await creationOptions(guest.token)).user.id).toBe(options.user.id);
    });

    it('makes a guest a member in place, rotates the session and names the passkey after the browser', async () => {
      const { guest, token, userInfo, passkey } = await memberWithPasskey();
      expect(userInfo).toMatchObject({ uid: guest.userInfo.uid, webauthn: true, isGuest: false });
      expect(passkey.name).toBe('Chrome on Linux');
      expect((await call('GET', '/member/info/', { token: guest.token })).statusCode).toBe(401);
      expect((await call('GET', '/member/info/', { token })).json().data.userInfo).toMatchObject({ uid: guest.userInfo.uid, webauthn: true });
    });

    it('lists the account’s passkeys as excluded, and refuses the same passkey twice', async () => {
      const { authenticator, token } = await memberWithPasskey();
      const options = await creationOptions(token);
      expect(options.excludeCredentials?.map((c) => c.id)).toEqual([authenticator.id]);
      const again = await call('POST', '/webauthn/create/verification/', { token, body: authenticator.create(options) });
      expect(again.statusCode).toBe(409);
      expect(again.json().message).toBe('This passkey is registered already.');
    });

    it('refuses a replayed, expired or foreign challenge, another origin and another relying party, and stores nothing', async () => {
      const guest = await newGuest();
      const other = await newGuest();
      const expectRefused = async (response: Awaited<ReturnType<typeof register>>, message: string) => {
        expect(response.statusCode, response.body).toBe(400);
        expect(response.json()).toMatchObject({ code: 400, message });
      };
      const challengeMessage = 'This passkey request has expired or was started elsewhere. Please try again.';

      // Issued to another account's session.
      await expectRefused(await register(other.token, new SoftAuthenticator().create(await creationOptions(guest.token))), challengeMessage);
      // Another origin, another relying party: the ceremony is refused (and the challenge spent).
      await expectRefused(
        await register(guest.token, new SoftAuthenticator().create(await creationOptions(guest.token), { origin: 'https://evil.example' })),
        'The new passkey could not be verified.',
      );
      await expectRefused(
        await register(guest.token, new SoftAuthenticator().create(await creationOptions(guest.token), { rpId: 'evil.example' })),
        'The new passkey could not be verified.',
      );
      // Expired.
      const stale = await creationOptions(guest.token);
      await api.services.database.db.updateTable('auth_challenges').set({ expires_at: '2000-01-01T00:00:00.000Z' }).where('id', '=', stale.challenge).execute();
      await expectRefused(await register(guest.token, new SoftAuthenticator().create(stale)), challengeMessage);
      // Replayed: the first use succeeds, the same answer again is refused.
      const answer = new SoftAuthenticator().create(await creationOptions(guest.token));
      const first = await register(guest.token, answer);
      expect(first.statusCode, first.body).toBe(201);
      await expectRefused(await register(first.json().data.token, answer), challengeMessage);
      // Garbage is a validation error, not a crash.
      const garbage = await register(first.json().data.token, {
        id: 'x',
        rawId: 'x',
        type: 'public-key',
        response: { attestationObject: '!!', clientDataJSON: 'x' },
      });
      expect(garbage.statusCode).toBe(422);
      const stored = await api.services.database.db.selectFrom('webauthn_credentials').select('id').where('user_id', '=', guest.userInfo.uid).execute();
      expect(stored).toHaveLength(1);
    });

    it('the scheduled clean-up deletes challenges that expired unused, and only those', async () => {
      const guest = await newGuest();
      const stale = await creationOptions(guest.token);
      const fresh = await creationOptions(guest.token);
      const db = api.services.database.db;
      await db.updateTable('auth_challenges').set({ expires_at: '2000-01-01T00:00:00.000Z' }).where('id', '=', stale.challenge).execute();
      expect(await api.services.passkeys.removeExpiredChallenges()).toBeGreaterThanOrEqual(1);
      const left = await db.selectFrom('auth_challenges').select('id').where('id', 'in', [stale.challenge, fresh.challenge]).execute();
      expect(left.map((r) => r.id)).toEqual([fresh.challenge]);
    });

    it('needs a session', async () => {
      expect((await call('GET', '/webauthn/create/options/')).statusCode).toBe(401);
      expect((await call('POST', '/webauthn/create/verification/', { body: {} })).statusCode).toBe(401);
    });
  });

  describe('sign-in', () => {
    it('signs in with a discoverable passkey: no credentials listed, a new token, the counter and time kept', async () => {
      const { authenticator, userInfo, passkey } = await memberWithPasskey();
      const options = await requestOptions();
      expect(options.allowCredentials).toEqual([]);
      expect(options.rpId).toBe('localhost');
      const response = await signIn(authenticator.get(options));
      expect(response.statusCode, response.body).toBe(200);
      const data = response.json().data;
      expect(data.token).toMatch(/^\d+\|/);
      expect(data.userInfo).toMatchObject({ uid: userInfo.uid, webauthn: true });
      const row = await api.services.database.db.selectFrom('webauthn_credentials').selectAll().where('id', '=', passkey.id).executeTakeFirstOrThrow();
      expect(row.counter).toBe(authenticator.counter);
      expect(row.last_used_at).not.toBeNull();
    });

    it('refuses a replayed or foreign challenge, an unknown passkey, another account’s user handle, a counter that goes backwards, another origin', async () => {
      const alice = await memberWithPasskey();
      const bob = await memberWithPasskey();
      const expectRefused = async (response: Awaited<ReturnType<typeof signIn>>, message: string) => {
        expect(response.statusCode, response.body).toBe(400);
        expect(response.json().message).toBe(message);
      };
      // Replayed.
      const answer = alice.authenticator.get(await requestOptions());
      expect((await signIn(answer)).statusCode).toBe(200);
      await expectRefused(await signIn(answer), 'This passkey request has expired or was started elsewhere. Please try again.');
      // Started by another session (a visitor's token), finished without it.
      const guest = await newGuest();
      await expectRefused(
        await signIn(alice.authenticator.get(await requestOptions(guest.token))),
        'This passkey request has expired or was started elsewhere. Please try again.',
      );
      // Started before the page had a session, finished by the guest session made meanwhile: fine.
      const late = await signIn(alice.authenticator.get(await requestOptions()), guest.token);
      expect(late.statusCode, late.body).toBe(200);
      // A passkey nobody registered.
      await expectRefused(
        await signIn(new SoftAuthenticator().get(await requestOptions(), { userHandle: alice.authenticator.userHandle })),
        'This passkey is not registered here.',
      );
      // Alice's passkey claiming to be Bob's account, or no account at all.
      await expectRefused(
        await signIn(alice.authenticator.get(await requestOptions(), { userHandle: bob.authenticator.userHandle })),
        'This passkey does not belong to the account it names.',
      );
      await expectRefused(
        await signIn(alice.authenticator.get(await requestOptions(), { userHandle: null })),
        'This passkey does not belong to the account it names.',
      );
      // A counter at or below the one last seen (a cloned authenticator): the first sign-in stored 2.
      const counter = alice.authenticator.counter;
      await expectRefused(await signIn(alice.authenticator.get(await requestOptions(), { counter: 2 })), 'The passkey could not be verified.');
      await expectRefused(await signIn(alice.authenticator.get(await requestOptions(), { counter: 1 })), 'The passkey could not be verified.');
      // Another origin or relying party.
      await expectRefused(
        await signIn(alice.authenticator.get(await requestOptions(), { counter: counter + 5, origin: 'https://evil.example' })),
        'The passkey could not be verified.',
      );
      await expectRefused(
        await signIn(alice.authenticator.get(await requestOptions(), { counter: counter + 6, rpId: 'evil.example' })),
        'The passkey could not be verified.',
      );
      // And the genuine one still works.
      expect((await signIn(alice.authenticator.get(await requestOptions(), { counter: counter + 7 }))).statusCode).toBe(200);
    });

    it('records a refused sign-in with a registered passkey against its account for the Console, and nothing for an unknown passkey or a bad challenge', async () => {
      const alice = await memberWithPasskey();
      const db = api.services.database.db;
      const all = () => rowCount(db, 'sign_in_failures');
      // What the Console's member page lists: the rows of the account.
      const shown = () =>
        db.selectFrom('sign_in_failures').select(['identifier', 'method', 'address']).where('user_id', '=', alice.userInfo.uid).orderBy('id').execute();
      const address = '198.51.100.77';
      const signInFrom = (body: unknown) => api.call('POST', '/webauthn/login/verification/', { body, headers: AGENT, address });
      const optionsFrom = async () => (await api.call('GET', '/webauthn/login/options/', { headers: AGENT, address })).json().data.data as RequestOptions;

      // Nobody's passkey, and a replayed challenge: refused, and nothing is written.
      const before = await all();
      expect((await signInFrom(new SoftAuthenticator().get(await optionsFrom(), { userHandle: alice.authenticator.userHandle }))).statusCode).toBe(400);
      const answer = alice.authenticator.get(await optionsFrom());
      expect((await signInFrom(answer)).statusCode).toBe(200);
      expect((await signInFrom(answer)).statusCode).toBe(400);
      expect(await all()).toBe(before);

      // Alice's passkey with a signature that does not verify (a counter gone backwards): recorded against Alice.
      expect((await signInFrom(alice.authenticator.get(await optionsFrom(), { counter: 1 }))).statusCode).toBe(400);
      expect(await shown()).toEqual([{ identifier: `passkey ${alice.passkey.name}`, method: 'passkey', address }]);
      expect(await all()).toBe(before + 1);

      // A disabled account: the genuine passkey is refused, and that is recorded too.
      await db.updateTable('users').set({ disabled_at: new Date().toISOString() }).where('id', '=', alice.userInfo.uid).execute();
      const disabled = await signInFrom(alice.authenticator.get(await optionsFrom(), { counter: alice.authenticator.counter + 5 }));
      expect(disabled.statusCode, disabled.body).toBe(403);
      expect(disabled.json().error).toBe('account_disabled');
      expect((await shown()).map((row) => row.method)).toEqual(['passkey', 'passkey']);
      expect(await all()).toBe(before + 2);
    });

    it('merges a guest caller into the passkey’s account and ends the guest session (decision 063)', async () => {
      const member = await memberWithPasskey();
      await giveAccountHoldings(api, member.token);
      const guest = await newGuest();
      await giveGuestHoldings(api, guest.token);
      const response = await signIn(member.authenticator.get(await requestOptions(guest.token)), guest.token);
      expect(response.statusCode, response.body).toBe(200);
      const { token, userInfo } = response.json().data as { token: string; userInfo: { uid: number } };
      expect(userInfo.uid).toBe(member.userInfo.uid);
      await expectGuestMerged(api, { guestToken: guest.token, guestId: guest.userInfo.uid, accountToken: token, accountId: member.userInfo.uid });
    });
  });

  describe('managing passkeys', () => {
    it('lists, renames and deletes only the member’s own passkeys', async () => {
      const alice = await memberWithPasskey();
      const bob = await memberWithPasskey();
      const list = await call('GET', '/webauthn/credential/list/', { token: alice.token });
      expect(list.json().data.items).toEqual([expect.objectContaining({ id: alice.passkey.id, name: 'Chrome on Linux', lastUsedAt: null })]);
      const renamed = await call('PATCH', `/webauthn/credential/${alice.passkey.id}`, { token: alice.token, body: { name: '  Work laptop  ' } });
      expect(renamed.statusCode, renamed.body).toBe(200);
      expect(renamed.json().data.name).toBe('Work laptop');
      expect((await call('PATCH', `/webauthn/credential/${alice.passkey.id}`, { token: alice.token, body: { name: '' } })).statusCode).toBe(422);
      expect((await call('PATCH', `/webauthn/credential/${alice.passkey.id}`, { token: alice.token, body: { name: 'x'.repeat(65) } })).statusCode).toBe(422);
      // Bob can neither see, rename nor delete Alice's.
      expect((await call('GET', '/webauthn/credential/list/', { token: bob.token })).json().data.items.map((p: { id: number }) => p.id)).toEqual([
        bob.passkey.id,
      ]);
      expect((await call('PATCH', `/webauthn/credential/${alice.passkey.id}`, { token: bob.token, body: { name: 'mine' } })).statusCode).toBe(404);
      expect((await call('DELETE', `/webauthn/credential/${alice.passkey.id}`, { token: bob.token })).statusCode).toBe(404);
      expect((await call('DELETE', '/webauthn/credential/abc', { token: bob.token })).statusCode).toBe(422);
      expect((await call('GET', '/webauthn/credential/list/', { token: alice.token })).json().data.items[0].name).toBe('Work laptop');
    });

    it('keeps the last passkey of an account with no other way in, and lets it go once a password is set', async () => {
      const { token, passkey, userInfo } = await memberWithPasskey();
      const refused = await call('DELETE', `/webauthn/credential/${passkey.id}`, { token });
      expect(refused.statusCode).toBe(409);
      expect(refused.json().message).toBe('This passkey is your only way to sign in. Set a password first, then delete it.');
      const withPassword = await call('PATCH', '/member/password/', {
        token,
        body: { username: `pk_${userInfo.uid}`, password: 'correct horse battery staple 9' },
      });
      expect(withPassword.statusCode, withPassword.body).toBe(200);
      const newToken = withPassword.json().data.token as string;
      const deleted = await call('DELETE', `/webauthn/credential/${passkey.id}`, { token: newToken });
      expect(deleted.statusCode, deleted.body).toBe(200);
      expect(deleted.json().data.userInfo).toMatchObject({ uid: userInfo.uid, webauthn: false, isGuest: false });
    });

    it('keeps a passkey of a guest-turned-member with two passkeys until one is left', async () => {
      const { token, passkey } = await memberWithPasskey();
      const second = await call('POST', '/webauthn/create/verification/', { token, body: new SoftAuthenticator().create(await creationOptions(token)) });
      expect(second.statusCode, second.body).toBe(201);
      const current = second.json().data.token as string;
      expect((await call('DELETE', `/webauthn/credential/${passkey.id}`, { token: current })).statusCode).toBe(200);
      expect((await call('DELETE', `/webauthn/credential/${second.json().data.passkey.id}`, { token: current })).statusCode).toBe(409);
    });
  });
});
