import { decodeJwt, decodeProtectedHeader } from 'jose';
import { describe, expect, it } from 'vitest';
import { GAME_TOKEN_TTL_SECONDS, GameTokens } from './game-tokens.ts';

const SECRET = 'a-test-secret-that-is-long-enough-0123456789';
const ISSUER = 'https://play.example';
const claims = { userId: 42, appId: 7, nickname: 'Ada', isGuest: false };

describe('game tokens', () => {
  it('are EdDSA JWTs for one app and player, valid ten minutes from their issue', async () => {
    const tokens = new GameTokens(SECRET, ISSUER);
    const now = new Date();
    const { token, expiresAt } = await tokens.issue(claims, now);
    expect(decodeProtectedHeader(token)).toEqual({ alg: 'EdDSA', kid: tokens.jwks().keys[0]!.kid, typ: 'JWT' });
    const payload = await GameTokens.verify(token, tokens.jwks(), { issuer: ISSUER, appId: 7 });
    expect(payload).toMatchObject({ iss: ISSUER, aud: 'app:7', sub: '42', nickname: 'Ada', guest: false });
    expect(payload.exp! - payload.iat!).toBe(GAME_TOKEN_TTL_SECONDS);
    expect(expiresAt).toBe(new Date(payload.exp! * 1000).toISOString());
  });

  it('after a rotation publish the previous key too, never signing with it: a token issued before verifies until it expires', async () => {
    const before = new GameTokens(SECRET, ISSUER);
    const old = await before.issue(claims, new Date());
    const rotated = new GameTokens(`${SECRET}-rotated`, ISSUER, [SECRET]);
    expect(rotated.jwks().keys.map((key) => key.kid)).toEqual([new GameTokens(`${SECRET}-rotated`, ISSUER).jwks().keys[0]!.kid, before.jwks().keys[0]!.kid]);
    await expect(GameTokens.verify(old.token, rotated.jwks(), { issuer: ISSUER, appId: 7 })).resolves.toMatchObject({ sub: '42' });
    const fresh = await rotated.issue(claims, new Date());
    expect(decodeProtectedHeader(fresh.token).kid).toBe(rotated.jwks().keys[0]!.kid);
    // Without the previous secret, the old token is refused.
    await expect(GameTokens.verify(old.token, new GameTokens(`${SECRET}-rotated`, ISSUER).jwks(), { issuer: ISSUER, appId: 7 })).rejects.toThrow();
  });

  it('publish only the public half of the key', () => {
    const [key, ...others] = new GameTokens(SECRET, ISSUER).jwks().keys;
    expect(others).toEqual([]);
    expect(key).toMatchObject({ kty: 'OKP', crv: 'Ed25519', alg: 'EdDSA', use: 'sig' });
    expect(key!.d).toBeUndefined();
  });

  it('carry an id of their own, so that a game’s backend can refuse one presented twice', async () => {
    const tokens = new GameTokens(SECRET, ISSUER);
    const now = new Date();
    const ids = await Promise.all(Array.from({ length: 20 }, async () => decodeJwt((await tokens.issue(claims, now)).token).jti));
    expect(new Set(ids).size).toBe(20);
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9_-]{16}$/);
  });

  it('are refused once expired, for another app, from another issuer, and when signed with another secret', async () => {
    const tokens = new GameTokens(SECRET, ISSUER);
    const expired = await tokens.issue(claims, new Date(Date.now() - (GAME_TOKEN_TTL_SECONDS + 60) * 1000));
    await expect(GameTokens.verify(expired.token, tokens.jwks(), { issuer: ISSUER, appId: 7 })).rejects.toMatchObject({ code: 'ERR_JWT_EXPIRED' });
    const { token } = await tokens.issue(claims, new Date());
    await expect(GameTokens.verify(token, tokens.jwks(), { issuer: ISSUER, appId: 8 })).rejects.toMatchObject({
      code: 'ERR_JWT_CLAIM_VALIDATION_FAILED',
      claim: 'aud',
    });
    await expect(GameTokens.verify(token, tokens.jwks(), { issuer: 'https://elsewhere.example', appId: 7 })).rejects.toMatchObject({ claim: 'iss' });
    const elsewhere = new GameTokens(`${SECRET}-rotated`, ISSUER);
    expect(elsewhere.jwks().keys[0]!.kid).not.toBe(tokens.jwks().keys[0]!.kid);
    await expect(GameTokens.verify(token, elsewhere.jwks(), { issuer: ISSUER, appId: 7 })).rejects.toThrow();
  });

  it('are signed alike by every instance with the same secret', async () => {
    const first = new GameTokens(SECRET, ISSUER);
    const second = new GameTokens(SECRET, ISSUER);
    expect(second.jwks()).toEqual(first.jwks());
    const { token } = await first.issue(claims, new Date());
    await expect(GameTokens.verify(token, second.jwks(), { issuer: ISSUER, appId: 7 })).resolves.toMatchObject({ sub: '42' });
  });
});
