// A committed file that a script generates (npm run typecheck): rewritten when it differs, and in
// CI a committed file that differs fails the step, so what is in the repository is what the
// sources give.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '../..');

/** Writes `content` to `file` when it differs; exits 1 in CI, where the committed file must already be current. */
export function keepGenerated(file: string, content: string, from: string): void {
  const name = relative(root, file);
  const before = existsSync(file) ? readFileSync(file, 'utf8') : null;
  if (before === content) return;
  writeFileSync(file, content);
  if (process.env.CI) {
    console.error(`${name} was out of date with ${from}: run \`npm run typecheck\` and commit it.`);
    process.exit(1);
  }
  console.log(`${name} regenerated from ${from}.`);
}
