import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildGamesOrigin } from '#server/features/games/games-origin.ts';
import { AppError } from '#server/lib/app-error.ts';
import { insertDeveloperGame, insertReviewedBuild, makeZip, newStudioCast, sdkGameEntries, type ZipEntry } from '#server/testing/developer-games.ts';
import { openTestApi, type TestApi } from '#server/testing/test-api.ts';
import { type TestPlayer, testPlayers } from '#server/testing/test-players.ts';

const buildsDir = mkdtempSync(join(tmpdir(), 'playport-builds-'));
const uploadDir = mkdtempSync(join(tmpdir(), 'playport-uploads-'));

/** Renames entries after zipping (same byte length), for names no zip tool would write. */
function rename(zip: Buffer, from: string, to: string): Buffer {
  expect(Buffer.byteLength(from)).toBe(Buffer.byteLength(to));
  const source = Buffer.from(from);
  const target = Buffer.from(to);
  let at = zip.indexOf(source);
  while (at !== -1) {
    target.copy(zip, at);
    at = zip.indexOf(source, at + 1);
  }
  return zip;
}

/** Lowers an entry's declared uncompressed size in the central directory, as a lying archive does. */
function declareSmaller(zip: Buffer, name: string, size: number): Buffer {
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  let at = zip.readUInt32LE(end + 16);
  const count = zip.readUInt16LE(end + 10);
  for (let i = 0; i < count; i += 1) {
    const nameLength = zip.readUInt16LE(at + 28);
    const entryName = zip.subarray(at + 46, at + 46 + nameLength).toString('utf8');
    if (entryName === name) zip.writeUInt32LE(size, at + 24);
    at += 46 + nameLength + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
  }
  return zip;
}

describe('game builds (decision 097)', () => {
  let api: TestApi;
  let origin: FastifyInstance;
  const players = testPlayers(() => api, 97);
  let owner: TestPlayer;
  let other: TestPlayer;
  let member: TestPlayer;
  let guest: TestPlayer;
  let operator: TestPlayer;
  let game: { id: number; slug: string };

  beforeAll(async () => {
    api = await openTestApi({ BUILDS_DIR: buildsDir, UPLOAD_DIR: uploadDir });
    ({ owner, other, member, guest, operator } = await newStudioCast(api, players, { studioName: 'Tidepool', contactEmail: 'dev@tidepool.test' }));
    game = await insertDeveloperGame(api.database.db, owner.userInfo.uid);
    origin = await buildGamesOrigin({
      config: api.config,
      catalogue: api.services.catalogue,
      builds: { dir: buildsDir, previewHost: (host) => api.services.builds.previewHost(host) },
      logger: false,
    });
  });
  afterAll(async () => {
    await origin.close();
    await api.close();
    await rm(buildsDir, { recursive: true, force: true });
    await rm(uploadDir, { recursive: true, force: true });
  });

  const get = (hostname: string, url: string, headers: Record<string, string> = {}) =>
    origin.inject({ method: 'GET', url, headers: { host: hostname, ...headers } });

  /** The tus calls a browser's upload makes; `chunks` splits the bytes over several PATCH requests. */
  async function upload(token: string | undefined, appId: number, zip: Buffer, chunks = 1): Promise<LightMyRequestResponse> {
    const csrf = await api.csrfHeaders();
    const auth = token ? { authorization: `Bearer ${token}` } : {};
    const created = await api.app.inject({
      method: 'POST',
      url: `/serve/api/studio/games/${appId}/uploads`,
      headers: { ...csrf, ...auth, 'tus-resumable': '1.0.0', 'upload-length': String(zip.length) },
    });
    if (created.statusCode !== 201) return created;
    const location = String(created.headers.location);
    expect(location).toMatch(new RegExp(`^/serve/api/studio/games/${appId}/uploads/${appId}-[0-9a-f]{32}$`));
    const size = Math.ceil(zip.length / chunks);
    let response = created;
    for (let offset = 0; offset < zip.length; offset += size) {
      // After a dropped connection the client asks where to go on from.
      const head = await api.app.inject({ method: 'HEAD', url: location, headers: { ...auth, 'tus-resumable': '1.0.0' } });
      expect(head.headers['upload-offset']).toBe(String(offset));
      response = await api.app.inject({
        method: 'PATCH',
        url: location,
        headers: { ...csrf, ...auth, 'tus-resumable': '1.0.0', 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' },
        payload: zip.subarray(offset, offset + size),
      });
      if (response.statusCode >= 300) return response;
    }
    return response;
  }

  async function uploadOk(entries: ZipEntry[] = sdkGameEntries()) {
    const response = await upload(owner.token, game.id, await makeZip(entries));
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data as { id: number; version: number; status: string; previewUrl: string };
  }

  async function problemsOf(zip: Buffer): Promise<{ rule: string; path?: string; message: string }[]> {
    const response = await upload(owner.token, game.id, zip);
    expect(response.statusCode, response.body).toBe(422);
    expect(response.json().code).toBe(422);
    return response.json().data.problems;
  }

  it('keeps a valid zip as the next version, uploaded in pieces, in the builds storage only', async () => {
    const build = await uploadOk();
    const response = await upload(owner.token, game.id, await makeZip(sdkGameEntries('Second')), 3);
    expect(response.statusCode, response.body).toBe(200);
    const second = response.json().data;
    expect(second).toMatchObject({ version: build.version + 1, status: 'uploaded', fileCount: 3, entryPath: 'index.html', live: false });
    expect(existsSync(join(buildsDir, String(game.id), String(second.id), 'Build', 'game.wasm'))).toBe(true);
    expect(readdirSync(uploadDir)).toEqual([]);
    // The finished upload's bytes are not kept once the build is stored.
    expect(readdirSync(join(buildsDir, '.incoming')).filter((name) => !name.startsWith('.'))).toEqual([]);
    // A zip of the folder itself is read as the folder's contents.
    const nested = await uploadOk(sdkGameEntries().map((entry) => ({ ...entry, name: `my-game/${entry.name}` })));
    expect(existsSync(join(buildsDir, String(game.id), String(nested.id), 'index.html'))).toBe(true);
  });

  it('refuses an upload larger than the cap before a byte is accepted', async () => {
    const csrf = await api.csrfHeaders();
    const response = await api.app.inject({
      method: 'POST',
      url: `/serve/api/studio/games/${game.id}/uploads`,
      headers: { ...csrf, authorization: `Bearer ${owner.token}`, 'tus-resumable': '1.0.0', 'upload-length': String(api.services.builds.maxArchiveBytes + 1) },
    });
    expect(response.statusCode).toBe(413);
  });

  it('rejects a zip for each rule with its message', async () => {
    const cases: { rule: string; zip: Buffer; path?: string; message: RegExp }[] = [
      { rule: 'archive', zip: Buffer.from('not a zip at all'), message: /not a readable zip/ },
      { rule: 'entry', zip: await makeZip([{ name: 'game.html', content: '<p>' }]), message: /no index\.html/ },
      {
        rule: 'type',
        zip: await makeZip([...sdkGameEntries(), { name: 'setup.exe', content: 'MZ' }]),
        path: 'setup.exe',
        message: /\.exe are not allowed/,
      },
      {
        rule: 'path',
        zip: rename(await makeZip([...sdkGameEntries(), { name: 'zz/evil.js', content: '1' }]), 'zz/evil.js', '../evil.js'),
        path: '../evil.js',
        message: /not allowed \(parent\)/,
      },
      {
        rule: 'path',
        zip: rename(await makeZip([...sdkGameEntries(), { name: '_etc/evil.js', content: '1' }]), '_etc/evil.js', '/etc/evil.js'),
        path: '/etc/evil.js',
        message: /absolute/,
      },
      {
        rule: 'path',
        zip: rename(await makeZip([...sdkGameEntries(), { name: 'a_b.js', content: '1' }]), 'a_b.js', 'a\\b.js'),
        path: 'a\\b.js',
        message: /backslash/,
      },
      {
        rule: 'path',
        zip: rename(await makeZip([...sdkGameEntries(), { name: 'C_x/evil.js', content: '1' }]), 'C_x/evil.js', 'C:x/evil.js'),
        path: 'C:x/evil.js',
        message: /drive/,
      },
      {
        rule: 'link',
        zip: await makeZip([...sdkGameEntries(), { name: 'other.html', content: '/etc/passwd', mode: 0o120777 }]),
        path: 'other.html',
        message: /is a link/,
      },
      {
        rule: 'ratio',
        zip: await makeZip([...sdkGameEntries(), { name: 'level.data', content: Buffer.alloc(4 * 1024 * 1024) }]),
        path: 'level.data',
        message: /to 1/,
      },
      {
        rule: 'declared',
        zip: declareSmaller(await makeZip([...sdkGameEntries(), { name: 'level.data', content: randomBytes(5000) }]), 'level.data', 10),
        path: 'level.data',
        message: /more bytes than its entry declares/,
      },
    ];
    for (const { rule, zip, path, message } of cases) {
      const problems = await problemsOf(zip);
      expect(problems, rule).toEqual([expect.objectContaining({ rule, ...(path ? { path } : {}), message: expect.stringMatching(message) })]);
    }
    // The limits: a build made to meet smaller ones (the real ones need hundreds of megabytes).
    const { inspectBuildArchive } = await import('./build-archive.ts');
    const file = join(buildsDir, 'limits.zip');
    const zip = await makeZip([...sdkGameEntries(), { name: 'a.json', content: '{"a":1}'.repeat(100) }]);
    writeFileSync(file, zip);
    const inspected = await inspectBuildArchive(file, zip.length, { totalBytes: 500, files: 3, fileBytes: 400, ratio: 200 });
    expect(inspected.problems.map((problem) => problem.rule).sort()).toEqual(['file_size', 'files', 'total']);
    // Nothing was kept of any refused zip.
    const { builds } = await api.services.builds.list({ userId: owner.userInfo.uid, tokenId: 0 }, game.id);
    expect(builds.map((build) => build.version)).toEqual([3, 2, 1]);
  });

  it('answers every problem of a zip at once, in the caller’s language', async () => {
    const zip = rename(
      await makeZip([
        { name: 'main.html', content: '<p>' },
        { name: 'run.sh', content: 'rm -rf /' },
        { name: 'zz/x.js', content: '1' },
        { name: 'link.js', content: 'x', mode: 0o120777 },
      ]),
      'zz/x.js',
      '../x.js',
    );
    const problems = await problemsOf(zip);
    expect(problems.map((problem) => problem.rule).sort()).toEqual(['entry', 'link', 'path', 'type']);
    const csrf = await api.csrfHeaders();
    const created = await api.app.inject({
      method: 'POST',
      url: `/serve/api/studio/games/${game.id}/uploads`,
      headers: { ...csrf, authorization: `Bearer ${owner.token}`, 'tus-resumable': '1.0.0', 'upload-length': String(zip.length), locale: 'zh-CN' },
    });
    const answer = await api.app.inject({
      method: 'PATCH',
      url: String(created.headers.location),
      headers: {
        ...csrf,
        authorization: `Bearer ${owner.token}`,
        'tus-resumable': '1.0.0',
        'upload-offset': '0',
        'content-type': 'application/offset+octet-stream',
        locale: 'zh-CN',
      },
      payload: zip,
    });
    expect(answer.statusCode).toBe(422);
    expect(answer.json().message).toBe('此 zip 有 4 个问题。');
  });

  it('serves a build to its private preview host only, then the approved build to players, and rolls back', async () => {
    const first = await uploadOk(sdkGameEntries('First build'));
    const host = `${game.slug}.games.localhost:3001`;
    // Not published: the game's host serves nothing.
    expect((await get(host, '/index.html')).statusCode).toBe(404);
    const label = new URL(first.previewUrl).searchParams.get('preview')!;
    expect(first.previewUrl).toBe(`${api.config.publicOrigin}/qa/${game.slug}?preview=${label}`);
    // Previews are on a site of their own (decision 108): a preview cannot set cookies published games receive.
    expect((await get(`${label}.preview.games.localhost:3001`, '/index.html')).statusCode).toBe(404);
    const preview = await get(`${label}.previews.localhost:3001`, '/index.html');
    expect(preview.statusCode).toBe(200);
    expect(preview.body).toContain('First build');
    expect(preview.headers['content-security-policy']).toContain(`frame-ancestors ${api.config.publicOrigin}`);
    const wasm = await get(`${label}.previews.localhost:3001`, '/Build/game.wasm', { range: 'bytes=0-3' });
    expect(wasm.statusCode).toBe(206);
    expect(wasm.headers['content-type']).toBe('application/wasm');
    // A label not signed by the portal, or another build's number under this signature, finds nothing.
    expect((await get(`${label.slice(0, -1)}0.previews.localhost:3001`, '/index.html')).statusCode).toBe(404);
    expect((await get(`${label.replace(/^b\d+/, `b${first.id + 1}`)}.previews.localhost:3001`, '/index.html')).statusCode).toBe(404);
    // The QA page's game for the link: on the preview host, whatever the game's publication.
    const config = await api.services.builds.previewConfig('en', game.slug, label);
    expect(config?.url).toBe(`http://${label}.previews.localhost:3001/index.html?locale=en`);
    expect(await api.services.builds.previewConfig('en', 'alpha', label)).toBeNull();

    const ownerCaller = { userId: owner.userInfo.uid, tokenId: 0 };
    const operatorCaller = { userId: operator.userInfo.uid, tokenId: 0 };
    // A game without its thumbnail cannot be sent for review: approval would publish a tile without a picture.
    await api.database.db.updateTable('apps').set({ thumbnail: '' }).where('id', '=', game.id).execute();
    await expect(api.services.builds.submit(ownerCaller, game.id, first.id)).rejects.toMatchObject({
      code: 'conflict',
      message: 'studio:builds.errors.needsThumbnail',
    });
    expect((await api.database.db.selectFrom('game_builds').select('status').where('id', '=', first.id).executeTakeFirstOrThrow()).status).toBe('uploaded');
    await api.database.db.updateTable('apps').set({ thumbnail: '/games/alpha/thumbnail.png' }).where('id', '=', game.id).execute();
    await api.services.builds.submit(ownerCaller, game.id, first.id);
    const queue = await api.services.builds.queue(operatorCaller, 'en');
    expect(queue.map((build) => build.id)).toContain(first.id);
    await api.services.builds.approve(operatorCaller, first.id);
    const played = await get(host, '/index.html');
    expect(played.statusCode).toBe(200);
    expect(played.body).toContain('First build');
    const row = await api.database.db.selectFrom('apps').select(['published', 'live_build_id']).where('id', '=', game.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ published: 1, live_build_id: first.id });
    const configForPlayers = await api.services.catalogue.gameConfig('en', { id: game.id });
    expect(configForPlayers.url).toBe(`http://${game.slug}.games.localhost:3001/index.html?locale=en`);
    expect(configForPlayers.offlineCopy).toBeNull();

    // A second build: previewed and rejected, it is never what players get.
    const second = await uploadOk(sdkGameEntries('Second build'));
    await api.services.builds.submit(ownerCaller, game.id, second.id);
    const rejected = await api.services.builds.reject(operatorCaller, second.id, 'The sound does not stop when paused.');
    expect(rejected).toMatchObject({ status: 'rejected', reason: 'The sound does not stop when paused.', live: false });
    expect((await get(host, '/index.html')).body).toContain('First build');
    // Sent again, then approved: live at once.
    await api.services.builds.submit(ownerCaller, game.id, second.id);
    await api.services.builds.approve(operatorCaller, second.id);
    expect((await get(host, '/index.html')).body).toContain('Second build');
    // Rolled back in one call: the first build is live again.
    const back = await api.services.builds.rollback(ownerCaller, game.id);
    expect(back).toMatchObject({ id: first.id, live: true });
    expect((await get(host, '/index.html')).body).toContain('First build');
    const { builds } = await api.services.builds.list(ownerCaller, game.id);
    expect(builds.find((build) => build.id === second.id)).toMatchObject({ status: 'approved', live: false });
    // Nothing before the first: a rollback has nowhere to go.
    await expect(api.services.builds.rollback(ownerCaller, game.id)).rejects.toMatchObject({ code: 'conflict' });

    const log = await api.database.db
      .selectFrom('audit_log')
      .select(['action', 'target_id', 'operator_user_id'])
      .where('operator_user_id', '=', operator.userInfo.uid)
      .orderBy('id')
      .execute();
    expect(log.map((entry) => `${entry.action}:${entry.target_id}`)).toEqual([
      `build.approve:${first.id}`,
      `build.reject:${second.id}`,
      `build.approve:${second.id}`,
    ]);
    await api.services.builds.approve(operatorCaller, second.id).catch((error: unknown) => expect(error).toBeInstanceOf(AppError));
  });

  it("shows operators where a game's rollback goes and rolls it back with a reason; refused callers change nothing", async () => {
    const rolled = await insertDeveloperGame(api.database.db, owner.userInfo.uid);
    const build = (version: number, status: 'approved' | 'rejected') =>
      insertReviewedBuild(api.database.db, { appId: rolled.id, version, status, uploadedBy: owner.userInfo.uid, reviewedBy: operator.userInfo.uid });
    const first = await build(1, 'approved');
    await build(2, 'rejected');
    const third = await build(3, 'approved');
    await api.database.db.updateTable('apps').set({ live_build_id: third.id, published: 1 }).where('id', '=', rolled.id).execute();
    const listed = async () => {
      const response = await api.call('GET', `/console/games/?q=${rolled.slug}`, { token: operator.token });
      expect(response.statusCode, response.body).toBe(200);
      return response.json().data.items.find((item: { id: number }) => item.id === rolled.id);
    };
    // The rejected version 2 is skipped: the rollback goes to version 1.
    expect(await listed()).toMatchObject({ liveVersion: 3, rollbackVersion: 1 });
    const liveBuild = async () =>
      (await api.database.db.selectFrom('apps').select('live_build_id').where('id', '=', rolled.id).executeTakeFirstOrThrow()).live_build_id;
    const auditCount = async () =>
      (await api.database.db.selectFrom('audit_log').select('id').where('action', '=', 'build.rollback').where('target_id', '=', String(rolled.id)).execute())
        .length;

    for (const [who, token, status] of [
      ['no token', undefined, 401],
      ['member', member.token, 403],
      ['developer of the game', owner.token, 403],
    ] as const) {
      const response = await api.call('POST', `/console/games/${rolled.id}/rollback`, { token, body: { reason: 'Crashes on start.' } });
      expect(response.statusCode, `${who}: ${response.body}`).toBe(status);
      expect(await liveBuild(), who).toBe(third.id);
      expect(await auditCount(), who).toBe(0);
    }
    // The game list of the Console is for operators only too.
    expect((await api.call('GET', '/console/games/', { token: owner.token })).statusCode).toBe(403);

    const response = await api.call('POST', `/console/games/${rolled.id}/rollback`, { token: operator.token, body: { reason: 'Crashes on start.' } });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().data).toMatchObject({ id: first.id, version: 1, live: true });
    expect(await liveBuild()).toBe(first.id);
    expect(await listed()).toMatchObject({ liveVersion: 1, rollbackVersion: null });
    const entry = await api.database.db
      .selectFrom('audit_log')
      .select(['operator_user_id', 'target_type', 'detail'])
      .where('action', '=', 'build.rollback')
      .where('target_id', '=', String(rolled.id))
      .executeTakeFirstOrThrow();
    expect(entry.operator_user_id).toBe(operator.userInfo.uid);
    expect(entry.target_type).toBe('game');
    expect(JSON.parse(entry.detail)).toMatchObject({ from: third.id, to: first.id, version: 1, reason: 'Crashes on start.' });
    // Nowhere further back: refused, nothing recorded.
    expect((await api.call('POST', `/console/games/${rolled.id}/rollback`, { token: operator.token })).statusCode).toBe(409);
    expect(await auditCount()).toBe(1);
  });

  it('lets the developer make any approved build live, back past several and forward again; not a build in review, rejected or of another game (decision 122)', async () => {
    const switched = await insertDeveloperGame(api.database.db, owner.userInfo.uid);
    const otherGame = await insertDeveloperGame(api.database.db, owner.userInfo.uid);
    const build = (appId: number, version: number, status: 'approved' | 'rejected') =>
      insertReviewedBuild(api.database.db, { appId, version, status, uploadedBy: owner.userInfo.uid, reviewedBy: operator.userInfo.uid });
    const v1 = await build(switched.id, 1, 'approved');
    const v2 = await build(switched.id, 2, 'approved');
    const v3 = await build(switched.id, 3, 'rejected');
    const v4 = await build(switched.id, 4, 'approved');
    const foreign = await build(otherGame.id, 1, 'approved');
    await api.database.db.updateTable('apps').set({ live_build_id: v4.id, published: 1 }).where('id', '=', switched.id).execute();
    const liveBuild = async () =>
      (await api.database.db.selectFrom('apps').select('live_build_id').where('id', '=', switched.id).executeTakeFirstOrThrow()).live_build_id;
    const makeLive = (buildId: number, token: string | undefined) => api.call('POST', `/studio/games/${switched.id}/builds/${buildId}/live`, { token });

    // Back past version 2 straight to version 1, then forward to 2, then to 4.
    for (const target of [v1, v2, v4]) {
      const response = await makeLive(target.id, owner.token);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json().data).toMatchObject({ id: target.id, live: true });
      expect(await liveBuild()).toBe(target.id);
    }
    // The live build again: no change, the same answer.
    expect((await makeLive(v4.id, owner.token)).statusCode).toBe(200);
    expect(await liveBuild()).toBe(v4.id);

    // Refused, and nothing changes: a rejected build (named in the visitor's language), another game's build, a build that does not exist, other callers.
    const rejected = await api.call('POST', `/studio/games/${switched.id}/builds/${v3.id}/live`, { token: owner.token, headers: { locale: 'zh-CN' } });
    expect(rejected.statusCode).toBe(409);
    expect(rejected.json().message).toBe('版本 3 尚未通过审核：只有通过审核的版本才能上线。');
    expect((await makeLive(foreign.id, owner.token)).statusCode).toBe(404);
    expect((await makeLive(999_999_999, owner.token)).statusCode).toBe(404);
    expect((await makeLive(v1.id, undefined)).statusCode).toBe(401);
    expect((await makeLive(v1.id, member.token)).statusCode).toBe(403);
    expect((await makeLive(v1.id, other.token)).statusCode).toBe(404);
    expect((await makeLive(v1.id, operator.token)).statusCode).toBe(403);
    expect(await liveBuild()).toBe(v4.id);
    expect(
      (await api.database.db.selectFrom('apps').select('live_build_id').where('id', '=', otherGame.id).executeTakeFirstOrThrow()).live_build_id,
    ).toBeNull();
  });

  it('checks the role for every call: no token, guest, member, other developer, owner, operator', async () => {
    const build = await uploadOk(sdkGameEntries('Matrix'));
    const zip = await makeZip(sdkGameEntries());
    type Who = 'none' | 'guest' | 'member' | 'other' | 'owner' | 'operator';
    const tokenOf = (who: Who) =>
      ({ none: undefined, guest: guest.token, member: member.token, other: other.token, owner: owner.token, operator: operator.token })[who];
    const expectations: { call: string; run: (token: string | undefined) => Promise<LightMyRequestResponse>; status: Record<Who, number> }[] = [
      {
        call: 'upload',
        run: (token) => upload(token, game.id, zip),
        status: { none: 401, guest: 403, member: 403, other: 404, owner: 200, operator: 403 },
      },
      {
        call: 'list',
        run: (token) => api.call('GET', `/studio/games/${game.id}/builds`, { token }),
        status: { none: 401, guest: 403, member: 403, other: 404, owner: 200, operator: 403 },
      },
      {
        call: 'submit',
        run: (token) => api.call('POST', `/studio/games/${game.id}/builds/${build.id}/submit`, { token }),
        status: { none: 401, guest: 403, member: 403, other: 404, owner: 200, operator: 403 },
      },
      {
        call: 'queue',
        run: (token) => api.call('GET', '/console/reviews', { token }),
        status: { none: 401, guest: 403, member: 403, other: 403, owner: 403, operator: 200 },
      },
      {
        call: 'reject',
        run: (token) => api.call('POST', `/console/builds/${build.id}/reject`, { token, body: { reason: 'Crashes at level 2.' } }),
        status: { none: 401, guest: 403, member: 403, other: 403, owner: 403, operator: 200 },
      },
      {
        call: 'developer rollback',
        run: (token) => api.call('POST', `/studio/games/${game.id}/rollback`, { token }),
        status: { none: 401, guest: 403, member: 403, other: 404, owner: 200, operator: 403 },
      },
      {
        call: 'operator rollback',
        run: (token) => api.call('POST', `/console/games/${game.id}/rollback`, { token }),
        status: { none: 401, guest: 403, member: 403, other: 403, owner: 403, operator: 200 },
      },
    ];
    // Give the rollbacks two approved builds to go between.
    const ownerCaller = { userId: owner.userInfo.uid, tokenId: 0 };
    const operatorCaller = { userId: operator.userInfo.uid, tokenId: 0 };
    const a = await uploadOk(sdkGameEntries('A'));
    const b = await uploadOk(sdkGameEntries('B'));
    for (const id of [a.id, b.id]) {
      await api.services.builds.submit(ownerCaller, game.id, id);
      await api.services.builds.approve(operatorCaller, id);
    }
    for (const { call, run, status } of expectations) {
      for (const who of ['none', 'guest', 'member', 'other', 'operator', 'owner'] as Who[]) {
        if (call === 'reject' && who === 'operator') await api.services.builds.submit(ownerCaller, game.id, build.id).catch(() => undefined);
        const response = await run(tokenOf(who));
        expect(response.statusCode, `${call} as ${who}: ${response.body}`).toBe(status[who]);
      }
    }
    // Approve as each role: only the operator's call changes anything.
    const c = await uploadOk(sdkGameEntries('C'));
    await api.services.builds.submit(ownerCaller, game.id, c.id);
    for (const who of ['none', 'guest', 'member', 'other', 'owner'] as Who[]) {
      const response = await api.call('POST', `/console/builds/${c.id}/approve`, { token: tokenOf(who) });
      expect(response.statusCode, `approve as ${who}`).toBe(who === 'none' ? 401 : 403);
    }
    expect((await api.call('POST', `/console/builds/${c.id}/approve`, { token: operator.token })).statusCode).toBe(200);
    // Replays and bad input change nothing and are never a 500.
    expect((await api.call('POST', `/console/builds/${c.id}/approve`, { token: operator.token })).statusCode).toBe(409);
    expect((await api.call('POST', `/console/builds/${c.id}/reject`, { token: operator.token, body: { reason: '  ' } })).statusCode).toBe(422);
    expect((await api.call('POST', `/console/builds/99999999/approve`, { token: operator.token })).statusCode).toBe(404);
    expect((await api.call('POST', `/console/builds/abc/approve`, { token: operator.token })).statusCode).toBe(422);
    expect((await api.call('POST', `/studio/games/${game.id}/builds/${c.id}/submit`, { token: owner.token })).statusCode).toBe(409);
    // A build of one game named under another game's address is not found.
    const otherGame = await insertDeveloperGame(api.database.db, other.userInfo.uid);
    expect((await api.call('POST', `/studio/games/${otherGame.id}/builds/${build.id}/submit`, { token: other.token })).statusCode).toBe(404);
    // An upload of one game cannot be continued under another's address.
    const csrf = await api.csrfHeaders();
    const created = await api.app.inject({
      method: 'POST',
      url: `/serve/api/studio/games/${game.id}/uploads`,
      headers: { ...csrf, authorization: `Bearer ${owner.token}`, 'tus-resumable': '1.0.0', 'upload-length': String(zip.length) },
    });
    const stolen = String(created.headers.location).replace(`/games/${game.id}/`, `/games/${otherGame.id}/`);
    const patched = await api.app.inject({
      method: 'PATCH',
      url: stolen,
      headers: {
        ...csrf,
        authorization: `Bearer ${other.token}`,
        'tus-resumable': '1.0.0',
        'upload-offset': '0',
        'content-type': 'application/offset+octet-stream',
      },
      payload: zip,
    });
    expect(patched.statusCode).toBe(404);
    // Without the XSRF token a browser's upload is refused.
    const noCsrf = await api.app.inject({
      method: 'POST',
      url: `/serve/api/studio/games/${game.id}/uploads`,
      headers: { authorization: `Bearer ${owner.token}`, 'tus-resumable': '1.0.0', 'upload-length': '10' },
    });
    expect(noCsrf.statusCode).toBe(419);
  });
});
