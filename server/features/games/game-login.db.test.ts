import { createRemoteJWKSet, decodeJwt, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GameTokens } from '#server/features/games/game-tokens.ts';
import { appIdOf, openTestApi, type TestApi } from '#server/testing/test-api.ts';
import { testPlayers } from '#server/testing/test-players.ts';

/** Game sign-in through the game bridge's API (decision 064): tokens a game's backend verifies with the published keys. */
describe('game sign-in', () => {
  let api: TestApi;
  let appId: number;
  let issuer: string;

  beforeAll(async () => {
    api = await openTestApi();
    appId = await appIdOf(api.database, 'alpha');
    issuer = api.config.publicOrigin;
  });
  afterAll(() => api?.close());

  const { newGuest, newMember } = testPlayers(() => api, 8);

  const publishedKeys = async () => (await api.call('GET', '/game/jwks.json')).json();

  it('issues game tokens a game’s backend verifies with the published keys', async () => {
    const member = await newMember();
    const login = await api.call('POST', `/game/login/${appId}`, { token: member.token });
    expect(login.statusCode, login.body).toBe(200);
    const { token, user } = login.json().data as { token: string; user: { uid: number } };
    const jwks = await publishedKeys();
    expect(jwks.keys[0]).toMatchObject({ kty: 'OKP', crv: 'Ed25519', alg: 'EdDSA', use: 'sig' });
    expect(jwks.keys[0].d).toBeUndefined();
    const claims = await GameTokens.verify(token, jwks, { issuer: 'http://localhost:3000', appId });
    expect(claims).toMatchObject({ sub: String(user.uid), aud: `app:${appId}`, guest: false });
    await expect(GameTokens.verify(token, jwks, { issuer: 'http://localhost:3000', appId: appId + 1 })).rejects.toThrow();
    const tampered = `${token.slice(0, token.lastIndexOf('.') - 4)}AAAA${token.slice(token.lastIndexOf('.'))}`;
    await expect(GameTokens.verify(tampered, jwks, { issuer: 'http://localhost:3000', appId })).rejects.toThrow();
  });

  it('tells the game who plays: a guest is named a guest, and the answer matches the token', async () => {
    const guest = await newGuest();
    const login = await api.call('POST', `/game/login/${appId}`, { token: guest.token });
    expect(login.statusCode, login.body).toBe(200);
    const data = login.json().data as { token: string; expiresAt: string; user: { uid: number; nickname: string | null; isGuest: boolean } };
    expect(data.user).toMatchObject({ uid: guest.userInfo.uid, isGuest: true });
    const claims = await GameTokens.verify(data.token, await publishedKeys(), { issuer, appId });
    expect(claims).toMatchObject({ sub: String(guest.userInfo.uid), guest: true, nickname: data.user.nickname });
    expect(data.expiresAt).toBe(new Date(claims.exp! * 1000).toISOString());
  });

  it('gives every sign-in a token of its own: a replayed one is known by its id, and is no session for the portal', async () => {
    const member = await newMember();
    const tokens = await Promise.all(
      [1, 2, 3].map(async () => (await api.call('POST', `/game/login/${appId}`, { token: member.token })).json().data.token as string),
    );
    const keys = await publishedKeys();
    const ids = await Promise.all(tokens.map(async (token) => (await GameTokens.verify(token, keys, { issuer, appId })).jti));
    expect(new Set(ids).size).toBe(3);
    // Signatures stand alone (nothing is stored): the same token verifies again until it expires,
    // so it is the game's backend that refuses an id it has seen.
    expect(decodeJwt(tokens[0]!).jti).toBe(ids[0]);
    await expect(GameTokens.verify(tokens[0]!, keys, { issuer, appId })).resolves.toMatchObject({ jti: ids[0] });
    // Replayed against the portal itself, a game token opens nothing.
    for (const [method, path] of [
      ['GET', '/member/info/'],
      ['POST', `/game/login/${appId}`],
      ['GET', `/game/saves/${appId}/progress`],
      ['GET', '/member/orders/'],
    ] as const) {
      expect((await api.call(method, path, { token: tokens[0] })).statusCode, path).toBe(401);
    }
  });

  it('asks for a session and a published game', async () => {
    expect((await api.call('POST', `/game/login/${appId}`)).statusCode).toBe(401);
    const guest = await newGuest();
    const unknown = await api.call('POST', '/game/login/999999', { token: guest.token });
    expect(unknown.statusCode).toBe(404);
    expect((await api.call('POST', '/game/login/0', { token: guest.token })).statusCode).toBe(422);
  });

  it('publishes its keys for an hour to anyone, as a plain key set', async () => {
    const response = await api.call('GET', '/game/jwks.json');
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('public, max-age=3600');
    expect(response.headers['content-type']).toMatch(/^application\/jwk-set\+json/);
    expect(response.json()).toEqual(api.services.games.jwks());
  });

  it('is verified as a game’s backend does it, with jose fetching the key set over HTTP; another game’s, another issuer’s and an expired token are refused', async () => {
    const address = await api.app.listen({ port: 0, host: '127.0.0.1' });
    const keys = createRemoteJWKSet(new URL('/serve/api/game/jwks.json', address));
    const member = await newMember();
    const { token } = (await api.call('POST', `/game/login/${appId}`, { token: member.token })).json().data as { token: string };
    const { payload } = await jwtVerify(token, keys, { issuer, audience: `app:${appId}`, algorithms: ['EdDSA'] });
    expect(payload.sub).toBe(String(member.userInfo.uid));
    await expect(jwtVerify(token, keys, { issuer, audience: `app:${appId + 1}` })).rejects.toMatchObject({
      code: 'ERR_JWT_CLAIM_VALIDATION_FAILED',
      claim: 'aud',
    });
    await expect(jwtVerify(token, keys, { issuer: 'https://elsewhere.example', audience: `app:${appId}` })).rejects.toMatchObject({ claim: 'iss' });
    await expect(jwtVerify(token, keys, { issuer, audience: `app:${appId}`, currentDate: new Date(Date.now() + 11 * 60_000) })).rejects.toMatchObject({
      code: 'ERR_JWT_EXPIRED',
    });
  });
});
