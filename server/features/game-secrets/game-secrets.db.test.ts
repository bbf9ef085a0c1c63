import { execFile } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyWebhook } from '../../../docs/examples/verify-webhook.ts';
import { GameTokens } from '../games/game-tokens.ts';
import { backendSignature } from '#server/lib/backend-signatures.ts';
import { type ApiInstance, openApiInstance } from '#server/testing/api-instance.ts';
import { insertReviewedBuild } from '#server/testing/developer-games.ts';
import { appIdOf, openTestApi, type TestApi } from '#server/testing/test-api.ts';
import { type TestPlayer, testPlayers } from '#server/testing/test-players.ts';

const ROOT = join(import.meta.dirname, '../../..');
const SECRET_A = 'a'.repeat(20) + 'first-app-secret-1234';
const SECRET_B = 'b'.repeat(20) + 'second-app-secret-567';

/** A game's backend on 127.0.0.1 that keeps what arrives. */
async function startReceiver() {
  const received: { signature: string; body: string }[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ signature: String(request.headers['playport-signature']), body: Buffer.concat(chunks).toString('utf8') });
      response.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/playport/webhook`;
  return { url, received, stop: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** A signed call of the game's backend (docs/sdk/backend-calls.md) to an instance, at `seconds` (Unix). */
function backendCall(instance: Pick<ApiInstance, 'app'>, appId: number, secret: string, seconds: number, nonce: string) {
  const raw = JSON.stringify({ orderId: 'nosuchorder0', nonce });
  const timestamp = String(seconds);
  return instance.app.inject({
    method: 'POST',
    url: `/serve/api/game/backend/${appId}/purchases/verify`,
    headers: { 'content-type': 'application/json', 'playport-timestamp': timestamp, 'playport-signature': `v1=${backendSignature(secret, timestamp, raw)}` },
    payload: raw,
  });
}
/** 404 (no such order) means the signature was accepted; 401 that it was refused. */
const accepted = (status: number) => status === 404;

/*
 * Games' own secrets (issue 35, point 7; decision 110): random, sealed under APP_SECRET, so a
 * rotation of APP_SECRET with APP_SECRET_PREVIOUS keeps game tokens, webhooks, backend calls and
 * preview links working; a studio rotates its secrets in the Studio with a day of overlap.
 */
describe('game secrets across rotations', () => {
  let api: TestApi;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let appId: number;
  let owner: TestPlayer;
  const { newMember } = testPlayers(() => api, 120);

  beforeAll(async () => {
    receiver = await startReceiver();
    api = await openTestApi({ APP_SECRET: SECRET_A });
    // What every server process does at start-up (server/main.ts).
    await api.services.gameSecrets.prepare();
    appId = await appIdOf(api.database, 'alpha');
    owner = await newMember();
    await api.services.developers.saveProfile(owner.userInfo.uid, { studioName: 'Key Studio', contactEmail: 'dev@keys.test' });
    await api.services.database.db.updateTable('apps').set({ developer_user_id: owner.userInfo.uid }).where('id', '=', appId).execute();
  });
  afterAll(async () => {
    await api?.close();
    await receiver?.stop();
  });

  it('keeps game tokens, webhook signatures, backend calls and preview links working when APP_SECRET changes with APP_SECRET_PREVIOUS set', async () => {
    const webhook = await api.call('PUT', `/studio/games/${appId}/webhook`, { token: owner.token, body: { url: receiver.url } });
    const webhookSecret = webhook.json().data.secret as string;
    const made = await api.call('POST', `/studio/games/${appId}/backend-secret`, { token: owner.token });
    expect(made.statusCode, made.body).toBe(200);
    const backendSecret = made.json().data.secret as string;
    expect(backendSecret).toMatch(/^pps_[\w-]{43}$/);
    const login = await api.call('POST', `/game/login/${appId}`, { token: owner.token });
    const gameToken = login.json().data.token as string;
    const build = await insertReviewedBuild(api.database.db, {
      appId,
      version: 1,
      status: 'approved',
      uploadedBy: owner.userInfo.uid,
      reviewedBy: owner.userInfo.uid,
    });
    const previewLabel = api.services.builds.previewLabel(build.id);
    const previewsHost = new URL(api.config.previewsOrigin).hostname;
    expect(accepted((await backendCall(api, appId, backendSecret, Math.floor(Date.now() / 1000), 'before')).statusCode)).toBe(true);

    // The operator changes APP_SECRET and keeps the old one as APP_SECRET_PREVIOUS; the new server prepares at start-up.
    const rotated = await openApiInstance(api.database, { env: { APP_SECRET: SECRET_B, APP_SECRET_PREVIOUS: SECRET_A } });
    try {
      expect(await rotated.services.gameSecrets.prepare()).toMatchObject({ resealed: 2, keyInUse: 'current' });
      // A game token issued before verifies with the keys the portal now publishes.
      const jwks = (await rotated.app.inject({ method: 'GET', url: '/serve/api/game/jwks.json' })).json();
      await expect(GameTokens.verify(gameToken, jwks, { issuer: api.config.publicOrigin, appId })).resolves.toMatchObject({ sub: String(owner.userInfo.uid) });
      // The backend's signed calls with the secret it holds.
      expect(accepted((await backendCall(rotated, appId, backendSecret, Math.floor(Date.now() / 1000), 'after')).statusCode)).toBe(true);
      // Webhooks signed so that the receiver's secret verifies them, with the guide's code.
      const sent = await rotated.services.webhooks.sendTest({ userId: owner.userInfo.uid, tokenId: 0 }, appId);
      expect(sent).toMatchObject({ status: 'delivered', lastStatusCode: 200 });
      const last = receiver.received.at(-1)!;
      expect(verifyWebhook(webhookSecret, last.signature, last.body)).toBe(true);
      // A preview link made before: the QA page and the preview host still open the build.
      expect((await rotated.services.builds.buildOfPreview(previewLabel))?.id).toBe(build.id);
      expect(await rotated.services.builds.previewHost(`${previewLabel}.${previewsHost}`)).toMatchObject({ appId, buildId: build.id });
      expect(await rotated.services.builds.previewConfig('en', 'alpha', previewLabel)).not.toBeNull();
    } finally {
      await rotated.close();
    }

    // Once APP_SECRET_PREVIOUS is removed, the secrets sealed again at start-up still open: nothing was left on the old key.
    const later = await openApiInstance(api.database, { env: { APP_SECRET: SECRET_B } });
    try {
      expect(await later.services.gameSecrets.prepare()).toMatchObject({ resealed: 0, keyInUse: 'current' });
      expect(accepted((await backendCall(later, appId, backendSecret, Math.floor(Date.now() / 1000), 'later')).statusCode)).toBe(true);
      await later.services.webhooks.sendTest({ userId: owner.userInfo.uid, tokenId: 0 }, appId);
      const last = receiver.received.at(-1)!;
      expect(verifyWebhook(webhookSecret, last.signature, last.body)).toBe(true);
      // The database holds them sealed, not in clear.
      const rows = await later.services.database.db.selectFrom('game_credentials').select(['sealed']).where('app_id', '=', appId).execute();
      for (const row of rows) expect([backendSecret, webhookSecret].some((secret) => row.sealed.includes(secret))).toBe(false);
    } finally {
      await later.close();
    }
  });

  it('stores the secrets derived from APP_SECRET before migration 0028 at start-up, so integrations built on them keep working', async () => {
    const beta = await appIdOf(api.database, 'beta');
    const { db } = api.services.database;
    await db.updateTable('apps').set({ developer_user_id: owner.userInfo.uid }).where('id', '=', beta).execute();
    const now = new Date().toISOString();
    // What a studio holds from before: the secrets derived as decisions 092 and 100 described them.
    await db.insertInto('game_secrets').values({ app_id: beta, generation: 3, created_at: now }).execute();
    await db.insertInto('game_webhooks').values({ app_id: beta, url: receiver.url, secret_generation: 2, created_at: now, updated_at: now }).execute();
    const derived = (label: string, generation: number) => createHmac('sha256', SECRET_B).update(`${label}:${beta}:${generation}`).digest('base64url');
    const oldBackendSecret = `pps_${derived('playport-game-secret', 3)}`;
    const oldWebhookSecret = `whsec_${derived('playport-webhook-secret', 2)}`;

    const upgraded = await openApiInstance(api.database, { env: { APP_SECRET: SECRET_B } });
    try {
      expect(await upgraded.services.gameSecrets.prepare()).toMatchObject({ adopted: 2 });
      expect(accepted((await backendCall(upgraded, beta, oldBackendSecret, Math.floor(Date.now() / 1000), 'derived')).statusCode)).toBe(true);
      await upgraded.services.webhooks.sendTest({ userId: owner.userInfo.uid, tokenId: 0 }, beta);
      const last = receiver.received.at(-1)!;
      expect(verifyWebhook(oldWebhookSecret, last.signature, last.body)).toBe(true);
      // Stored once: a second start-up adopts nothing more.
      expect(await upgraded.services.gameSecrets.prepare()).toMatchObject({ adopted: 0 });
    } finally {
      await upgraded.close();
    }
  });

  it("refuses `content -- game-secret` run with another APP_SECRET, and prints a working secret with the server's", async () => {
    // The server of this database now runs with SECRET_B (the tests above recorded it).
    const run = (appSecret: string) =>
      new Promise<{ code: number; stdout: string; stderr: string }>((done) => {
        execFile(
          process.execPath,
          [join(ROOT, 'scripts/content.ts'), 'game-secret', 'alpha'],
          { cwd: ROOT, env: { ...process.env, ...api.database.env, APP_ENV: 'test', LOG_LEVEL: 'silent', APP_SECRET: appSecret }, timeout: 60_000 },
          (error, stdout, stderr) => done({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
        );
      });
    const before = await api.services.database.db
      .selectFrom('game_credentials')
      .selectAll()
      .where('app_id', '=', appId)
      .where('kind', '=', 'backend')
      .executeTakeFirstOrThrow();
    const refused = await run(SECRET_A);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('not the one the server uses');
    expect(refused.stdout).not.toMatch(/pps_/);
    // Nothing changed: the working secret was not replaced.
    expect(
      await api.services.database.db
        .selectFrom('game_credentials')
        .selectAll()
        .where('app_id', '=', appId)
        .where('kind', '=', 'backend')
        .executeTakeFirstOrThrow(),
    ).toEqual(before);

    const made = await run(SECRET_B);
    expect(made.code, made.stderr).toBe(0);
    const secret = /pps_[\w-]{43}/.exec(made.stdout)?.[0];
    expect(secret).toBeDefined();
    const server = await openApiInstance(api.database, { env: { APP_SECRET: SECRET_B } });
    try {
      expect(accepted((await backendCall(server, appId, secret!, Math.floor(Date.now() / 1000), 'command')).statusCode)).toBe(true);
    } finally {
      await server.close();
    }
    // Two processes that each load the whole server: slow on a busy two-core runner.
  }, 90_000);
});

describe('a backend secret rotated in the Studio', () => {
  const clock = { time: new Date('2026-11-27T09:00:00Z'), now: () => new Date(clock.time) };
  let api: TestApi;
  let appId: number;
  let owner: TestPlayer;
  const { newMember } = testPlayers(() => api, 121);

  beforeAll(async () => {
    api = await openTestApi({}, { clock });
    appId = await appIdOf(api.database, 'alpha');
    owner = await newMember();
    await api.services.developers.saveProfile(owner.userInfo.uid, { studioName: 'Rotating', contactEmail: 'dev@rotate.test' });
    await api.services.database.db.updateTable('apps').set({ developer_user_id: owner.userInfo.uid }).where('id', '=', appId).execute();
  });
  afterAll(() => api?.close());

  const seconds = () => Math.floor(clock.now().getTime() / 1000);

  it('verifies the old and the new secret during the overlap, and only the new one after it', async () => {
    const status = async () => (await api.call('GET', `/studio/games/${appId}/backend-secret`, { token: owner.token })).json().data;
    expect(await status()).toEqual({ hasSecret: false, createdAt: null, previousExpiresAt: null });
    const first = (await api.call('POST', `/studio/games/${appId}/backend-secret`, { token: owner.token })).json().data;
    expect(first.previousExpiresAt).toBeNull();
    expect(accepted((await backendCall(api, appId, first.secret, seconds(), 'one')).statusCode)).toBe(true);

    const second = (await api.call('POST', `/studio/games/${appId}/backend-secret`, { token: owner.token })).json().data;
    expect(second.secret).not.toBe(first.secret);
    expect(second.previousExpiresAt).toBe('2026-11-28T09:00:00.000Z');
    const shown = await status();
    expect(shown).toEqual({ hasSecret: true, createdAt: '2026-11-27T09:00:00.000Z', previousExpiresAt: '2026-11-28T09:00:00.000Z' });
    expect(JSON.stringify(shown)).not.toContain('pps_');

    clock.time = new Date('2026-11-28T08:59:00Z');
    expect(accepted((await backendCall(api, appId, first.secret, seconds(), 'old-in-overlap')).statusCode)).toBe(true);
    expect(accepted((await backendCall(api, appId, second.secret, seconds(), 'new-in-overlap')).statusCode)).toBe(true);

    clock.time = new Date('2026-11-28T09:01:00Z');
    const old = await backendCall(api, appId, first.secret, seconds(), 'old-after');
    expect(old.statusCode).toBe(401);
    expect(old.json().data).toEqual({ reason: 'mismatch' });
    expect(accepted((await backendCall(api, appId, second.secret, seconds(), 'new-after')).statusCode)).toBe(true);
    expect((await status()).previousExpiresAt).toBeNull();
  });

  it('lets only the game’s developer see or make its backend secret', async () => {
    const stranger = await newMember();
    // A member without a studio profile is refused by role first (decision 107); another studio gets 404.
    for (const method of ['GET', 'POST'] as const) {
      expect((await api.call(method, `/studio/games/${appId}/backend-secret`, { token: stranger.token })).statusCode).toBe(403);
      expect((await api.call(method, `/studio/games/${appId}/backend-secret`)).statusCode).toBe(401);
    }
  });
});
