import { execFile } from 'node:child_process';
import { mkdtempSync, symlinkSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiProcess, startApiProcess } from '#server/testing/api-process-start.ts';
import { insertDeveloperGame, sdkGameEntries, writeBuildFolder, type ZipEntry } from '#server/testing/developer-games.ts';
import { openTestApi, type TestApi } from '#server/testing/test-api.ts';
import { type TestPlayer, testPlayers } from '#server/testing/test-players.ts';

/*
 * The command-line upload (decision 102) as a build pipeline runs it: `scripts/studio.ts` in a
 * process of its own, against the API in another, over HTTP on loopback.
 */

const ROOT = resolve(import.meta.dirname, '../../..');
const scratch = mkdtempSync(join(tmpdir(), 'playport-studio-cli-'));
const buildsDir = join(scratch, 'builds');

interface Answer {
  code: number | null;
  json: {
    ok: boolean;
    build?: { id: number; version: number; status: string; previewUrl: string };
    problems?: { rule: string; path?: string; message: string }[];
  };
  stderr: string;
}

const folderOf = (name: string, entries: ZipEntry[]) => writeBuildFolder(join(scratch, name), entries);

// Each test starts Node.js processes with the TypeScript sources: seconds on a quiet machine,
// more on a busy one.
describe('npm run studio -- push (decision 102)', { timeout: 90_000 }, () => {
  let api: TestApi;
  let server: ApiProcess | undefined;
  let url: string;
  const players = testPlayers(() => api, 103);
  let owner: TestPlayer;
  let other: TestPlayer;
  let game: { id: number; slug: string };
  let othersGame: { id: number; slug: string };
  let key: string;

  function push(args: string[], env: Record<string, string> = {}): Promise<Answer> {
    return new Promise((done) => {
      execFile(
        process.execPath,
        [join(ROOT, 'studio-cli/bin/playport-studio.js'), ...args],
        { cwd: ROOT, env: { ...process.env, PLAYPORT_API_KEY: key, PLAYPORT_URL: url, ...env }, timeout: 60_000 },
        (error, stdout, stderr) => {
          // One JSON document on stdout, whatever happened.
          expect(stdout.trim().split('\n'), stderr).toHaveLength(1);
          done({ code: error ? ((error as { code?: number }).code ?? null) : 0, json: JSON.parse(stdout), stderr });
        },
      );
    });
  }

  beforeAll(async () => {
    api = await openTestApi({ BUILDS_DIR: buildsDir });
    [owner, other] = await Promise.all([players.newMember(), players.newMember()]);
    await api.services.developers.saveProfile(owner.userInfo.uid, { studioName: 'Pipeline', contactEmail: 'ci@pipeline.test' });
    await api.services.developers.saveProfile(other.userInfo.uid, { studioName: 'Other', contactEmail: 'dev@other.test' });
    game = await insertDeveloperGame(api.database.db, owner.userInfo.uid);
    othersGame = await insertDeveloperGame(api.database.db, other.userInfo.uid);
    const made = await api.call('POST', '/studio/keys/', { token: owner.token, body: { name: 'CI' } });
    key = made.json().data.key;

    server = await startApiProcess({ ...api.database.env, BUILDS_DIR: buildsDir });
    url = server.origin;
  });
  afterAll(async () => {
    await server?.stop();
    await api?.close();
    await rm(scratch, { recursive: true, force: true });
  });

  it('pushes a valid folder and submits the build, answering it as JSON', async () => {
    const folder = folderOf('valid', sdkGameEntries('From the pipeline'));
    const answer = await push(['push', folder, '--game', game.slug, '--submit']);
    expect(answer.code, answer.stderr).toBe(0);
    expect(answer.json).toEqual({
      ok: true,
      build: { id: expect.any(Number), version: 1, status: 'submitted', previewUrl: expect.stringContaining(`/qa/${game.slug}?preview=b`) },
    });
    expect(answer.stderr).toMatch(/uploading 100%/);
    const { builds } = await api.services.builds.list({ userId: owner.userInfo.uid, tokenId: 0 }, game.id);
    expect(builds[0]).toMatchObject({ id: answer.json.build!.id, status: 'submitted', fileCount: 3, entryPath: 'index.html' });

    // Without --submit the build stays uploaded.
    const second = await push(['push', folder, '--game', game.slug]);
    expect(second.code, second.stderr).toBe(0);
    expect(second.json.build).toMatchObject({ version: 2, status: 'uploaded' });
  });

  it('lists every problem of an invalid folder and exits 1, keeping nothing', async () => {
    const folder = folderOf('invalid', [
      { name: 'main.html', content: '<p>' },
      { name: 'run.sh', content: 'rm -rf /' },
    ]);
    symlinkSync('/etc/passwd', join(folder, 'secret.js'));
    const before = (await api.services.builds.list({ userId: owner.userInfo.uid, tokenId: 0 }, game.id)).builds.length;
    const answer = await push(['push', folder, '--game', game.slug, '--submit']);
    expect(answer.code).toBe(1);
    expect(answer.json.ok).toBe(false);
    expect(answer.json.problems!.map((problem) => problem.rule).sort()).toEqual(['entry', 'link', 'type']);
    expect(answer.json.problems).toContainEqual(expect.objectContaining({ rule: 'link', path: 'secret.js', message: expect.stringMatching(/link/) }));
    expect((await api.services.builds.list({ userId: owner.userInfo.uid, tokenId: 0 }, game.id)).builds).toHaveLength(before);
  });

  it('answers a refused key, another developer’s game and a usage error', async () => {
    const folder = folderOf('again', sdkGameEntries());
    const wrong = await push(['push', folder, '--game', game.slug], { PLAYPORT_API_KEY: `${key.slice(0, -1)}${key.endsWith('A') ? 'B' : 'A'}` });
    expect(wrong.code).toBe(1);
    expect(wrong.json.problems).toEqual([expect.objectContaining({ rule: 'key' })]);
    const theirs = await push(['push', folder, '--game', othersGame.slug]);
    expect(theirs.code).toBe(1);
    expect(theirs.json.problems).toEqual([expect.objectContaining({ rule: 'game' })]);
    const usage = await push(['push', folder]);
    expect(usage.code).toBe(2);
    expect(usage.json.problems).toEqual([expect.objectContaining({ rule: 'usage', message: expect.stringMatching(/--game/) })]);
    const noKey = await push(['push', folder, '--game', game.slug], { PLAYPORT_API_KEY: '' });
    expect(noKey.code).toBe(2);
  });

  it('names the studio limit that refused the upload (decision 109)', async () => {
    const opened: string[] = [];
    for (let n = 0; n < 3; n += 1) {
      const created = await api.app.inject({
        method: 'POST',
        url: `/serve/api/studio/games/${game.id}/uploads`,
        headers: { ...(await api.csrfHeaders()), authorization: `Bearer ${owner.token}`, 'tus-resumable': '1.0.0', 'upload-length': '1000' },
      });
      expect(created.statusCode, created.body).toBe(201);
      opened.push(String(created.headers.location).split('/').at(-1)!);
    }
    const answer = await push(['push', folderOf('limited', sdkGameEntries()), '--game', game.slug]);
    expect(answer.code).toBe(1);
    expect(answer.json.problems).toEqual([{ rule: 'open_uploads', message: expect.stringMatching(/3 unfinished uploads.*\(429\)$/) }]);
    expect(answer.stderr).toMatch(/3 unfinished uploads/);
    for (const id of opened) await api.services.buildUploads.close(id);
  });
});
