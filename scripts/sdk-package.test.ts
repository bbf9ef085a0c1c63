import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SDK_DIR, sdkVersionProblem, sdkVersions } from './sdk-package.ts';

describe('the game SDK package (sdk/)', () => {
  it('states one version in package.json, the runtime, the types and the newest changelog entry', () => {
    const versions = sdkVersions();
    expect(versions.package).toMatch(/^\d+\.\d+\.\d+/);
    expect(versions).toEqual({ package: versions.package, runtime: versions.package, types: versions.package, changelog: versions.package });
    expect(sdkVersionProblem(versions)).toBeNull();
  });

  it('reports a version that one place forgot to raise, and a place with none', () => {
    expect(sdkVersionProblem({ package: '1.2.0', runtime: '1.1.0', types: '1.2.0', changelog: '1.2.0' })).toMatch(/differ/);
    expect(sdkVersionProblem({ package: '1.2.0', runtime: null, types: '1.2.0', changelog: '1.2.0' })).toMatch(/semantic version/);
  });

  it('is the version a game reads from the served runtime', () => {
    // The runtime, run as a game's page would run it: the frozen object's version is the package's.
    const source = readFileSync(join(SDK_DIR, 'v1/playport.js'), 'utf8');
    const window = { parent: null as unknown, addEventListener() {}, Playport: undefined as { version: string } | undefined };
    window.parent = window;
    new Function('window', 'addEventListener', 'document', 'location', source)(
      window,
      () => {},
      { baseURI: 'http://localhost:3000/', documentElement: { lang: 'en' } },
      new URL('http://localhost:3000/'),
    );
    expect(window.Playport?.version).toBe(sdkVersions().package);
  });

  it('ships the runtime, its types and the docs, and points its entry points at them', () => {
    const manifest = JSON.parse(readFileSync(join(SDK_DIR, 'package.json'), 'utf8'));
    expect(manifest.name).toBe('@playport/sdk');
    expect(manifest.types).toBe('./v1/playport.d.ts');
    expect(manifest.exports['.']).toEqual({ types: './v1/playport.d.ts', default: './v1/playport.js' });
    expect(manifest.files).toEqual(expect.arrayContaining(['v1/playport.js', 'v1/playport.d.ts', 'README.md', 'CHANGELOG.md']));
  });

  it('packs into a tarball of the runtime, its types, the README and the changelog, nothing else', () => {
    const packed = spawnSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: SDK_DIR, encoding: 'utf8' });
    expect(packed.status, packed.stderr).toBe(0);
    const [tarball] = JSON.parse(packed.stdout) as Array<{ name: string; version: string; files: Array<{ path: string }> }>;
    expect(tarball).toMatchObject({ name: '@playport/sdk', version: sdkVersions().package });
    expect(tarball!.files.map((file) => file.path).sort()).toEqual(['CHANGELOG.md', 'README.md', 'package.json', 'v1/playport.d.ts', 'v1/playport.js']);
  });

  it('lists every module of version 1.1 in the changelog', () => {
    const changelog = readFileSync(join(SDK_DIR, 'CHANGELOG.md'), 'utf8');
    const entry = changelog.split(/^## /m).find((section) => section.startsWith('1.1.0'))!;
    for (const module of ['auth', 'items', 'leaderboard', 'achievements', 'game', 'settings', 'ad']) expect(entry).toContain(`\`${module}\``);
  });
});
