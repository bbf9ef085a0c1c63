import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, type JWTPayload, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGameBackend, VAULT_RULES } from './game-backend.ts';

// The backend against a stand-in portal that publishes a key set made here, over real HTTP, with
// tokens shaped like the portal's (server/features/games/game-tokens.ts).
const APP_ID = 42;
const GAME_ORIGIN = 'http://number-vault.games.localhost:3001';

type KeyPair = Awaited<ReturnType<typeof generateKeyPair>>;
let portalKey: KeyPair;
let strangerKey: KeyPair;
let jwksServer: Server;
let backend: Server;
let portalOrigin: string;
let backendUrl: string;
let jwksRequests = 0;

async function listen(server: Server): Promise<string> {
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function token(
  overrides: { key?: KeyPair; kid?: string; audience?: string; issuer?: string; expiresIn?: number; subject?: string } = {},
): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const claims: JWTPayload = { nickname: 'Vera', guest: true };
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'EdDSA', kid: overrides.kid ?? 'portal-key', typ: 'JWT' })
    .setIssuer(overrides.issuer ?? portalOrigin)
    .setAudience(overrides.audience ?? `app:${APP_ID}`)
    .setSubject(overrides.subject ?? '7')
    .setIssuedAt(now - 60)
    .setExpirationTime(now + (overrides.expiresIn ?? 600))
    .sign((overrides.key ?? portalKey).privateKey);
}

async function call(path: string, init: { method?: string; token?: string; body?: unknown; origin?: string } = {}) {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (init.token) headers.authorization = `Bearer ${init.token}`;
  if (init.origin) headers.origin = init.origin;
  const response = await fetch(`${backendUrl}${path}`, {
    method: init.method ?? 'POST',
    headers,
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : null };
}

beforeAll(async () => {
  portalKey = await generateKeyPair('EdDSA', { crv: 'Ed25519' });
  strangerKey = await generateKeyPair('EdDSA', { crv: 'Ed25519' });
  const publicJwk = { ...(await exportJWK(portalKey.publicKey)), kid: 'portal-key', alg: 'EdDSA', use: 'sig' };
  jwksServer = createServer((request, response) => {
    if (request.url !== '/.well-known/jwks.json') return response.writeHead(404).end();
    jwksRequests += 1;
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [publicJwk] }));
  });
  portalOrigin = await listen(jwksServer);
  backend = createGameBackend({ portalOrigin, appId: APP_ID, gameOrigin: GAME_ORIGIN });
  backendUrl = await listen(backend);
});

afterAll(async () => {
  await new Promise((done) => backend.close(done));
  await new Promise((done) => jwksServer.close(done));
});

describe('the example game backend', () => {
  it("accepts the portal's token, keeps the code to itself and answers higher or lower until the vault opens", async () => {
    const player = await token({ subject: '101' });
    const round = await call('/round', { token: player });
    expect(round.status).toBe(200);
    expect(round.body).toEqual({ ...VAULT_RULES, triesLeft: VAULT_RULES.tries, stats: { played: 1, won: 0, best: null } });
    expect(jwksRequests).toBeGreaterThan(0);

    // Halving the range always opens a vault of 1–100 within 7 tries.
    let [low, high] = [VAULT_RULES.min, VAULT_RULES.max];
    let answer: { answer: string; triesLeft: number; over: boolean; code: number | null; stats: unknown } | undefined;
    for (let turn = 0; turn < VAULT_RULES.tries; turn++) {
      const guess = Math.floor((low + high) / 2);
      const response = await call('/guess', { token: player, body: { guess } });
      expect(response.status).toBe(200);
      answer = response.body;
      expect(answer!.triesLeft).toBe(VAULT_RULES.tries - turn - 1);
      if (answer!.answer === 'correct') {
        expect(answer!.code).toBe(guess);
        break;
      }
      expect(answer!.over).toBe(false);
      expect(answer!.code).toBeNull();
      if (answer!.answer === 'higher') low = guess + 1;
      else high = guess - 1;
    }
    expect(answer).toMatchObject({ answer: 'correct', over: true, stats: { played: 1, won: 1 } });

    // The round is over: another guess needs a new round.
    expect((await call('/guess', { token: player, body: { guess: 50 } })).status).toBe(409);
    expect((await call('/stats', { method: 'GET', token: player })).body).toEqual({
      stats: { played: 1, won: 1, best: VAULT_RULES.tries - answer!.triesLeft },
    });
    // Another player has records of their own.
    expect((await call('/stats', { method: 'GET', token: await token({ subject: '102' }) })).body).toEqual({ stats: { played: 0, won: 0, best: null } });
  });

  it('tells the code when the tries run out', async () => {
    const player = await token({ subject: '103' });
    await call('/round', { token: player });
    let last: { answer: string; over: boolean; code: number | null } | undefined;
    // Guessing one end over and over can hit the code only when the code is that end.
    for (let turn = 0; turn < VAULT_RULES.tries && !last?.over; turn++) last = (await call('/guess', { token: player, body: { guess: 1 } })).body;
    expect(last!.over).toBe(true);
    expect(last!.code).toBeGreaterThanOrEqual(1);
    if (last!.answer !== 'correct') expect(last!.code).toBeGreaterThan(1);
  });

  it('refuses a missing, malformed, expired, foreign-audience, foreign-issuer or foreign-key token with 401', async () => {
    const refusals = {
      missing: undefined,
      malformed: 'not-a-token',
      expired: await token({ expiresIn: -30 }),
      'another game': await token({ audience: 'app:43' }),
      'another portal': await token({ issuer: 'http://127.0.0.1:9' }),
      'a key the portal does not publish': await token({ key: strangerKey }),
      'a foreign key under the portal key id': await token({ key: strangerKey, kid: 'portal-key' }),
    };
    for (const [name, bad] of Object.entries(refusals)) {
      const response = await call('/round', { token: bad });
      expect(response.status, name).toBe(401);
      expect(response.body, name).toMatchObject({ error: 'unauthenticated' });
    }
  });

  it('checks the guess', async () => {
    const player = await token({ subject: '104' });
    await call('/round', { token: player });
    for (const guess of [0, 101, 2.5, '50', null]) expect((await call('/guess', { token: player, body: { guess } })).status, String(guess)).toBe(400);
  });

  it("answers CORS for the game's origin only", async () => {
    const preflight = await fetch(`${backendUrl}/guess`, {
      method: 'OPTIONS',
      headers: { origin: GAME_ORIGIN, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization,content-type' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe(GAME_ORIGIN);
    expect(preflight.headers.get('access-control-allow-headers')).toMatch(/Authorization/i);

    const fromGame = await call('/round', { token: await token(), origin: GAME_ORIGIN });
    expect(fromGame.status).toBe(200);
    expect(fromGame.headers.get('access-control-allow-origin')).toBe(GAME_ORIGIN);

    for (const origin of ['http://localhost:3000', 'http://snake.games.localhost:3001', 'null']) {
      const other = await fetch(`${backendUrl}/round`, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'POST' } });
      expect(other.status, origin).toBe(403);
      expect(other.headers.get('access-control-allow-origin'), origin).toBeNull();
      expect((await call('/round', { token: await token(), origin })).status, origin).toBe(403);
    }
  });
});
