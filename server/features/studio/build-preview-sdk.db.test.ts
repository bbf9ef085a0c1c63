import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeclaredAchievement, DeclaredBoard } from '#common/api/game-records.schema.ts';
import { PREVIEW_HEADER } from '#common/constants.ts';
import { insertDeveloperGame, makeZip, sdkGameEntries } from '#server/testing/developer-games.ts';
import { freePort } from '#server/testing/free-port.ts';
import { openTestApi, type TestApi } from '#server/testing/test-api.ts';
import { type TestPlayer, testPlayers } from '#server/testing/test-players.ts';
import { startXsollaStandIn } from '#server/testing/xsolla-stand-in.ts';

const buildsDir = mkdtempSync(join(tmpdir(), 'playport-preview-builds-'));
const key = () => randomBytes(12).toString('base64url');

/** A draft game's item on sale, as the Studio's item form stores one. */
async function insertItem(api: TestApi, appId: number, sku: string, kind: 'permanent' | 'consumable') {
  const now = new Date().toISOString();
  await api.database.db
    .insertInto('app_items')
    .values({
      app_id: appId,
      sku,
      price_minor: 199,
      currency: 'USD',
      names: JSON.stringify({ en: 'Gold', 'zh-CN': '金币' }),
      kind,
      active: 1,
      created_at: now,
      updated_at: now,
    })
    .execute();
}

/** A build of the game, uploaded as a zip, and its preview label. */
async function previewOf(api: TestApi, developer: number, appId: number): Promise<string> {
  const zipPath = join(buildsDir, `${key()}.zip`);
  const zip = await makeZip(sdkGameEntries());
  writeFileSync(zipPath, zip);
  const build = await api.services.builds.createFromArchive(developer, appId, zipPath, zip.length, 'en');
  return api.services.builds.previewLabel(build.id);
}

/** Each call's status code, by the call's name. */
async function statuses(calls: Record<string, () => Promise<{ statusCode: number }>>): Promise<Record<string, number>> {
  const answers: Record<string, number> = {};
  for (const [name, call] of Object.entries(calls)) answers[name] = (await call()).statusCode;
  return answers;
}

/*
 * The SDK in a build's preview (decision 097, "The SDK in a preview"): an unpublished game's login,
 * saves, config, inventory and orders answer only through a preview label the portal signed, for a
 * build of that game, to its developer or a QA test member; anyone else, any other way, gets the
 * 404 of a game that does not exist. A preview orders with test payments only.
 */
describe('the SDK in a build preview', () => {
  let api: TestApi;
  const players = testPlayers(() => api, 171);
  let developer: TestPlayer;
  let otherDeveloper: TestPlayer;
  let member: TestPlayer;
  let guest: TestPlayer;
  let qaMember: TestPlayer;
  let draft: { id: number; slug: string };
  let otherDraft: { id: number; slug: string };
  let label: string;
  let otherLabel: string;

  beforeAll(async () => {
    // The sandbox tells its payments to this server's webhook over HTTP, as in production.
    const port = await freePort();
    api = await openTestApi({ BUILDS_DIR: buildsDir, PAYMENT_WEBHOOK_URL: `http://127.0.0.1:${port}/serve/api/payment/xsolla/webhook/` });
    await api.app.listen({ port, host: '127.0.0.1' });
    [developer, otherDeveloper, member, guest] = await Promise.all([players.newMember(), players.newMember(), players.newMember(), players.newGuest()]);
    // A test member as the QA panel's "New test member" makes one.
    const fresh = await players.newGuest();
    const made = await api.call('PATCH', '/member/password/', {
      token: fresh.token,
      body: { username: `qa_${randomBytes(5).toString('hex')}`, password: 'Harbour-Lantern-Tricky-9' },
    });
    expect(made.statusCode, made.body).toBe(200);
    qaMember = made.json().data;
    await api.services.developers.saveProfile(developer.userInfo.uid, { studioName: 'Tidepool', contactEmail: 'dev@tidepool.test' });
    await api.services.developers.saveProfile(otherDeveloper.userInfo.uid, { studioName: 'Other', contactEmail: 'dev@other.test' });
    draft = await insertDeveloperGame(api.database.db, developer.userInfo.uid);
    otherDraft = await insertDeveloperGame(api.database.db, otherDeveloper.userInfo.uid);
    await insertItem(api, draft.id, 'gold', 'consumable');
    await insertItem(api, otherDraft.id, 'gold', 'consumable');
    label = await previewOf(api, developer.userInfo.uid, draft.id);
    otherLabel = await previewOf(api, otherDeveloper.userInfo.uid, otherDraft.id);
  });
  afterAll(async () => {
    await api?.close();
    await rm(buildsDir, { recursive: true, force: true });
  });

  /** The bridge's calls for a game, as the play page or the preview page makes them. */
  function bridge(player: TestPlayer, appId: number, preview?: string) {
    const headers: Record<string, string> = preview === undefined ? {} : { [PREVIEW_HEADER]: preview };
    const options = (body?: unknown) => ({ token: player.token, headers, ...(body === undefined ? {} : { body }) });
    return {
      login: () => api.call('POST', `/game/login/${appId}`, options()),
      putSave: () => api.call('PUT', `/game/saves/${appId}/progress`, options({ value: { level: 3 } })),
      getSave: () => api.call('GET', `/game/saves/${appId}/progress`, options()),
      deleteSave: () => api.call('DELETE', `/game/saves/${appId}/progress`, options()),
      config: () => api.call('GET', `/game/config/${appId}`, options()),
      inventory: () => api.call('GET', `/game/inventory/${appId}`, options()),
      order: () => api.call('POST', `/game/pay/${appId}`, options({ sku: 'gold', idempotencyKey: key() })),
    };
  }

  const refused = { login: 404, putSave: 404, getSave: 404, deleteSave: 404, config: 404, inventory: 404, order: 404 };

  it('refuses a draft game to everyone, its developer too, without a preview', async () => {
    for (const player of [guest, member, otherDeveloper, qaMember, developer]) expect(await statuses(bridge(player, draft.id))).toEqual(refused);
    const orders = await api.database.db.selectFrom('orders').select('id').where('app_id', '=', draft.id).execute();
    expect(orders).toEqual([]);
  });

  it('answers the developer and a QA test member through the preview, and orders with the sandbox', async () => {
    for (const player of [developer, qaMember]) {
      const calls = bridge(player, draft.id, label);
      const login = await calls.login();
      expect(login.statusCode, login.body).toBe(200);
      expect(login.json().data.user.uid).toBe(player.userInfo.uid);
      expect((await calls.putSave()).statusCode).toBe(200);
      expect((await calls.getSave()).json().data.value).toEqual({ level: 3 });
      expect((await calls.deleteSave()).statusCode).toBe(200);
      const config = await calls.config();
      expect(config.statusCode, config.body).toBe(200);
      expect(config.json().data).toMatchObject({ appId: draft.id, items: [{ sku: 'gold', amount: 199, kind: 'consumable' }] });
      // The preview's build, on its own host, not the live game's.
      expect(config.json().data.url).toContain(`${label}.previews.localhost:`);
      expect((await calls.inventory()).json().data.items).toEqual([]);
      const order = await calls.order();
      expect(order.statusCode, order.body).toBe(201);
      expect(order.json().data).toMatchObject({ appId: draft.id, sku: 'gold', provider: 'sandbox', status: 'created' });
      // The sandbox's test card pays it, and the item reaches the inventory.
      const checkout = await api.call('POST', '/payment/xsolla/create/', { token: player.token, body: { order_id: order.json().data.id } });
      expect(checkout.statusCode, checkout.body).toBe(200);
      expect(checkout.json().data).toMatchObject({ provider: 'sandbox', sandbox: true });
      const paid = await api.call('POST', '/payment/sandbox/pay/', { body: { token: checkout.json().data.token, card: '4242 4242 4242 4242' } });
      expect(paid.json().data, paid.body).toMatchObject({ outcome: 'paid' });
      await expect.poll(async () => (await calls.inventory()).json().data.items).toEqual([{ sku: 'gold', name: 'Gold', quantity: 1 }]);
      // Recorded as a preview's test order: the Studio's statistics leave it out (migration 0027).
      const stored = await api.database.db.selectFrom('orders').select('preview').where('public_id', '=', order.json().data.id).executeTakeFirstOrThrow();
      expect(stored.preview).toBe(1);
    }
  });

  it('refuses a guest, another member and another developer holding the preview link', async () => {
    for (const player of [guest, member, otherDeveloper]) expect(await statuses(bridge(player, draft.id, label))).toEqual(refused);
  });

  it("refuses another game's preview, a forged label and a label of another build for this game", async () => {
    expect(await statuses(bridge(developer, draft.id, otherLabel))).toEqual(refused);
    expect(await statuses(bridge(otherDeveloper, draft.id, otherLabel))).toEqual(refused);
    const forged = label.replace(/-[0-9a-f]{32}$/, `-${'0'.repeat(32)}`);
    for (const bad of [forged, `${label}x`, 'b1-', '', 'x'.repeat(80)]) expect(await statuses(bridge(developer, draft.id, bad))).toEqual(refused);
  });

  it('records leaderboard scores and achievements through the preview, refuses them otherwise, and the first release starts empty', async () => {
    const board: DeclaredBoard = {
      id: 'best',
      order: 'desc',
      format: 'number',
      min: 0,
      max: 1000,
      periods: ['all-time'],
      backendOnly: false,
      names: { en: { name: 'Best' } },
    };
    const achievement: DeclaredAchievement = { id: 'first-win', icon: null, backendOnly: false, texts: { en: { name: 'First win', description: 'Win once' } } };
    await api.database.db
      .updateTable('apps')
      .set({ leaderboards: JSON.stringify([board]), achievements: JSON.stringify([achievement]) })
      .where('id', '=', draft.id)
      .execute();
    const records = (player: TestPlayer, preview?: string) => {
      const headers: Record<string, string> = preview === undefined ? {} : { [PREVIEW_HEADER]: preview };
      return {
        submit: () => api.call('POST', `/game/leaderboards/${draft.id}/best/scores`, { token: player.token, headers, body: { score: 420 } }),
        top: () => api.call('GET', `/game/leaderboards/${draft.id}/best?period=all-time`, { token: player.token, headers }),
        around: () => api.call('GET', `/game/leaderboards/${draft.id}/best/around?period=all-time`, { token: player.token, headers }),
        unlock: () => api.call('POST', `/game/achievements/${draft.id}/first-win`, { token: player.token, headers }),
        achievements: () => api.call('GET', `/game/achievements/${draft.id}`, { token: player.token, headers }),
      };
    };
    const none = { submit: 404, top: 404, around: 404, unlock: 404, achievements: 404 };
    for (const player of [guest, member, otherDeveloper, qaMember, developer]) expect(await statuses(records(player))).toEqual(none);
    for (const player of [guest, member, otherDeveloper]) expect(await statuses(records(player, label))).toEqual(none);
    expect(await statuses(records(developer, otherLabel))).toEqual(none);
    expect((await api.call('GET', `/game/records/${draft.id}`)).statusCode).toBe(404);
    const stored = () => api.database.db.selectFrom('leaderboard_scores').select('user_id').where('app_id', '=', draft.id).execute();
    expect(await stored()).toEqual([]);

    for (const player of [developer, qaMember]) {
      const calls = records(player, label);
      const submitted = await calls.submit();
      expect(submitted.statusCode, submitted.body).toBe(200);
      expect(submitted.json().data).toMatchObject({ board: 'best', score: 420, periods: [{ period: 'all-time', best: 420, improved: true }] });
      expect((await calls.top()).json().data.me).toEqual({ rank: 1, score: 420 });
      expect((await calls.around()).json().data.me).toEqual({ rank: 1, score: 420 });
      expect((await calls.unlock()).json().data).toMatchObject({ id: 'first-win', newlyUnlocked: true });
      expect((await calls.achievements()).json().data[0].unlockedAt).not.toBeNull();
    }
    expect(await stored()).toHaveLength(2);

    // The operator approves the game's first build: the preview's scores and unlocks were tests.
    const operator = await players.newMember();
    await api.services.operators.grant(String(operator.userInfo.uid));
    const build = (await api.call('GET', `/studio/games/${draft.id}/builds`, { token: developer.token })).json().data.builds[0];
    const submitted = await api.call('POST', `/studio/games/${draft.id}/builds/${build.id}/submit`, { token: developer.token });
    expect(submitted.statusCode, submitted.body).toBe(200);
    const approved = await api.call('POST', `/console/builds/${build.id}/approve`, { token: operator.token });
    expect(approved.statusCode, approved.body).toBe(200);
    expect(await stored()).toEqual([]);
    expect(await api.database.db.selectFrom('achievement_unlocks').select('user_id').where('app_id', '=', draft.id).execute()).toEqual([]);
    // Published now: every player records, without a preview.
    expect((await records(member).submit()).statusCode).toBe(200);
    expect((await api.call('GET', `/game/records/${draft.id}`)).json().data.boards[0].tops[0].entries).toHaveLength(1);
  });

  it('leaves a published game open to every player as before', async () => {
    const published = await api.database.db.selectFrom('apps').select('id').where('slug', '=', 'alpha').executeTakeFirstOrThrow();
    const calls = bridge(guest, published.id);
    expect((await calls.login()).statusCode).toBe(200);
    expect((await calls.putSave()).statusCode).toBe(200);
    expect((await calls.inventory()).statusCode).toBe(200);
    // A guest is asked to secure the account, not told the game is missing.
    expect((await calls.order()).json().error).toBe('account_not_secured');
  });
});

describe('a preview where the portal takes real payments', () => {
  let api: TestApi;
  let xsolla: Awaited<ReturnType<typeof startXsollaStandIn>>;
  const XSOLLA = { projectId: '301235', apiKey: 'xsolla-live-key', secret: 'xsolla-live-secret' };
  const players = testPlayers(() => api, 172);

  beforeAll(async () => {
    xsolla = await startXsollaStandIn(XSOLLA);
    api = await openTestApi({
      BUILDS_DIR: buildsDir,
      XSOLLA_PROJECT_ID: XSOLLA.projectId,
      XSOLLA_API_KEY: XSOLLA.apiKey,
      XSOLLA_WEBHOOK_SECRET: XSOLLA.secret,
      XSOLLA_SANDBOX: 'false',
      XSOLLA_API_URL: xsolla.url,
    });
  });
  afterAll(async () => {
    await api?.close();
    await xsolla?.stop();
  });

  it('refuses the order, of a draft or a published game, and reaches no checkout', async () => {
    const developer = await players.newMember();
    await api.services.developers.saveProfile(developer.userInfo.uid, { studioName: 'Live', contactEmail: 'dev@live.test' });
    const draft = await insertDeveloperGame(api.database.db, developer.userInfo.uid);
    await insertItem(api, draft.id, 'gold', 'consumable');
    const label = await previewOf(api, developer.userInfo.uid, draft.id);
    const headers = { [PREVIEW_HEADER]: label };
    const login = await api.call('POST', `/game/login/${draft.id}`, { token: developer.token, headers });
    expect(login.statusCode, login.body).toBe(200);
    const order = await api.call('POST', `/game/pay/${draft.id}`, { token: developer.token, headers, body: { sku: 'gold', idempotencyKey: key() } });
    expect(order.statusCode, order.body).toBe(403);
    expect(order.json().message).toMatch(/test payments only/);
    // A preview label sent for a published game makes its purchase a test too: refused here.
    const alpha = await api.database.db.selectFrom('apps').select('id').where('slug', '=', 'alpha').executeTakeFirstOrThrow();
    const live = await api.call('POST', `/game/pay/${alpha.id}`, { token: developer.token, headers, body: { sku: 'alpha-hints', idempotencyKey: key() } });
    expect(live.statusCode, live.body).toBe(403);
    expect(await api.database.db.selectFrom('orders').select('id').execute()).toEqual([]);
    expect(xsolla.requests).toEqual([]);
  });
});
