// Run by `npm pack` / `npm publish` (prepack): the package ships the game SDK's types as they are
// in the repository's sdk/ (decision 123), so a studio's `import type` matches the served runtime.
import { copyFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';

const from = join(import.meta.dirname, '..', '..', 'sdk', 'v1', 'playport.d.ts');
const into = join(import.meta.dirname, '..', 'sdk', 'playport.d.ts');
mkdirSync(dirname(into), { recursive: true });
copyFileSync(from, into);
