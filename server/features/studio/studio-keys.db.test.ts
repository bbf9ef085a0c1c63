import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STUDIO_KEYS_MAX } from '#common/api/studio-keys.schema.ts';
import { sha256Hex } from '#server/lib/random.ts';
import { insertDeveloperGame, makeZip, newStudioCast, sdkGameEntries } from '#server/testing/developer-games.ts';
import { openTestApi, type TestApi } from '#server/testing/test-api.ts';
import { type TestPlayer, testPlayers } from '#server/testing/test-players.ts';

const buildsDir = mkdtempSync(join(tmpdir(), 'playport-keys-builds-'));

describe('Studio keys for build pipelines (decision 102)', () => {
  let api: TestApi;
  const players = testPlayers(() => api, 102);
  let owner: TestPlayer;
  let other: TestPlayer;
  let member: TestPlayer;
  let guest: TestPlayer;
  let operator: TestPlayer;
  let game: { id: number; slug: string };
  let othersGame: { id: number; slug: string };

  beforeAll(async () => {
    api = await openTestApi({ BUILDS_DIR: buildsDir });
    ({ owner, other, member, guest, operator } = await newStudioCast(api, players, { studioName: 'Keyed', contactEmail: 'dev@keyed.test' }));
    // The operator is a developer too, with keys of their own.
    await api.services.developers.saveProfile(operator.userInfo.uid, { studioName: 'Ops', contactEmail: 'ops@ops.test' });
    game = await insertDeveloperGame(api.database.db, owner.userInfo.uid);
    othersGame = await insertDeveloperGame(api.database.db, other.userInfo.uid);
  });
  afterAll(async () => {
    await api.close();
    await rm(buildsDir, { recursive: true, force: true });
  });

  async function newKey(player: TestPlayer, name = 'CI'): Promise<{ id: number; key: string }> {
    const response = await api.call('POST', '/studio/keys/', { token: player.token, body: { name } });
    expect(response.statusCode, response.body).toBe(201);
    return response.json().data;
  }

  /** A GET with only a bearer value, as a build pipeline sends it. */
  const bare = (method: 'GET' | 'POST' | 'DELETE', path: string, bearer?: string) =>
    api.app.inject({ method, url: `/serve/api${path}`, headers: bearer ? { authorization: `Bearer ${bearer}` } : {} });

  /** The tus calls of an upload with a key: no cookie, no XSRF token. */
  async function pushWithKey(key: string, appId: number, zip: Buffer): Promise<LightMyRequestResponse> {
    const headers = { authorization: `Bearer ${key}`, 'tus-resumable': '1.0.0' };
    const created = await api.app.inject({
      method: 'POST',
      url: `/serve/api/studio/games/${appId}/uploads`,
      headers: { ...headers, 'upload-length': String(zip.length) },
    });
    if (created.statusCode !== 201) return created;
    const location = String(created.headers.location);
    const head = await api.app.inject({ method: 'HEAD', url: location, headers });
    expect(head.headers['upload-offset']).toBe('0');
    return api.app.inject({
      method: 'PATCH',
      url: location,
      headers: { ...headers, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
      payload: zip,
    });
  }

  it('shows a new key once and keeps only its hash', async () => {
    const created = await newKey(owner, 'GitHub Actions');
    expect(created.key).toMatch(new RegExp(`^pk_${created.id}_[A-Za-z0-9]{40}$`));
    expect(created).toMatchObject({ name: 'GitHub Actions', prefix: `pk_${created.id}_`, lastUsedAt: null });

    const listed = await api.call('GET', '/studio/keys/', { token: owner.token });
    expect(listed.statusCode).toBe(200);
    const entry = listed.json().data.keys.find((key: { id: number }) => key.id === created.id);
    expect(entry).toEqual({ id: created.id, name: 'GitHub Actions', prefix: `pk_${created.id}_`, createdAt: expect.any(String), lastUsedAt: null });
    expect(listed.body).not.toContain(created.key.split('_')[2]);

    const row = await api.database.db.selectFrom('studio_keys').selectAll().where('id', '=', created.id).executeTakeFirstOrThrow();
    expect(row.key_hash).toBe(sha256Hex(created.key.split('_')[2]!));
    expect(JSON.stringify(row)).not.toContain(created.key.split('_')[2]);
    // Another developer's list does not hold it.
    const others = await api.call('GET', '/studio/keys/', { token: other.token });
    expect(others.json().data.keys.map((key: { id: number }) => key.id)).not.toContain(created.id);
  });

  it('is made by developers only, with a name', async () => {
    expect((await api.call('POST', '/studio/keys/', { body: { name: 'x' } })).statusCode).toBe(401);
    expect((await api.call('POST', '/studio/keys/', { token: guest.token, body: { name: 'x' } })).statusCode).toBe(403);
    expect((await api.call('POST', '/studio/keys/', { token: member.token, body: { name: 'x' } })).statusCode).toBe(403);
    expect((await api.call('GET', '/studio/keys/', { token: member.token })).statusCode).toBe(403);
    const blank = await api.call('POST', '/studio/keys/', { token: owner.token, body: { name: '   ' } });
    expect(blank.statusCode).toBe(422);
    expect(blank.json().data.errors.name).toBeDefined();
    expect((await api.call('POST', '/studio/keys/', { token: owner.token, body: { name: 'x'.repeat(61) } })).statusCode).toBe(422);
    // Without the XSRF token a browser session cannot make one.
    const forged = await api.app.inject({
      method: 'POST',
      url: '/serve/api/studio/keys/',
      headers: { authorization: `Bearer ${owner.token}` },
      payload: { name: 'forged' },
    });
    expect(forged.statusCode).toBe(419);
  });

  it('pushes and submits a build of its developer’s own game, without an XSRF token', async () => {
    const { key, id } = await newKey(owner);
    const found = await bare('GET', `/studio/games/by-slug/${game.slug}`, key);
    expect(found.statusCode, found.body).toBe(200);
    expect(found.json().data).toMatchObject({ id: game.id, slug: game.slug, published: false });

    const pushed = await pushWithKey(key, game.id, await makeZip(sdkGameEntries()));
    expect(pushed.statusCode, pushed.body).toBe(200);
    const build = pushed.json().data as { id: number; status: string; previewUrl: string };
    expect(build.status).toBe('uploaded');
    expect(build.previewUrl).toContain(`/qa/${game.slug}?preview=b${build.id}-`);

    const submitted = await bare('POST', `/studio/games/${game.id}/builds/${build.id}/submit`, key);
    expect(submitted.statusCode, submitted.body).toBe(200);
    expect(submitted.json().data.status).toBe('submitted');
    const list = await bare('GET', `/studio/games/${game.id}/builds`, key);
    expect(list.json().data.builds[0]).toMatchObject({ id: build.id, status: 'submitted' });

    // The same validation as the browser's upload: every problem at once.
    const refused = await pushWithKey(
      key,
      game.id,
      await makeZip([
        { name: 'main.html', content: '<p>' },
        { name: 'run.sh', content: 'x' },
      ]),
    );
    expect(refused.statusCode).toBe(422);
    expect(
      refused
        .json()
        .data.problems.map((problem: { rule: string }) => problem.rule)
        .sort(),
    ).toEqual(['entry', 'type']);

    const row = await api.database.db.selectFrom('studio_keys').select('last_used_at').where('id', '=', id).executeTakeFirstOrThrow();
    expect(row.last_used_at).not.toBeNull();
  });

  it('answers 404 for another developer’s game, as for no game', async () => {
    const { key } = await newKey(owner);
    expect((await bare('GET', `/studio/games/by-slug/${othersGame.slug}`, key)).statusCode).toBe(404);
    expect((await bare('GET', '/studio/games/by-slug/no-such-game', key)).statusCode).toBe(404);
    expect((await pushWithKey(key, othersGame.id, await makeZip(sdkGameEntries()))).statusCode).toBe(404);
    expect((await bare('GET', `/studio/games/${othersGame.id}/builds`, key)).statusCode).toBe(404);
    // A build of the other game, made by its developer, cannot be submitted with this key.
    const { key: othersKey } = await newKey(other);
    const theirs = (await pushWithKey(othersKey, othersGame.id, await makeZip(sdkGameEntries()))).json().data as { id: number };
    expect((await bare('POST', `/studio/games/${othersGame.id}/builds/${theirs.id}/submit`, key)).statusCode).toBe(404);
    expect((await bare('POST', `/studio/games/${game.id}/builds/${theirs.id}/submit`, key)).statusCode).toBe(404);
  });

  it('refuses a wrong, unknown, malformed or revoked key with 401, at once', async () => {
    const { key, id } = await newKey(owner);
    const secret = key.split('_')[2]!;
    const wrong = `pk_${id}_${secret.slice(0, -1)}${secret.endsWith('A') ? 'B' : 'A'}`;
    for (const bad of [wrong, `pk_99999999_${secret}`, 'pk_abc', `pk_${id}_short`, `pk_${id}_${secret}x`]) {
      expect((await bare('GET', `/studio/games/by-slug/${game.slug}`, bad)).statusCode, bad).toBe(401);
    }
    expect((await bare('GET', `/studio/games/by-slug/${game.slug}`, key)).statusCode).toBe(200);
    // Another developer cannot revoke it; its own developer can, and it stops at once.
    expect((await api.call('DELETE', `/studio/keys/${id}`, { token: other.token })).statusCode).toBe(404);
    expect((await api.call('DELETE', `/studio/keys/${id}`, { token: owner.token })).statusCode).toBe(200);
    expect((await bare('GET', `/studio/games/by-slug/${game.slug}`, key)).statusCode).toBe(401);
    expect((await pushWithKey(key, game.id, await makeZip(sdkGameEntries()))).statusCode).toBe(401);
    expect((await api.call('DELETE', `/studio/keys/${id}`, { token: owner.token })).statusCode).toBe(404);
  });

  it('reaches no call outside the Studio’s build calls, and is never a session token', async () => {
    const { key, id } = await newKey(owner);
    const csrf = await api.csrfHeaders();
    const refused: [string, string][] = [
      ['GET', '/member/info/'],
      ['GET', '/studio/keys/'],
      ['GET', '/studio/profile/'],
      ['GET', '/studio/games/'],
      ['GET', `/studio/games/${game.id}/webhook`],
      ['GET', '/console/reviews'],
      ['POST', '/studio/keys/'],
      ['DELETE', `/studio/keys/${id}`],
      ['POST', `/studio/games/${game.id}/rollback`],
      ['POST', `/studio/games/${game.id}/builds/1/live`],
    ];
    for (const [method, path] of refused) {
      // With the XSRF token too, so only the key is in question.
      const response = await api.app.inject({
        method: method as 'GET',
        url: `/serve/api${path}`,
        headers: { ...csrf, authorization: `Bearer ${key}` },
        ...(method === 'POST' ? { payload: { name: 'more' } } : {}),
      });
      expect([401, 404], `${method} ${path}: ${response.body}`).toContain(response.statusCode);
      if (response.statusCode === 404) expect(response.json().error, `${method} ${path}`).toBe('route_not_found');
    }
    // An operator's key does not open the Console either.
    const { key: operatorKey } = await newKey(operator);
    expect((await bare('GET', '/console/reviews', operatorKey)).statusCode).toBe(401);
    expect((await api.call('GET', '/console/reviews', { token: operator.token })).statusCode).toBe(200);
    // The key's parts in a session token's shape are no session.
    expect(await api.services.tokens.verify(key)).toBeNull();
    expect((await bare('GET', '/member/info/', `${id}|${key.split('_')[2]}`)).statusCode).toBe(401);
    // Signing out with a key signs out no one and leaves the key working.
    const logout = await api.app.inject({ method: 'POST', url: '/serve/api/logout/', headers: { ...csrf, authorization: `Bearer ${key}` } });
    expect(logout.json().data).toEqual({ revoked: false });
    // The key still works where it should, and nothing above made it a session.
    expect((await bare('GET', `/studio/games/${game.id}/builds`, key)).statusCode).toBe(200);
  });

  it('leaves a session token’s scope as it was', async () => {
    // On the build calls a session still needs the XSRF token, and still works with it.
    const noXsrf = await api.app.inject({
      method: 'POST',
      url: `/serve/api/studio/games/${game.id}/uploads`,
      headers: { authorization: `Bearer ${owner.token}`, 'tus-resumable': '1.0.0', 'upload-length': '10' },
    });
    expect(noXsrf.statusCode).toBe(419);
    expect((await api.call('GET', `/studio/games/${game.id}/builds`, { token: owner.token })).statusCode).toBe(200);
    expect((await api.call('GET', `/studio/games/by-slug/${game.slug}`, { token: owner.token })).statusCode).toBe(200);
    expect((await api.call('GET', '/member/info/', { token: owner.token })).statusCode).toBe(200);
    expect((await api.call('GET', '/studio/games/', { token: owner.token })).statusCode).toBe(200);
    // Members and guests without a studio reach no one's game by its slug: refused before the slug is looked at (decision 107).
    expect((await api.call('GET', `/studio/games/by-slug/${game.slug}`, { token: member.token })).statusCode).toBe(403);
    expect((await api.call('GET', `/studio/games/by-slug/${game.slug}`, { token: guest.token })).statusCode).toBe(403);
    expect((await api.call('GET', `/studio/games/by-slug/${game.slug}`)).statusCode).toBe(401);
  });

  it('stops working when its member is disabled or no longer a developer', async () => {
    const dev = await players.newMember();
    await api.services.developers.saveProfile(dev.userInfo.uid, { studioName: 'Soon gone', contactEmail: 'gone@gone.test' });
    const mine = await insertDeveloperGame(api.database.db, dev.userInfo.uid);
    const { key } = await newKey(dev);
    expect((await bare('GET', `/studio/games/by-slug/${mine.slug}`, key)).statusCode).toBe(200);
    await api.database.db.deleteFrom('developer_profiles').where('user_id', '=', dev.userInfo.uid).execute();
    expect((await bare('GET', `/studio/games/by-slug/${mine.slug}`, key)).statusCode).toBe(401);
    await api.services.developers.saveProfile(dev.userInfo.uid, { studioName: 'Back', contactEmail: 'gone@gone.test' });
    expect((await bare('GET', `/studio/games/by-slug/${mine.slug}`, key)).statusCode).toBe(200);
    await api.database.db.updateTable('users').set({ disabled_at: new Date().toISOString() }).where('id', '=', dev.userInfo.uid).execute();
    expect((await bare('GET', `/studio/games/by-slug/${mine.slug}`, key)).statusCode).toBe(401);
  });

  it(`holds at most ${STUDIO_KEYS_MAX} keys per developer, also when made at once`, async () => {
    const dev = await players.newMember();
    await api.services.developers.saveProfile(dev.userInfo.uid, { studioName: 'Many', contactEmail: 'many@many.test' });
    const answers = await Promise.all(
      Array.from({ length: STUDIO_KEYS_MAX + 3 }, (_, n) => api.call('POST', '/studio/keys/', { token: dev.token, body: { name: `k${n}` } })),
    );
    const made = answers.filter((answer) => answer.statusCode === 201);
    expect(made.length).toBeLessThanOrEqual(STUDIO_KEYS_MAX);
    for (const answer of answers.filter((a) => a.statusCode !== 201)) expect(answer.statusCode).toBe(409);
    while ((await api.call('GET', '/studio/keys/', { token: dev.token })).json().data.keys.length < STUDIO_KEYS_MAX) await newKey(dev);
    const over = await api.call('POST', '/studio/keys/', { token: dev.token, body: { name: 'one more' } });
    expect(over.statusCode).toBe(409);
    expect(over.json().message).toContain(String(STUDIO_KEYS_MAX));
    const listed = (await api.call('GET', '/studio/keys/', { token: dev.token })).json().data;
    expect(listed).toMatchObject({ max: STUDIO_KEYS_MAX });
    expect(listed.keys).toHaveLength(STUDIO_KEYS_MAX);
    expect((await api.call('DELETE', `/studio/keys/${listed.keys[0].id}`, { token: dev.token })).statusCode).toBe(200);
    await newKey(dev, 'after revoking one');
  });
});
