import { execFile, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiProcess, startApiProcess } from '#server/testing/api-process-start.ts';
import { insertDeveloperGame, sdkGameEntries, writeBuildFolder, type ZipEntry } from '#server/testing/developer-games.ts';
import { openTestApi, type TestApi } from '#server/testing/test-api.ts';
import { testPlayers } from '#server/testing/test-players.ts';

/*
 * The playport-studio package (decision 123) as a studio's pipeline gets it: packed into a
 * tarball, installed offline into an empty project, its bin run by the oldest Node.js it
 * supports (the system's /usr/bin/node where there is one) with no checkout of the portal on
 * its path, against the API in a process of its own.
 */

const ROOT = resolve(import.meta.dirname, '../../..');
const PACKAGE = join(ROOT, 'studio-cli');
const scratch = mkdtempSync(join(tmpdir(), 'playport-studio-package-'));
const buildsDir = join(scratch, 'builds');
const project = join(scratch, 'pipeline');
// The system's Node.js (20 on the machines this runs on), older than the portal's 24.
const systemNode = existsSync('/usr/bin/node') ? '/usr/bin/node' : process.execPath;
const npm = (args: string[], cwd: string) => spawnSync('npm', args, { cwd, encoding: 'utf8', env: { ...process.env, npm_config_update_notifier: 'false' } });

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

const folderOf = (name: string, entries: ZipEntry[]) => writeBuildFolder(join(scratch, name), entries);

/** stdout is one JSON document and nothing else. */
function onlyJson(run: Run) {
  expect(run.stdout.endsWith('\n'), run.stderr).toBe(true);
  expect(run.stdout.trimEnd().split('\n'), run.stderr).toHaveLength(1);
  return JSON.parse(run.stdout);
}

describe('the playport-studio package (decision 123)', { timeout: 120_000 }, () => {
  let api: TestApi;
  let server: ApiProcess | undefined;
  let url: string;
  let key: string;
  let game: { id: number; slug: string };
  const players = testPlayers(() => api, 123);
  let packed: { filename: string; files: { path: string }[] };

  /** The installed bin, found on PATH as a pipeline finds it, run by the system's Node.js only. */
  function studio(args: string[], env: Record<string, string> = {}): Promise<Run> {
    return new Promise((done) => {
      execFile(
        join(project, 'node_modules/.bin/playport-studio'),
        args,
        {
          cwd: project,
          env: { PATH: `${dirname(systemNode)}:/bin:/usr/bin`, HOME: scratch, PLAYPORT_API_KEY: key, PLAYPORT_URL: url, ...env },
          timeout: 60_000,
        },
        (error, stdout, stderr) => done({ code: error ? Number((error as { code?: number }).code ?? -1) : 0, stdout, stderr }),
      );
    });
  }

  beforeAll(async () => {
    const pack = npm(['pack', '--json', '--pack-destination', scratch], PACKAGE);
    expect(pack.status, pack.stderr).toBe(0);
    packed = (JSON.parse(pack.stdout.slice(pack.stdout.indexOf('['))) as (typeof packed)[])[0]!;
    mkdirSync(project);
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'pipeline', private: true, type: 'module' }));
    const install = npm(['install', '--offline', '--no-audit', '--no-fund', join(scratch, packed.filename)], project);
    expect(install.status, install.stderr).toBe(0);

    api = await openTestApi({ BUILDS_DIR: buildsDir });
    const owner = await players.newMember();
    await api.services.developers.saveProfile(owner.userInfo.uid, { studioName: 'Packaged', contactEmail: 'ci@packaged.test' });
    game = await insertDeveloperGame(api.database.db, owner.userInfo.uid);
    key = (await api.call('POST', '/studio/keys/', { token: owner.token, body: { name: 'CI' } })).json().data.key;
    server = await startApiProcess({ ...api.database.env, BUILDS_DIR: buildsDir });
    url = server.origin;
  });
  afterAll(async () => {
    await server?.stop();
    await api?.close();
    await rm(scratch, { recursive: true, force: true });
  });

  it('packs the command, its code, the SDK types and the README, with no dependencies', () => {
    expect(packed.files.map((file) => file.path).sort()).toEqual([
      'README.md',
      'bin/playport-studio.js',
      'lib/push.js',
      'lib/tus.js',
      'lib/zip.js',
      'package.json',
      'sdk/playport.d.ts',
    ]);
    const installed = npm(['ls', '--all', '--json'], project);
    expect(Object.keys(JSON.parse(installed.stdout).dependencies)).toEqual(['playport-studio']);
    expect(JSON.parse(installed.stdout).dependencies['playport-studio'].dependencies).toBeUndefined();
  });

  it('pushes and submits a build from the installed package on the system Node.js, stdout one JSON answer', async () => {
    const version = spawnSync(systemNode, ['--version'], { encoding: 'utf8' }).stdout.trim();
    expect(Number(/^v(\d+)\./.exec(version)?.[1])).toBeGreaterThanOrEqual(20);
    const run = await studio(['push', folderOf('valid', sdkGameEntries('From the package')), '--game', game.slug, '--submit']);
    expect(run.code, run.stderr).toBe(0);
    expect(onlyJson(run)).toEqual({
      ok: true,
      build: { id: expect.any(Number), version: 1, status: 'submitted', previewUrl: expect.stringContaining(`/qa/${game.slug}?preview=b`) },
    });
    expect(run.stderr).toMatch(/uploading 100%/);
    expect(run.stderr).toMatch(/sent for review/);
  });

  it('answers the problems of a refused folder and a usage error as JSON only, with exit 1 and 2', async () => {
    const refused = await studio(['push', folderOf('invalid', [{ name: 'main.html', content: '<p>' }]), '--game', game.slug]);
    expect(refused.code).toBe(1);
    expect(onlyJson(refused)).toEqual({ ok: false, problems: [expect.objectContaining({ rule: 'entry' })] });
    const usage = await studio(['push', '--game', game.slug]);
    expect(usage.code).toBe(2);
    expect(onlyJson(usage)).toEqual({ ok: false, problems: [{ rule: 'usage', message: expect.stringMatching(/folder/) }] });
    expect(usage.stderr).toMatch(/^usage: playport-studio push/);
    const help = await studio(['--help']);
    expect(help.code).toBe(0);
    expect(onlyJson(help)).toEqual({ ok: true, usage: expect.stringMatching(/^usage: playport-studio push/) });
  });

  it('gives a studio the SDK types to import', () => {
    writeFileSync(
      join(project, 'game.ts'),
      "import type { PlayportLogin, Playport } from 'playport-studio';\nexport const version: Playport['version'] | null = null;\nexport const show = (login: PlayportLogin) => login.user;\n",
    );
    writeFileSync(
      join(project, 'tsconfig.json'),
      JSON.stringify({ files: ['game.ts'], compilerOptions: { module: 'nodenext', moduleResolution: 'nodenext', strict: true, noEmit: true, types: [] } }),
    );
    const checked = spawnSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', project], { encoding: 'utf8' });
    expect(checked.status, checked.stdout + checked.stderr).toBe(0);
    writeFileSync(join(project, 'game.ts'), "import type { PlayportLogin } from 'playport-studio';\nexport const wrong: PlayportLogin = { user: 1 };\n");
    expect(spawnSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', project], { encoding: 'utf8' }).status).not.toBe(0);
  });
});
