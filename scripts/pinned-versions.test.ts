import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const MANIFESTS = ['package.json', 'studio-cli/package.json', 'sdk/package.json'];
const DEPENDENCY_FIELDS = ['dependencies', 'devDependencies', 'optionalDependencies', 'peerDependencies'] as const;
const EXACT = /^\d+\.\d+\.\d+(-[\w.]+)?$/;

/** `name@range` for each dependency of a manifest that names a range instead of one version (decision 134). */
function unpinned(manifest: Record<string, unknown>): string[] {
  return DEPENDENCY_FIELDS.flatMap((field) =>
    Object.entries((manifest[field] ?? {}) as Record<string, string>)
      .filter(([, version]) => !EXACT.test(version))
      .map(([name, version]) => `${name}@${version}`),
  );
}

describe('dependency versions', () => {
  it('are exact in every package manifest', () => {
    for (const path of MANIFESTS) expect(unpinned(JSON.parse(readFileSync(path, 'utf8'))), path).toEqual([]);
  });

  it('notices a range', () => {
    expect(unpinned({ dependencies: { jose: '^6.2.18', zod: '4.6.7' }, devDependencies: { '@types/pg': '*', '@types/node': '24' } })).toEqual([
      'jose@^6.2.18',
      '@types/pg@*',
      '@types/node@24',
    ]);
  });
});
