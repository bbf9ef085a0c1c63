// The game SDK is the package in sdk/ (@playport/sdk, decision 094): the portal and the games
// origin serve its v1/playport.js as it is, so its version is stated in four places that must
// agree: package.json, the runtime's `Playport.version`, the types' `version` and the newest
// entry of CHANGELOG.md. `npm run typecheck` runs this check; a unit test runs it too.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** The package folder. */
export const SDK_DIR = resolve(import.meta.dirname, '..', 'sdk');

export interface SdkVersions {
  package: string | null;
  runtime: string | null;
  types: string | null;
  changelog: string | null;
}

const read = (file: string) => readFileSync(join(SDK_DIR, file), 'utf8');

/** The version as each of the four places states it (null where none is found). */
export function sdkVersions(): SdkVersions {
  const manifest = JSON.parse(read('package.json')) as { version?: unknown };
  return {
    package: typeof manifest.version === 'string' ? manifest.version : null,
    runtime: /^\s*version: '([^']+)',$/m.exec(read('v1/playport.js'))?.[1] ?? null,
    types: /^\s*readonly version: '([^']+)';$/m.exec(read('v1/playport.d.ts'))?.[1] ?? null,
    changelog: /^## (\S+)/m.exec(read('CHANGELOG.md'))?.[1] ?? null,
  };
}

/** What is wrong with the versions, or null when all four are the same semantic version. */
export function sdkVersionProblem(versions: SdkVersions = sdkVersions()): string | null {
  const values = Object.values(versions);
  if (values.some((value) => value === null || !/^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/.test(value)))
    return `every place must state a semantic version: ${JSON.stringify(versions)}`;
  if (new Set(values).size !== 1) return `the versions differ: ${JSON.stringify(versions)}`;
  return null;
}

if (import.meta.main) {
  const problem = sdkVersionProblem();
  if (problem) {
    console.error(`sdk/ (@playport/sdk): ${problem}. Raise package.json, v1/playport.js, v1/playport.d.ts and CHANGELOG.md together.`);
    process.exit(1);
  }
  console.log(`Game SDK ${sdkVersions().package}: package, runtime, types and changelog agree.`);
}
