import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OAuthPlatform } from '#common/social-platforms.ts';
import { solvedChallenge } from '#server/testing/guest-challenge.ts';
import { expectGuestMerged, giveAccountHoldings, giveGuestHoldings } from '#server/testing/guest-merge.ts';
import { SOCIAL_LIMITS } from './social.service.ts';
import { type IdentityProviders, STAND_IN_CLIENT, startIdentityProviders, startWhatsAppCloudApi } from '#server/testing/identity-providers.ts';
import { csrfHeadersFor, openApiInstance } from '#server/testing/api-instance.ts';
import { openTestApi, type TestApi } from '#server/testing/test-api.ts';
import { rowCount } from '#server/testing/test-database.ts';

interface Browser {
  /** The flow cookie the link page set in this browser. */
  browserKey: string;
  /** The browser's session token, or null before it has one. */
  token: string | null;
  /** Who is signed in at the providers in this browser. */
  providerCookies: string;
}

function browser(token: string | null, who: { sub: string; name?: string; email?: string; audience?: 'wrong' }): Browser {
  const cookies = [`stand_in_user=${encodeURIComponent(who.sub)}`];
  if (who.name) cookies.push(`stand_in_name=${encodeURIComponent(who.name)}`);
  if (who.email) cookies.push(`stand_in_email=${encodeURIComponent(who.email)}`);
  if (who.audience) cookies.push(`stand_in_audience=${who.audience}`);
  return { browserKey: randomBytes(24).toString('base64url'), token, providerCookies: cookies.join('; ') };
}

/*
 * Social sign-in against real local stand-ins on loopback: the identity providers (OpenID Connect
 * and OAuth 2.0, oauth2-mock-server) and the WhatsApp Cloud API's message call. The link page's
 * part (starting a flow) is the service call the page makes; the rest goes over HTTP as a browser
 * and a provider would.
 */
describe('social sign-in API', () => {
  let api: TestApi;
  let providers: IdentityProviders;
  let whatsapp: Awaited<ReturnType<typeof startWhatsAppCloudApi>>;
  const appleKey = generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const WHATSAPP = { phoneNumberId: '1098765432', accessToken: 'cloud-api-test-token' };

  beforeAll(async () => {
    providers = await startIdentityProviders({ applePrivateKey: appleKey });
    whatsapp = await startWhatsAppCloudApi(WHATSAPP);
    const env: Record<string, string> = {
      OAUTH_APPLE_CLIENT_ID: STAND_IN_CLIENT.clientId,
      OAUTH_APPLE_TEAM_ID: 'TEAM123456',
      OAUTH_APPLE_KEY_ID: 'KEY1234567',
      OAUTH_APPLE_PRIVATE_KEY: appleKey,
      WHATSAPP_API_URL: whatsapp.url,
      WHATSAPP_PHONE_NUMBER_ID: WHATSAPP.phoneNumberId,
      WHATSAPP_ACCESS_TOKEN: WHATSAPP.accessToken,
    };
    for (const platform of ['google', 'apple', 'discord', 'facebook', 'x'] as const) {
      const prefix = `OAUTH_${platform.toUpperCase()}`;
      env[`${prefix}_ISSUER_URL`] = providers.issuers[platform];
      if (platform !== 'apple')
        Object.assign(env, { [`${prefix}_CLIENT_ID`]: STAND_IN_CLIENT.clientId, [`${prefix}_CLIENT_SECRET`]: STAND_IN_CLIENT.clientSecret });
    }
    api = await openTestApi(env);
  });
  afterAll(async () => {
    await api?.close();
    await providers?.stop();
    await whatsapp?.stop();
  });

  const CLIENT = { address: '127.0.0.1', userAgent: 'Mozilla/5.0 Chrome/140.0' };

  async function newGuest(address = '10.1.0.1') {
    const response = await api.call('POST', '/guest/login/', { body: await solvedChallenge(api.app), address });
    expect(response.statusCode, response.body).toBe(201);
    return response.json().data as { token: string; userInfo: { uid: number } };
  }

  /**
   * The pop-up's round trip: the link page starts the flow, the provider signs the browser's
   * account in and answers the callback (a redirect, or Apple's form_post); answers the message
   * the callback page posts.
   */
  async function popUp(platform: OAuthPlatform, b: Browser) {
    const flow = randomBytes(16).toString('base64url');
    const url = await api.services.social.startFlow({ platform, flowId: flow, sessionToken: b.token, browserKey: b.browserKey }, CLIENT);
    let location = url;
    for (let hop = 0; hop < 5; hop++) {
      const response = await fetch(location, { redirect: 'manual', headers: { cookie: b.providerCookies } });
      if (response.status === 200) {
        // Apple's form_post page: the fields its form would POST to the callback.
        const html = await response.text();
        const fields = Object.fromEntries([...html.matchAll(/name="(\w+)" value="([^"]*)"/g)].map((m) => [m[1], m[2]!.replaceAll('&#34;', '"')]));
        expect(html).toContain(`action="http://localhost:3000/oauth/${platform}/callback"`);
        return { platform, flow, ...fields } as { platform: string; flow: string; code: string; state: string; user?: string };
      }
      location = new URL(response.headers.get('location')!, location).href;
      if (location.startsWith('http://localhost:3000/')) break;
    }
    const callback = new URL(location);
    expect(callback.pathname).toBe(`/oauth/${platform}/callback`);
    expect(await api.services.social.flowIdOf(callback.searchParams.get('state'))).toBe(flow);
    return { platform, flow, code: callback.searchParams.get('code')!, state: callback.searchParams.get('state')! };
  }

  async function submit(kind: 'login' | 'link', platform: string, b: Browser, message: Record<string, unknown>, token = b.token) {
    const csrf = await api.csrfHeaders();
    return api.call('POST', `/oauth/${kind}/${platform}`, {
      token: token ?? undefined,
      body: kind === 'login' ? { ...message, login: 'force' } : message,
      headers: { ...csrf, cookie: `${csrf.cookie}; oauth_browser=${b.browserKey}`, 'user-agent': CLIENT.userAgent },
    });
  }

  async function signInWith(platform: OAuthPlatform, b: Browser) {
    const response = await submit('login', platform, b, await popUp(platform, b));
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data.data as { token: string; userInfo: { uid: number; nickname: string | null; isGuest: boolean; social_providers: string[] } };
  }

  const sendCode = (number: string, address = '10.2.0.1') => api.call('POST', '/oauth/whatsapp/code/', { body: { phone: number }, address });
  const lastCode = () => whatsapp.messages.at(-1)!;
  const me = async (token: string) => (await api.call('GET', '/member/info/', { token })).json().data?.userInfo;

  it('offers the configured providers and WhatsApp, and hides the others', async () => {
    expect(api.services.social.platforms()).toEqual(['google', 'apple', 'discord', 'facebook', 'x', 'whatsapp']);
    const fewer = await openApiInstance(api.database, { env: { OAUTH_X_CLIENT_ID: 'id', OAUTH_X_CLIENT_SECRET: 'secret', WHATSAPP_SENDER: 'off' } });
    try {
      expect(fewer.services.social.platforms()).toEqual(['x']);
      const refused = await fewer.app.inject({
        method: 'POST',
        url: '/serve/api/oauth/whatsapp/code/',
        headers: await csrfHeadersFor(fewer.app),
        payload: { phone: '+447700900199' },
      });
      expect(refused.statusCode).toBe(404);
      expect(refused.json().message).toBe('This sign-in method is not available.');
    } finally {
      await fewer.close();
    }
  });

  it('makes a guest the member in place, with the name the provider shares, and rotates the session', async () => {
    const guest = await newGuest();
    const b = browser(guest.token, { sub: 'google-ann', name: 'Ann Lee', email: 'ann@example.test' });
    const session = await signInWith('google', b);
    expect(session.userInfo).toMatchObject({ uid: guest.userInfo.uid, isGuest: false, nickname: 'Ann Lee', social_providers: ['google'] });
    expect(session.token).not.toBe(guest.token);
    expect(await me(guest.token)).toBeUndefined();
    expect(await me(session.token)).toMatchObject({ uid: guest.userInfo.uid });
  });

  it('signs a later guest into the member, merging the guest into it (decision 063)', async () => {
    const first = await newGuest();
    const member = await signInWith('discord', browser(first.token, { sub: 'discord-bo', name: 'Bo' }));
    await giveAccountHoldings(api, member.token);
    const second = await newGuest('10.1.0.2');
    await giveGuestHoldings(api, second.token);

    const again = await signInWith('discord', browser(second.token, { sub: 'discord-bo', name: 'Bo' }));
    expect(again.userInfo.uid).toBe(member.userInfo.uid);
    await expectGuestMerged(api, { guestToken: second.token, guestId: second.userInfo.uid, accountToken: again.token, accountId: member.userInfo.uid });
    // The member's other session still works: signing in elsewhere signs nobody out.
    expect(await me(member.token)).toMatchObject({ uid: member.userInfo.uid });
  });

  it('binds a provider to a member, refuses it for another member, and unbinds it', async () => {
    const owner = await newGuest();
    const password = (
      await api.call('PATCH', '/member/password/', { token: owner.token, body: { username: `own${Date.now() % 1e6}`, password: 'Tr1cky-Harbour-Lantern' } })
    ).json().data as { token: string };
    const b = browser(password.token, { sub: 'fb-cara', name: 'Cara' });
    const linked = await submit('link', 'facebook', b, await popUp('facebook', b));
    expect(linked.statusCode, linked.body).toBe(200);
    const session = linked.json().data.data as { token: string; userInfo: { social_providers: string[] } };
    expect(session.userInfo.social_providers).toEqual(['facebook']);
    expect(await me(password.token)).toBeUndefined();

    const other = await newGuest('10.1.0.3');
    const b2 = browser(other.token, { sub: 'fb-cara' });
    const refused = await submit('link', 'facebook', b2, await popUp('facebook', b2));
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe('This Facebook account is already linked to another member. Sign in with it instead, or unlink it there first.');
    expect((await me(other.token)).social_providers).toEqual([]);

    const unbound = await api.call('PATCH', '/member/social/unbind/facebook', { token: session.token, body: { platform: 'facebook' } });
    expect(unbound.statusCode, unbound.body).toBe(200);
    expect(unbound.json().data.userInfo.social_providers).toEqual([]);
    expect((await api.call('PATCH', '/member/social/unbind/facebook', { token: session.token, body: {} })).statusCode).toBe(404);
  });

  it('refuses to unbind the last way to sign in', async () => {
    const guest = await newGuest();
    const session = await signInWith('x', browser(guest.token, { sub: 'x-dee', name: 'Dee' }));
    expect(session.userInfo).toMatchObject({ nickname: 'Dee', social_providers: ['x'] });
    const refused = await api.call('PATCH', '/member/social/unbind/x', { token: session.token, body: { platform: 'x' } });
    expect(refused.statusCode).toBe(409);
    expect((await me(session.token)).social_providers).toEqual(['x']);
  });

  it('keeps the name Apple sends on the first sign-in only, from its form_post answer', async () => {
    const guest = await newGuest();
    const first = browser(guest.token, { sub: 'apple-eve', name: 'Eve Park', email: 'eve@privaterelay.example' });
    const message = await popUp('apple', first);
    expect(JSON.parse(message.user!)).toMatchObject({ name: { firstName: 'Eve', lastName: 'Park' } });
    const response = await submit('login', 'apple', first, message);
    expect(response.statusCode, response.body).toBe(200);
    const session = response.json().data.data as { token: string; userInfo: { uid: number; nickname: string } };
    expect(session.userInfo.nickname).toBe('Eve Park');

    const later = await newGuest('10.1.0.4');
    const second = browser(later.token, { sub: 'apple-eve', name: 'Eve Park' });
    const again = await popUp('apple', second);
    expect(again.user).toBeUndefined();
    const signedIn = await submit('login', 'apple', second, again);
    expect(signedIn.json().data.data.userInfo).toMatchObject({ uid: session.userInfo.uid, nickname: 'Eve Park' });
  });

  describe('refusals', () => {
    it('refuses a forged state', async () => {
      const guest = await newGuest();
      const b = browser(guest.token, { sub: 'google-forged' });
      const message = await popUp('google', b);
      const response = await submit('login', 'google', b, { ...message, state: randomBytes(32).toString('base64url') });
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toBe('This sign-in was not started here, or it took too long. Please try again.');
      expect(await me(guest.token)).toMatchObject({ isGuest: true });
    });

    it('refuses a state from another session, and from another browser', async () => {
      const victim = await newGuest();
      const attacker = await newGuest('10.1.0.5');
      const b = browser(attacker.token, { sub: 'google-attacker' });
      const message = await popUp('google', b);
      // The attacker's answer submitted with the victim's session (login CSRF): refused.
      const withVictim = await submit('login', 'google', b, message, victim.token);
      expect(withVictim.statusCode).toBe(400);
      expect(await me(victim.token)).toMatchObject({ isGuest: true, social_providers: [] });

      const other = browser(attacker.token, { sub: 'google-attacker' });
      const fresh = await popUp('google', other);
      const fromElsewhere = await submit('login', 'google', { ...other, browserKey: randomBytes(24).toString('base64url') }, fresh);
      expect(fromElsewhere.statusCode).toBe(400);
    });

    it('refuses a replayed code and state', async () => {
      const guest = await newGuest();
      const b = browser(guest.token, { sub: 'google-replay' });
      const message = await popUp('google', b);
      const first = await submit('login', 'google', b, message);
      expect(first.statusCode, first.body).toBe(200);
      const replay = await submit('login', 'google', { ...b, token: first.json().data.data.token }, message);
      expect(replay.statusCode).toBe(400);
    });

    it('records a sign-in refused for a disabled account against it, for the Console, and nothing for a refusal that names no account', async () => {
      const first = await newGuest();
      const member = await signInWith('google', browser(first.token, { sub: 'google-disabled', name: 'Dee' }));
      const db = api.database.db;
      const all = () => rowCount(db, 'sign_in_failures');
      const rows = () => db.selectFrom('sign_in_failures').select(['identifier', 'method']).where('user_id', '=', member.userInfo.uid).execute();
      await db.updateTable('users').set({ disabled_at: new Date().toISOString() }).where('id', '=', member.userInfo.uid).execute();

      // A forged state proves no provider account: refused, nothing written.
      const before = await all();
      const forger = await newGuest();
      const forged = browser(forger.token, { sub: 'google-disabled' });
      const message = await popUp('google', forged);
      expect((await submit('login', 'google', forged, { ...message, state: randomBytes(32).toString('base64url') })).statusCode).toBe(400);
      expect(await all()).toBe(before);

      // The provider confirms the account, which is disabled: refused, and recorded against it.
      for (const caller of [await newGuest(), null]) {
        const b = browser(caller?.token ?? null, { sub: 'google-disabled' });
        const refused = await submit('login', 'google', b, await popUp('google', b));
        expect(refused.statusCode, refused.body).toBe(403);
        expect(refused.json().error).toBe('account_disabled');
      }
      expect(await rows()).toEqual([
        { identifier: 'google google-disabled', method: 'google' },
        { identifier: 'google google-disabled', method: 'google' },
      ]);
      expect(await all()).toBe(before + 2);
    });

    it('refuses an ID token issued to another client', async () => {
      const guest = await newGuest();
      const b = browser(guest.token, { sub: 'google-mallory', audience: 'wrong' });
      const response = await submit('login', 'google', b, await popUp('google', b));
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toBe('Google did not confirm the sign-in. Please try again.');
      expect(await me(guest.token)).toMatchObject({ isGuest: true, social_providers: [] });
    });

    it('refuses a message for another platform than the call', async () => {
      const guest = await newGuest();
      const b = browser(guest.token, { sub: 'google-mixed' });
      const message = await popUp('google', b);
      expect((await submit('login', 'discord', b, { ...message, platform: 'google' })).statusCode).toBe(400);
      expect((await submit('login', 'discord', b, { ...message, platform: 'discord' })).statusCode).toBe(400);
    });

    it('answers 404 for an unknown platform and 400 for a flow without a flow id', async () => {
      expect((await api.call('POST', '/oauth/login/myspace', { body: { code: 'x' } })).statusCode).toBe(422);
      await expect(api.services.social.startFlow({ platform: 'google', flowId: null, sessionToken: null, browserKey: 'k' }, CLIENT)).rejects.toMatchObject({
        code: 'bad_request',
      });
      await expect(
        api.services.social.startFlow({ platform: 'myspace', flowId: 'a'.repeat(22), sessionToken: null, browserKey: 'k' }, CLIENT),
      ).rejects.toMatchObject({ code: 'not_found' });
    });
  });

  describe('WhatsApp', () => {
    const phone = '+447700900123';

    it('sends an authentication template and signs in with the code once', async () => {
      const sent = await sendCode('+44 7700 900123');
      expect(sent.statusCode, sent.body).toBe(200);
      expect(sent.json().data).toEqual({ expiresInSeconds: 300 });
      expect(lastCode()).toMatchObject({ to: '447700900123', template: 'sign_in_code' });
      expect(lastCode().code).toMatch(/^\d{6}$/);

      const guest = await newGuest();
      const b = browser(guest.token, { sub: 'unused' });
      const response = await submit('login', 'whatsapp', b, { platform: 'whatsapp', phone, code: lastCode().code });
      expect(response.statusCode, response.body).toBe(200);
      const session = response.json().data.data as { token: string; userInfo: { uid: number; social_providers: string[]; isGuest: boolean } };
      expect(session.userInfo).toMatchObject({ uid: guest.userInfo.uid, social_providers: ['whatsapp'], isGuest: false });
      // Single use.
      const replay = await submit('login', 'whatsapp', b, { platform: 'whatsapp', phone, code: lastCode().code }, session.token);
      expect(replay.statusCode).toBe(400);
      // The stored code is a keyed hash, not the digits.
      await sendCode(phone);
      const row = await api.services.database.db
        .selectFrom('social_challenges')
        .select('challenge')
        .where('id', '=', `whatsapp-code:${phone}`)
        .executeTakeFirstOrThrow();
      expect(row.challenge).not.toContain(lastCode().code);
      expect(row.challenge).toMatch(/^[0-9a-f]{64}$/);
    });

    it('merges a guest into the member a number signs in to (decision 063)', async () => {
      const number = '+447700900177';
      await sendCode(number);
      const first = await newGuest('10.1.0.3');
      const member = (
        await submit('login', 'whatsapp', browser(first.token, { sub: 'unused' }), { platform: 'whatsapp', phone: number, code: lastCode().code })
      ).json().data.data as { token: string; userInfo: { uid: number } };
      await giveAccountHoldings(api, member.token);
      const guest = await newGuest('10.1.0.4');
      await giveGuestHoldings(api, guest.token);
      await sendCode(number);
      const response = await submit('login', 'whatsapp', browser(guest.token, { sub: 'unused' }), {
        platform: 'whatsapp',
        phone: number,
        code: lastCode().code,
      });
      expect(response.statusCode, response.body).toBe(200);
      const session = response.json().data.data as { token: string; userInfo: { uid: number } };
      expect(session.userInfo.uid).toBe(member.userInfo.uid);
      await expectGuestMerged(api, { guestToken: guest.token, guestId: guest.userInfo.uid, accountToken: session.token, accountId: member.userInfo.uid });
    });

    it('forgets a code after five wrong guesses', async () => {
      const number = '+447700900124';
      await sendCode(number, '10.2.0.2');
      const right = lastCode().code;
      const wrong = right === '000000' ? '111111' : '000000';
      const b = browser(null, { sub: 'unused' });
      for (let i = 0; i < 5; i++) expect((await submit('login', 'whatsapp', b, { phone: number, code: wrong })).statusCode).toBe(400);
      expect((await submit('login', 'whatsapp', b, { phone: number, code: right })).statusCode).toBe(400);
      // Each refusal is noted for operators (decision 098): the number, the method, no member behind it.
      const failures = await api.services.database.db.selectFrom('sign_in_failures').selectAll().where('identifier', '=', number).execute();
      expect(failures).toHaveLength(6);
      expect(failures.every((f) => f.method === 'whatsapp' && f.user_id === null)).toBe(true);
    });

    it('checks no more than five guesses of a code, even when twenty arrive at once', async () => {
      const number = '+447700900127';
      await sendCode(number, '10.2.0.5');
      const right = lastCode().code;
      const wrong = right === '000000' ? '111111' : '000000';
      const csrf = await api.csrfHeaders();
      const guess = (code: string, address: string) =>
        api.call('POST', '/oauth/login/whatsapp', { body: { phone: number, code, login: 'force' }, headers: csrf, address });
      const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => guess(wrong, `10.2.2.${i}`)));
      expect(answers.map((a) => a.statusCode)).toEqual(Array.from({ length: 20 }, () => 400));
      // Five guesses were counted, and the code went with the fifth: the right one no longer works.
      expect((await guess(right, '10.2.2.99')).statusCode).toBe(400);
      expect(
        await api.services.database.db.selectFrom('social_challenges').select('id').where('id', '=', `whatsapp-code:${number}`).executeTakeFirst(),
      ).toBeUndefined();
    });

    it('charges a client’s attempts before checking them, so many at once cannot all pass the limit', async () => {
      const csrf = await api.csrfHeaders();
      const answers = await Promise.all(
        Array.from({ length: 35 }, (_, i) =>
          api.call('POST', '/oauth/login/whatsapp', {
            body: { phone: `+4477009002${String(i).padStart(2, '0')}`, code: '123456', login: 'force' },
            headers: csrf,
            address: '10.2.3.1',
          }),
        ),
      );
      const statuses = answers.map((a) => a.statusCode);
      expect(statuses.filter((s) => s === 400)).toHaveLength(SOCIAL_LIMITS.refusedAddress.limit);
      expect(statuses.filter((s) => s === 429)).toHaveLength(35 - SOCIAL_LIMITS.refusedAddress.limit);
    });

    it('limits codes per number', async () => {
      const number = '+447700900125';
      for (let i = 0; i < 5; i++) expect((await sendCode(number, `10.2.1.${i}`)).statusCode).toBe(200);
      const limited = await sendCode(number, '10.2.1.9');
      expect(limited.statusCode).toBe(429);
    });

    it('tells the person when WhatsApp does not take the message, and keeps no code', async () => {
      whatsapp.failNext();
      const number = '+447700900126';
      const response = await sendCode(number, '10.2.0.3');
      expect(response.statusCode).toBe(503);
      expect(response.json().message).toBe('The code could not be sent through WhatsApp. Please try again in a moment.');
      expect(
        await api.services.database.db.selectFrom('social_challenges').select('id').where('id', '=', `whatsapp-code:${number}`).executeTakeFirst(),
      ).toBeUndefined();
    });

    it('refuses a malformed number', async () => {
      const response = await sendCode('07700 900123', '10.2.0.4');
      expect(response.statusCode).toBe(422);
    });
  });
});
